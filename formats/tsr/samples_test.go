package tsr

import (
	"context"
	"encoding/binary"
	"hash/crc32"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"tensorscope/formats"
	"tensorscope/internal/samples"
	"tensorscope/tensor"
)

// tensorBytes returns t's elements in row-major order.
func tensorBytes(t testing.TB, x *tensor.Tensor) []byte {
	t.Helper()
	var out []byte
	if err := formats.TensorChunks(x, func(c []byte) error { out = append(out, c...); return nil }); err != nil {
		t.Fatal(err)
	}
	return out
}

func load(t testing.TB, e *formats.TensorEntry) *tensor.Tensor {
	t.Helper()
	x, err := e.Load(context.Background())
	if err != nil {
		t.Fatalf("load %s: %v", e.Name, err)
	}
	return x
}

func int32s(b []byte) []int32 {
	out := make([]int32, len(b)/4)
	for i := range out {
		out[i] = int32(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return out
}

func TestSamplesV1(t *testing.T) {
	want := map[string]struct {
		n     int
		first []int32
		sum   int64
	}{
		"tsr1_tech-renaissance_test_labels.tsr":  {10000, []int32{7, 2, 1, 0, 4, 1, 4, 9}, 44434},
		"tsr1_tech-renaissance_train_labels.tsr": {60000, []int32{5, 0, 4, 1, 9, 2, 1, 3}, 267236},
	}
	files := samples.Files(t, "tsr", ".tsr")
	seen := 0
	for _, p := range files {
		w, ok := want[filepath.Base(p)]
		if !ok {
			continue
		}
		seen++
		doc, err := formats.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		defer doc.Close()
		if doc.Format != "tsr" || doc.Version != "1" || len(doc.Warnings) != 0 {
			t.Errorf("%s: format %s version %s warnings %v", p, doc.Format, doc.Version, doc.Warnings)
		}
		if len(doc.Tensors) != 1 {
			t.Fatalf("%s: %d tensors", p, len(doc.Tensors))
		}
		e := doc.Tensors[0]
		if e.Name != "#0" || e.DType != tensor.Int32 || !slices.Equal(e.Shape, []int{w.n}) ||
			e.Offset != 64 || e.NBytes != int64(4*w.n) || e.Role != formats.RoleData {
			t.Errorf("%s: entry %+v", p, e)
		}
		x := load(t, e)
		if x.Storage() != doc.Storage() {
			t.Errorf("%s: RAW tensor does not view the mapped file", p)
		}
		vals := int32s(tensorBytes(t, x))
		if !slices.Equal(vals[:len(w.first)], w.first) {
			t.Errorf("%s: labels start %v, want %v", p, vals[:len(w.first)], w.first)
		}
		var sum int64
		for _, v := range vals {
			if v < 0 || v > 9 {
				t.Fatalf("%s: label %d out of 0..9", p, v)
			}
			sum += int64(v)
		}
		if sum != w.sum {
			t.Errorf("%s: label sum %d, want %d", p, sum, w.sum)
		}
		if h := doc.Header[4]; h.Name != "dtype" || h.Offset != 16 || h.Size != 4 || h.Meaning != "INT32" {
			t.Errorf("%s: dtype field %+v", p, h)
		}
	}
	if seen != len(want) {
		t.Errorf("found %d of the %d MNIST label samples", seen, len(want))
	}
}

// TestSamplesV4 checks every TSR4 sample against facts read independently
// from its bytes: the directory's dtype, shape and CRC, and a few values.
func TestSamplesV4(t *testing.T) {
	values := map[string][]uint32{ // leading elements' bits
		"tsr4_renaissance_test_fp16.tsr":                      {0x3c00, 0x4000},
		"tsr4_renaissance_ws_fc_fp32_bias_w_fwd_bwd_fp32.tsr": {0x3e099c3f, 0xbe04530f, 0x3d9ced43},
		"tsr4_renaissance_ws_fc_amp_bias_w_fwd_bwd_amp.tsr":   {0xb033, 0xb479},
		"tsr4_renaissance_ws_fc_fp32_bias_b_fwd_bwd_fp32.tsr": {0xbd0d5130, 0xbc43fb5b, 0x3df2ecdd},
	}
	n := 0
	for _, p := range samples.Files(t, "tsr", ".tsr") {
		if !strings.HasPrefix(filepath.Base(p), "tsr4_") {
			continue
		}
		n++
		raw, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := formats.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		defer doc.Close()
		if doc.Format != "tsr4" || doc.Version != "4.20" || len(doc.Warnings) != 0 {
			t.Errorf("%s: format %s version %s warnings %v", p, doc.Format, doc.Version, doc.Warnings)
		}
		count := int(binary.LittleEndian.Uint32(raw[16:]))
		if len(doc.Tensors) != count {
			t.Fatalf("%s: %d tensors, directory has %d", p, len(doc.Tensors), count)
		}
		for i, e := range doc.Tensors {
			ent := raw[128+64*i:]
			wantDT := map[byte]tensor.DType{0: tensor.Float32, 1: tensor.Float16, 2: tensor.Int8, 3: tensor.Int32}[ent[0]]
			var shape []int
			for k := 0; k < 4; k++ {
				shape = append(shape, int(binary.LittleEndian.Uint32(ent[4+4*k:])))
			}
			if e.DType != wantDT || !slices.Equal(e.Shape, shape) {
				t.Errorf("%s #%d: %s%v, want %s%v", p, i, e.DType, e.Shape, wantDT, shape)
			}
			b := tensorBytes(t, load(t, e))
			n, _ := tensor.NumElements(shape)
			if len(b) != n*wantDT.Size() {
				t.Errorf("%s #%d: %d bytes, want %d", p, i, len(b), n*wantDT.Size())
			}
			if got, want := crc32.ChecksumIEEE(b), binary.LittleEndian.Uint32(ent[60:]); got != want {
				t.Errorf("%s #%d: data CRC 0x%08x, directory says 0x%08x", p, i, got, want)
			}
			if i == 0 {
				if vs, ok := values[filepath.Base(p)]; ok {
					for k, v := range vs {
						var got uint32
						if wantDT.Size() == 2 {
							got = uint32(binary.LittleEndian.Uint16(b[2*k:]))
						} else {
							got = binary.LittleEndian.Uint32(b[4*k:])
						}
						if got != v {
							t.Errorf("%s: element %d bits 0x%x, want 0x%x", p, k, got, v)
						}
					}
				}
			}
		}
	}
	if n < 28 {
		t.Errorf("found %d TSR4 samples, expected 28", n)
	}
}

// TestSampleFloatValues spot-checks decoded floats, not only their bits.
func TestSampleFloatValues(t *testing.T) {
	p := filepath.Join(samples.Dir(t, "tsr"), "tsr4_renaissance_ws_fc_fp32_bias_w_fwd_bwd_fp32.tsr")
	doc, err := formats.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer doc.Close()
	b := tensorBytes(t, load(t, doc.Tensors[0]))
	if got := math.Float32frombits(binary.LittleEndian.Uint32(b)); math.Abs(float64(got)-0.1343850940465927) > 1e-7 {
		t.Errorf("w[0] = %v", got)
	}
	if !slices.Equal(doc.Tensors[0].Shape, []int{16, 1, 1, 32}) {
		t.Errorf("shape %v", doc.Tensors[0].Shape)
	}
}
