package viewmodel

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"tensorscope/formats"
	_ "tensorscope/formats/all"
	"tensorscope/formats/npy"
	"tensorscope/formats/tsr"
	"tensorscope/internal/pyref"
	"tensorscope/tensor"
)

// allDTypes is every dtype whose elements NumPy holds byte for byte
// (bfloat16 aside, which is widened), in declaration order: the types
// these tests compare exported bytes for. TestWriteNPYWidens covers the
// rest.
func allDTypes() []tensor.DType {
	var out []tensor.DType
	for d := tensor.Bool; d <= tensor.Void128; d++ {
		out = append(out, d)
	}
	return out
}

// widenedDTypes is every dtype after those: narrow floats, times, packed
// and block-quantised types.
func widenedDTypes() []tensor.DType {
	var out []tensor.DType
	for d := tensor.Void128 + 1; d.Valid(); d++ {
		out = append(out, d)
	}
	return out
}

// randomTensor fills shape with random bytes: every bit pattern, so NaNs
// with payloads, infinities, subnormals and bools other than 0 and 1 too.
func randomTensor(t *testing.T, dt tensor.DType, shape []int, seed uint64) *tensor.Tensor {
	t.Helper()
	n, err := tensor.NumElements(shape)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, uint64(dt)))
	b := make([]byte, n*dt.Size())
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	x, err := tensor.FromBytes(b, dt, shape)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// rowMajor returns t's elements in C order as stored.
func rowMajor(t *testing.T, x *tensor.Tensor) []byte {
	t.Helper()
	var out []byte
	if err := formats.TensorChunks(x, func(c []byte) error { out = append(out, c...); return nil }); err != nil {
		t.Fatal(err)
	}
	return out
}

// widenBF16 is what a bfloat16 array becomes in a .npy file.
func widenBF16(b []byte) []byte {
	out := make([]byte, 0, 2*len(b))
	for i := 0; i+1 < len(b); i += 2 {
		out = append(out, 0, 0, b[i], b[i+1])
	}
	return out
}

var (
	npyDescrRE = regexp.MustCompile(`'descr': '([^']*)'`)
	npyOrderRE = regexp.MustCompile(`'fortran_order': (True|False)`)
	npyShapeRE = regexp.MustCompile(`'shape': \(([^)]*)\)`)
)

// readNPY is a small independent reader of format 1.0 files.
func readNPY(t *testing.T, b []byte) (descr string, shape []int, data []byte) {
	t.Helper()
	if len(b) < 10 || string(b[:8]) != "\x93NUMPY\x01\x00" {
		t.Fatalf("not a NumPy 1.0 file: % x", b[:min(len(b), 10)])
	}
	hlen := int(binary.LittleEndian.Uint16(b[8:]))
	if (10+hlen)%64 != 0 {
		t.Errorf("data starts at %d, not on a 64-byte boundary", 10+hlen)
	}
	if len(b) < 10+hlen || b[10+hlen-1] != '\n' {
		t.Fatalf("header of %d bytes does not end in a newline", hlen)
	}
	h := string(b[10 : 10+hlen])
	if !strings.HasPrefix(h, "{") || !strings.HasSuffix(strings.TrimRight(h, " \n"), "}") {
		t.Fatalf("header %q is not a dictionary", h)
	}
	m := npyDescrRE.FindStringSubmatch(h)
	o := npyOrderRE.FindStringSubmatch(h)
	s := npyShapeRE.FindStringSubmatch(h)
	if m == nil || o == nil || s == nil {
		t.Fatalf("header %q lacks descr, fortran_order or shape", h)
	}
	if o[1] != "False" {
		t.Errorf("fortran_order %s", o[1])
	}
	shape = []int{}
	for _, f := range strings.Split(s[1], ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		n, err := strconv.Atoi(f)
		if err != nil {
			t.Fatalf("shape %q: %v", s[1], err)
		}
		shape = append(shape, n)
	}
	if len(shape) == 1 && !strings.Contains(s[1], ",") {
		t.Errorf("one-dimensional shape %q lacks the tuple comma", s[1])
	}
	return m[1], shape, b[10+hlen:]
}

func TestNPYHeader(t *testing.T) {
	for _, c := range []struct {
		shape []int
		want  string
	}{
		{[]int{}, "'shape': (), }"},
		{[]int{7}, "'shape': (7,), }"},
		{[]int{2, 3, 4}, "'shape': (2, 3, 4), }"},
	} {
		h, err := npy.Header("<f4", c.shape)
		if err != nil {
			t.Fatal(err)
		}
		if len(h)%64 != 0 || h[len(h)-1] != '\n' || !bytes.Contains(h, []byte(c.want)) {
			t.Errorf("shape %v: header %q", c.shape, h)
		}
		if !bytes.HasPrefix(h[10:], []byte("{'descr': '<f4', 'fortran_order': False, ")) {
			t.Errorf("header %q", h)
		}
	}
	if _, err := npy.Header("<f4", make([]int, 30000)); err == nil {
		t.Error("a 30000-dimensional shape fits a 1.0 header")
	}
}

// Every dtype round-trips bit for bit through .npy, for scalars, vectors,
// higher ranks, empty and strided views.
func TestWriteNPYRoundTrip(t *testing.T) {
	ctx := context.Background()
	for _, dt := range allDTypes() {
		base := randomTensor(t, dt, []int{3, 4, 5}, 1)
		perm, err := base.Permute([]int{2, 0, 1})
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range []*tensor.Tensor{
			randomTensor(t, dt, []int{}, 2), randomTensor(t, dt, []int{9}, 3), base, perm,
			randomTensor(t, dt, []int{2, 0, 3}, 4),
		} {
			var b bytes.Buffer
			note, err := npy.Write(ctx, &b, x)
			if err != nil {
				t.Fatalf("%s: %v", x, err)
			}
			descr, shape, data := readNPY(t, b.Bytes())
			want := rowMajor(t, x)
			wantDescr := npy.Descr(dt)
			if dt == tensor.BFloat16 {
				want, wantDescr = widenBF16(want), "<f4"
				if !strings.Contains(note, "float32") {
					t.Errorf("bfloat16 note %q does not say it was widened", note)
				}
			} else if note != "" {
				t.Errorf("%s: note %q", dt, note)
			}
			if descr != wantDescr || fmt.Sprint(shape) != fmt.Sprint(x.Shape()) || !bytes.Equal(data, want) {
				t.Errorf("%s: read back descr %q shape %v, %d bytes (equal %v); want %q %v",
					x, descr, shape, len(data), bytes.Equal(data, want), wantDescr, x.Shape())
			}
		}
	}
}

// The widened bfloat16 values are the bfloat16 values.
func TestWriteNPYBFloat16Values(t *testing.T) {
	x := randomTensor(t, tensor.BFloat16, []int{64}, 5)
	var b bytes.Buffer
	if _, err := npy.Write(context.Background(), &b, x); err != nil {
		t.Fatal(err)
	}
	_, _, data := readNPY(t, b.Bytes())
	for i := 0; i < 64; i++ {
		got := math.Float32frombits(binary.LittleEndian.Uint32(data[4*i:]))
		want := tensor.BFloat16ToFloat32(binary.LittleEndian.Uint16(x.Storage().Bytes()[2*i:]))
		if math.Float32bits(got) != math.Float32bits(want) {
			t.Fatalf("element %d: %v, want %v", i, got, want)
		}
	}
}

// parseCSVValue reads one CSV field back into the element's stored bytes
// where the text determines them (NaN payloads and signs do not survive
// text; they are compared as NaN).
func checkCSVValue(t *testing.T, dt tensor.DType, field string, stored []byte) {
	t.Helper()
	le := binary.LittleEndian
	fail := func(err error) { t.Fatalf("%s field %q for % x: %v", dt, field, stored, err) }
	sameFloat := func(got, want float64) {
		if math.IsNaN(want) {
			if !math.IsNaN(got) {
				fail(fmt.Errorf("want NaN"))
			}
			return
		}
		if got != want || math.Signbit(got) != math.Signbit(want) {
			fail(fmt.Errorf("read back %v, want %v", got, want))
		}
	}
	switch dt {
	case tensor.Bool:
		want := "0"
		if stored[0] != 0 {
			want = "1"
		}
		if field != want {
			fail(fmt.Errorf("want %s", want))
		}
	case tensor.Int8, tensor.Int16, tensor.Int32, tensor.Int64:
		v, err := strconv.ParseInt(field, 10, 64)
		if err != nil {
			fail(err)
		}
		var w [8]byte
		le.PutUint64(w[:], uint64(v))
		if !bytes.Equal(w[:dt.Size()], stored) {
			fail(fmt.Errorf("read back %d", v))
		}
	case tensor.Uint8, tensor.Uint16, tensor.Uint32, tensor.Uint64:
		v, err := strconv.ParseUint(field, 10, 64)
		if err != nil {
			fail(err)
		}
		var w [8]byte
		le.PutUint64(w[:], v)
		if !bytes.Equal(w[:dt.Size()], stored) {
			fail(fmt.Errorf("read back %d", v))
		}
	case tensor.Float16:
		v, err := strconv.ParseFloat(field, 32)
		if err != nil {
			fail(err)
		}
		sameFloat(float64(tensor.Float16ToFloat32(tensor.Float32ToFloat16(float32(v)))),
			float64(tensor.Float16ToFloat32(le.Uint16(stored))))
	case tensor.BFloat16:
		v, err := strconv.ParseFloat(field, 32) // as NumPy reads it: float32
		if err != nil {
			fail(err)
		}
		sameFloat(v, float64(tensor.BFloat16ToFloat32(le.Uint16(stored))))
	case tensor.Float32:
		v, err := strconv.ParseFloat(field, 32)
		if err != nil {
			fail(err)
		}
		sameFloat(v, float64(math.Float32frombits(le.Uint32(stored))))
	case tensor.Float64:
		v, err := strconv.ParseFloat(field, 64)
		if err != nil {
			fail(err)
		}
		sameFloat(v, math.Float64frombits(le.Uint64(stored)))
	case tensor.Complex64, tensor.Complex128:
		bits := 128
		if dt == tensor.Complex64 {
			bits = 64
		}
		v, err := strconv.ParseComplex(strings.TrimSuffix(strings.Trim(field, "()"), "j")+"i", bits)
		if err != nil {
			fail(err)
		}
		if dt == tensor.Complex64 {
			sameFloat(real(v), float64(math.Float32frombits(le.Uint32(stored))))
			sameFloat(imag(v), float64(math.Float32frombits(le.Uint32(stored[4:]))))
		} else {
			sameFloat(real(v), math.Float64frombits(le.Uint64(stored)))
			sameFloat(imag(v), math.Float64frombits(le.Uint64(stored[8:])))
		}
	default:
		if field != fmt.Sprintf("0x%x", stored) {
			fail(fmt.Errorf("want 0x%x", stored))
		}
	}
}

func TestWriteCSVValues(t *testing.T) {
	for _, dt := range allDTypes() {
		x := randomTensor(t, dt, []int{2, 7, 9}, 6)
		plane, desc, err := TensorPlane(x, []int{2, 1}, map[int]int{0: 1})
		if err != nil {
			t.Fatal(err)
		}
		if desc != "plane [1, cols, rows] of "+x.String() {
			t.Errorf("description %q", desc)
		}
		var b bytes.Buffer
		if err := WriteCSV(context.Background(), &b, plane); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
		if len(lines) != 9 {
			t.Fatalf("%s: %d lines, want 9", dt, len(lines))
		}
		for r, line := range lines {
			fields := strings.Split(line, ",")
			if len(fields) != 7 {
				t.Fatalf("%s line %d: %d fields, want 7", dt, r, len(fields))
			}
			for c, f := range fields {
				stored, err := x.ElementBytes([]int{1, c, r})
				if err != nil {
					t.Fatal(err)
				}
				checkCSVValue(t, dt, f, stored)
			}
		}
	}
	var b bytes.Buffer
	if err := WriteCSV(context.Background(), &b, randomTensor(t, tensor.Float32, []int{3}, 1)); err == nil {
		t.Error("CSV of a rank-1 tensor without a plane")
	}
}

func TestTensorPlane(t *testing.T) {
	x := randomTensor(t, tensor.Float32, []int{2, 3, 4}, 7)
	for _, c := range []struct {
		axes  []int
		index map[int]int
		shape string
		desc  string
		err   string
	}{
		{nil, nil, "[3 4]", "plane [0, rows, cols] of float32[2,3,4]", ""},
		{nil, map[int]int{0: 1}, "[3 4]", "plane [1, rows, cols] of float32[2,3,4]", ""},
		{[]int{0, 2}, map[int]int{1: 2}, "[2 4]", "plane [rows, 2, cols] of float32[2,3,4]", ""},
		{[]int{0, 0}, nil, "", "", "two different axes"},
		{[]int{0, 3}, nil, "", "", "two different axes"},
		// Held axes leave the plane to the others.
		{nil, map[int]int{2: 1}, "[2 3]", "plane [rows, cols, 1] of float32[2,3,4]", ""},
		{nil, map[int]int{0: 0, 1: 0}, "", "", "axis 1 is plotted"},
		{nil, map[int]int{0: 2}, "", "", "outside axis 0"},
		{nil, map[int]int{5: 0}, "", "", "no axis 5"},
	} {
		p, desc, err := TensorPlane(x, c.axes, c.index)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%v %v: error %v, want %q", c.axes, c.index, err, c.err)
			}
			continue
		}
		if err != nil || fmt.Sprint(p.Shape()) != c.shape || desc != c.desc {
			t.Errorf("%v %v: %v %q %v", c.axes, c.index, p, desc, err)
		}
	}
	// A matrix as it is, a vector as one row, a scalar as one cell.
	for _, c := range []struct {
		shape []int
		want  string
	}{{[]int{3, 4}, "[3 4]"}, {[]int{5}, "[1 5]"}, {[]int{}, "[1 1]"}} {
		p, desc, err := TensorPlane(randomTensor(t, tensor.Int8, c.shape, 1), nil, nil)
		if err != nil || fmt.Sprint(p.Shape()) != c.want || desc != "" {
			t.Errorf("%v: %v %q %v", c.shape, p, desc, err)
		}
	}
	if _, _, err := TensorPlane(randomTensor(t, tensor.Int8, []int{5}, 1), []int{0, 1}, nil); err == nil {
		t.Error("axes chosen for a vector")
	}
}

// TSR v1 holds float32, int8 and int32 up to rank 4; TSR4 adds float16
// (stored with 4 dims); everything else is refused before a byte is
// written.
func TestWriteTSRRoundTrip(t *testing.T) {
	ctx := context.Background()
	for _, dt := range allDTypes() {
		for _, shape := range [][]int{{}, {6}, {3, 5}, {2, 3, 2, 2}, {2, 1, 2, 1, 2}} {
			x := randomTensor(t, dt, shape, 8)
			var b bytes.Buffer
			note, err := tsr.Write(ctx, &b, x)
			v1 := (dt == tensor.Float32 || dt == tensor.Int8 || dt == tensor.Int32) && len(shape) <= 4
			v4 := dt == tensor.Float16 && len(shape) <= 4
			if !v1 && !v4 {
				if err == nil || b.Len() > 0 {
					t.Errorf("%s: written (%d bytes, error %v)", x, b.Len(), err)
				}
				continue
			}
			if err != nil {
				t.Fatalf("%s: %v", x, err)
			}
			doc, err := formats.OpenBytes("x.tsr", b.Bytes())
			if err != nil {
				t.Fatalf("%s: %v", x, err)
			}
			wantFormat, wantShape := "tsr", shape
			if v4 {
				wantFormat, wantShape = "tsr4", append(slices.Repeat([]int{1}, 4-len(shape)), shape...)
				if !strings.Contains(note, "TSR4") {
					t.Errorf("%s: note %q", x, note)
				}
			}
			if doc.Format != wantFormat || len(doc.Tensors) != 1 {
				t.Fatalf("%s: read back as %s with %d tensors", x, doc.Format, len(doc.Tensors))
			}
			y, err := doc.Tensors[0].Load(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if y.DType() != dt || fmt.Sprint(y.Shape()) != fmt.Sprint(wantShape) || !bytes.Equal(rowMajor(t, y), rowMajor(t, x)) {
				t.Errorf("%s: read back %s, equal bytes %v", x, y, bytes.Equal(rowMajor(t, y), rowMajor(t, x)))
			}
			doc.Close()
		}
	}
}

func TestExportTensor(t *testing.T) {
	dir := t.TempDir()
	x := randomTensor(t, tensor.Float32, []int{4, 6}, 9)
	ctx := context.Background()
	for _, name := range []string{"a.npy", "a.CSV", "a.tsr"} {
		path := filepath.Join(dir, name)
		if _, err := ExportTensor(ctx, path, x, x); err != nil {
			t.Fatal(err)
		}
		if fi, err := os.Stat(path); err != nil || fi.Size() == 0 {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := ExportTensor(ctx, filepath.Join(dir, "a.txt"), x, x); err == nil || !strings.Contains(err.Error(), ".npy") {
		t.Errorf("a.txt: %v", err)
	}
	// A cancelled export leaves nothing, not even its temporary file.
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	for _, name := range []string{"b.npy", "b.csv", "b.tsr"} {
		if _, err := ExportTensor(cancelled, filepath.Join(dir, name), x, x); err != context.Canceled {
			t.Errorf("%s: error %v, want context.Canceled", name, err)
		}
	}
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if strings.Join(names, " ") != "a.CSV a.npy a.tsr" {
		t.Errorf("directory holds %v", names)
	}
}

// NumPy itself reads every .npy back bit for bit, and every numeric .csv
// plane as the same values as the .npy of that plane.
func TestNumPyReadsExports(t *testing.T) {
	py := pyref.NumPy(t)
	dir := t.TempDir()
	ctx := context.Background()
	type entry struct {
		Name  string `json:"name"`
		Descr string `json:"descr"`
		Shape []int  `json:"shape"`
		CSV   string `json:"csv"` // loadtxt dtype, "" when NumPy cannot read the text
	}
	var manifest []entry
	for _, dt := range allDTypes() {
		x := randomTensor(t, dt, []int{3, 4, 5}, 10)
		if dt.IsFloat() || dt.IsComplex() {
			x = specialValues(t, x)
		}
		name := dt.String()
		write := func(path string, f func(*bytes.Buffer) error) {
			var b bytes.Buffer
			if err := f(&b); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, path), b.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		write(name+".npy", func(b *bytes.Buffer) error { _, err := npy.Write(ctx, b, x); return err })
		want := rowMajor(t, x)
		descr := npy.Descr(dt)
		if dt == tensor.BFloat16 {
			want, descr = widenBF16(want), "<f4"
		}
		write(name+".bin", func(b *bytes.Buffer) error { b.Write(want); return nil })
		plane, _, err := TensorPlane(x, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		write(name+".plane.npy", func(b *bytes.Buffer) error { _, err := npy.Write(ctx, b, plane); return err })
		write(name+".csv", func(b *bytes.Buffer) error { return WriteCSV(ctx, b, plane) })
		csv := strings.TrimPrefix(strings.TrimPrefix(descr, "<"), "|")
		if dt.IsVoid() {
			csv = ""
		}
		manifest = append(manifest, entry{name, descr, x.Shape(), csv})
	}
	mj, _ := json.Marshal(manifest)
	if err := os.WriteFile(filepath.Join(dir, "manifest.json"), mj, 0o644); err != nil {
		t.Fatal(err)
	}
	script := `
import json, os, sys, warnings
import numpy as np
warnings.simplefilter("ignore")
d = sys.argv[1]
bad = []
for e in json.load(open(os.path.join(d, "manifest.json"))):
    a = np.load(os.path.join(d, e["name"] + ".npy"))
    raw = open(os.path.join(d, e["name"] + ".bin"), "rb").read()
    if a.dtype.str != e["descr"] or list(a.shape) != e["shape"] or a.tobytes() != raw:
        bad.append("%s.npy: %s %s, bytes equal %s" % (e["name"], a.dtype.str, a.shape, a.tobytes() == raw))
    if e["csv"]:
        p = np.load(os.path.join(d, e["name"] + ".plane.npy"))
        c = np.loadtxt(os.path.join(d, e["name"] + ".csv"), delimiter=",", dtype=np.dtype(e["csv"]), ndmin=2)
        if c.shape != p.shape or not np.array_equal(c, p, equal_nan=p.dtype.kind in "fc"):
            bad.append("%s.csv: %s differs from the plane %s" % (e["name"], c[:1], p[:1]))
print("\n".join(bad))
sys.exit(1 if bad else 0)
`
	out, err := exec.Command(py, "-c", script, dir).CombinedOutput()
	if err != nil {
		t.Fatalf("NumPy disagrees: %v\n%s", err, out)
	}
}

// specialValues overwrites the first elements of a float or complex
// tensor with zeros of both signs, infinities, NaN and extremes, which
// random bits rarely hit.
func specialValues(t *testing.T, x *tensor.Tensor) *tensor.Tensor {
	t.Helper()
	specials := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(), 1, -2.5, 65504, 6e-8, 1e-45, 3.4e38}
	b := append([]byte(nil), x.Storage().Bytes()...)
	le := binary.LittleEndian
	part := x.DType()
	size := part.Size()
	if part == tensor.Complex64 {
		part, size = tensor.Float32, 4
	} else if part == tensor.Complex128 {
		part, size = tensor.Float64, 8
	}
	for i, v := range specials {
		o := i * size
		switch part {
		case tensor.Float16:
			le.PutUint16(b[o:], tensor.Float32ToFloat16(float32(v)))
		case tensor.BFloat16:
			le.PutUint16(b[o:], tensor.Float32ToBFloat16(float32(v)))
		case tensor.Float32:
			le.PutUint32(b[o:], math.Float32bits(float32(v)))
		case tensor.Float64:
			le.PutUint64(b[o:], math.Float64bits(v))
		}
	}
	y, err := tensor.FromBytes(b, x.DType(), x.Shape())
	if err != nil {
		t.Fatal(err)
	}
	return y
}

// Types NumPy has no dtype for are written as float32 values (int64 counts
// for times), equal to what the core decodes, with a note saying so; their
// CSV text reads back to the same values.
func TestWriteNPYWidens(t *testing.T) {
	ctx := context.Background()
	for _, dt := range widenedDTypes() {
		n := 3 * 2 * 256 // whole blocks of every block type
		size, err := tensor.StorageBytes(dt, int64(n))
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(11, uint64(dt)))
		b := make([]byte, size)
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		x, err := tensor.FromBytes(b, dt, []int{3, 2, 256})
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		note, err := npy.Write(ctx, &out, x)
		if !dt.Numeric() { // a block type whose decoder is not registered
			if err == nil {
				t.Errorf("%s without a decoder written", dt)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", x, err)
		}
		if !strings.Contains(note, dt.String()) {
			t.Errorf("%s: note %q does not name the type", dt, note)
		}
		descr, shape, data := readNPY(t, out.Bytes())
		want, wantDescr := b, "<i8"
		if dt != tensor.Datetime64 && dt != tensor.Timedelta64 {
			wide, err := x.ToFloat32(ctx)
			if err != nil {
				t.Fatal(err)
			}
			want, wantDescr = wide.Storage().Bytes(), "<f4"
		}
		if descr != wantDescr || fmt.Sprint(shape) != "[3 2 256]" || !bytes.Equal(data, want) {
			t.Errorf("%s: read back %q %v (bytes equal %v), want %q", dt, descr, shape, bytes.Equal(data, want), wantDescr)
		}
		plane, _, err := TensorPlane(x, []int{1, 2}, map[int]int{0: 2})
		if err != nil {
			t.Fatal(err)
		}
		var csv bytes.Buffer
		if err := WriteCSV(ctx, &csv, plane); err != nil {
			t.Fatalf("%s: CSV: %v", dt, err)
		}
		first := strings.SplitN(strings.SplitN(csv.String(), "\n", 2)[0], ",", 2)[0]
		bits := 32 // the float32 that .npy holds
		if dt == tensor.Datetime64 || dt == tensor.Timedelta64 {
			bits = 64
		}
		got, err := strconv.ParseFloat(first, bits)
		wantV, err2 := plane.Float64At([]int{0, 0})
		if err2 != nil {
			t.Fatal(err2)
		}
		if first == "NaT" {
			got, err = math.NaN(), nil
		}
		if err != nil || !(got == wantV || math.IsNaN(got) && math.IsNaN(wantV)) {
			t.Errorf("%s: CSV field %q, want %v", dt, first, wantV)
		}
	}
}
