//go:build !lite

package cli

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"image/png"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"tensorscope/formats"
	"tensorscope/formats/tmfile"
	"tensorscope/formats/tsr"
	"tensorscope/internal/pyref"
	"tensorscope/internal/samples"
	"tensorscope/tensor"
)

// storedTensor is a tensor as a test file stores it: raw little-endian
// bytes of a NumPy dtype ("f4", "f2", "i1", "u1") and, for integers,
// quantisation parameters per tensor or per index along axis 0.
type storedTensor struct {
	Name   string
	Kind   string
	Shape  []int
	Raw    []byte
	Scales []float64
	Zeros  []int64
}

func f32Stored(name string, shape []int, v []float32) storedTensor {
	raw := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(raw[4*i:], math.Float32bits(x))
	}
	return storedTensor{Name: name, Kind: "f4", Shape: shape, Raw: raw}
}

func f16Stored(name string, shape []int, v []float32) storedTensor {
	raw := make([]byte, 2*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint16(raw[2*i:], tensor.Float32ToFloat16(x))
	}
	return storedTensor{Name: name, Kind: "f2", Shape: shape, Raw: raw}
}

// quantStored quantises v to int8 (symmetric, one scale per row) or uint8
// (one scale and zero point for the tensor), as converters do.
func quantStored(name string, shape []int, v []float32, signed bool) storedTensor {
	s := storedTensor{Name: name, Shape: shape, Raw: make([]byte, len(v))}
	if signed {
		s.Kind = "i1"
		rows := shape[0]
		per := len(v) / rows
		for r := range rows {
			absMax := 0.0
			for _, x := range v[r*per : (r+1)*per] {
				absMax = math.Max(absMax, math.Abs(float64(x)))
			}
			scale := float64(float32(math.Max(absMax, 1e-6) / 127))
			s.Scales, s.Zeros = append(s.Scales, scale), append(s.Zeros, 0)
			for i, x := range v[r*per : (r+1)*per] {
				s.Raw[r*per+i] = byte(int8(math.Max(-127, math.Min(127, math.Round(float64(x)/scale)))))
			}
		}
		return s
	}
	s.Kind = "u1"
	lo, hi := 0.0, 0.0
	for _, x := range v {
		lo, hi = math.Min(lo, float64(x)), math.Max(hi, float64(x))
	}
	scale := float64(float32((hi - lo) / 255))
	zero := int64(math.Round(-lo / scale))
	s.Scales, s.Zeros = []float64{scale}, []int64{zero}
	for i, x := range v {
		s.Raw[i] = byte(math.Max(0, math.Min(255, math.Round(float64(x)/scale)+float64(zero))))
	}
	return s
}

// writeTmfile writes the tensors as the constants of a Tengine model.
func writeTmfile(t *testing.T, name string, ts ...storedTensor) string {
	t.Helper()
	b := tmfile.NewBuilder(1, name)
	for _, s := range ts {
		dims := make([]int32, len(s.Shape))
		for i, d := range s.Shape {
			dims[i] = int32(d)
		}
		dt := map[string]int32{"f4": tmfile.DataFP32, "f2": tmfile.DataFP16, "i1": tmfile.DataInt8, "u1": tmfile.DataUint8}[s.Kind]
		var q []tmfile.QuantParam
		for i, sc := range s.Scales {
			q = append(q, tmfile.QuantParam{Scale: float32(sc), ZeroPoint: int32(s.Zeros[i])})
		}
		b.ConstRaw(s.Name, dims, dt, uint32(len(s.Raw)), s.Raw, q)
	}
	m, err := b.Model()
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := tmfile.Encode(&buf, m); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), name+".tmfile")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// numpyFigures is the reference: NumPy computes the figures of each pair
// from the stored bytes, dequantising integers itself.
const numpyFigures = `
import json, sys
import numpy as np
spec = json.load(sys.stdin)
def load(s):
    x = np.fromfile(s["path"], dtype="<" + s["kind"]).reshape(s["shape"]).astype(np.float64)
    if s["scales"]:
        sc = np.array(s["scales"], dtype=np.float64)
        zp = np.array(s["zeros"], dtype=np.float64)
        if len(sc) > 1:
            bshape = [-1] + [1] * (x.ndim - 1)
            sc, zp = sc.reshape(bshape), zp.reshape(bshape)
        x = (x - zp) * sc
    return x
def num(v):
    v = float(v)
    return v if np.isfinite(v) else None
out = []
for p in spec["pairs"]:
    a, b = load(p["a"]), load(p["b"])
    if a.shape != b.shape:
        out.append({"count": None, "max_abs": None, "mean_abs": None, "rmse": None,
                    "rel_l2": None, "cosine": None, "nan_mismatch": None, "over_tol": None})
        continue
    fin = np.isfinite(a) & np.isfinite(b)
    af, bf = a[fin], b[fin]
    d = af - bf
    r = {"count": int(a.size),
         "nan_mismatch": int(np.sum(np.isnan(a) != np.isnan(b))),
         "over_tol": int(np.sum(~np.isclose(b, a, rtol=spec["rtol"], atol=spec["atol"], equal_nan=True)))}
    if af.size == 0:
        r.update(max_abs=None, mean_abs=None, rmse=None, rel_l2=None, cosine=None)
    else:
        na, nb = np.linalg.norm(af), np.linalg.norm(bf)
        r["max_abs"] = num(np.max(np.abs(d)))
        r["mean_abs"] = num(np.mean(np.abs(d)))
        r["rmse"] = num(np.sqrt(np.mean(d * d)))
        r["rel_l2"] = num(np.linalg.norm(d) / na) if na != 0 else None
        r["cosine"] = num(np.dot(af, bf) / (na * nb)) if na * nb != 0 else None
    out.append(r)
json.dump(out, sys.stdout)
`

// referenceFigures runs NumPy over pairs of stored tensors, skipping the
// test when /usr/bin/python3 with NumPy is not there.
func referenceFigures(t *testing.T, rtol, atol float64, pairs [][2]storedTensor) []pairJSON {
	t.Helper()
	python := pyref.NumPy(t)
	dir := t.TempDir()
	type sideSpec struct {
		Path   string    `json:"path"`
		Kind   string    `json:"kind"`
		Shape  []int     `json:"shape"`
		Scales []float64 `json:"scales"`
		Zeros  []int64   `json:"zeros"`
	}
	spec := struct {
		RTol  float64               `json:"rtol"`
		ATol  float64               `json:"atol"`
		Pairs []map[string]sideSpec `json:"pairs"`
	}{RTol: rtol, ATol: atol}
	for i, p := range pairs {
		m := map[string]sideSpec{}
		for k, s := range p {
			path := filepath.Join(dir, fmt.Sprintf("%d%c-%s.raw", i, "ab"[k], s.Name))
			if err := os.WriteFile(path, s.Raw, 0o644); err != nil {
				t.Fatal(err)
			}
			m["ab"[k:k+1]] = sideSpec{Path: path, Kind: s.Kind, Shape: s.Shape, Scales: s.Scales, Zeros: s.Zeros}
		}
		spec.Pairs = append(spec.Pairs, m)
	}
	in, _ := json.Marshal(spec)
	cmd := exec.Command(python, "-c", numpyFigures)
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("NumPy reference failed: %v\n%s", err, stderr.String())
	}
	var got []pairJSON
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	return got
}

func diffJSONOf(t *testing.T, args ...string) (diffReport, int) {
	t.Helper()
	out, errOut, code := runCmd(append([]string{"diff", "--json"}, args...)...)
	if code == 2 {
		t.Fatalf("diff %v: exit 2: %s", args, errOut)
	}
	var r diffReport
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v in %q", err, out)
	}
	return r, code
}

// checkAgainstNumPy compares every figure of got with NumPy's: counts
// exactly, the rest to 1e-9 relative (sums are taken in another order).
func checkAgainstNumPy(t *testing.T, got, want pairJSON) {
	t.Helper()
	ints := []struct {
		name string
		g, w *int64
	}{{"count", got.Count, want.Count}, {"nan_mismatch", got.NaNMismatch, want.NaNMismatch}, {"over_tol", got.OverTol, want.OverTol}}
	for _, f := range ints {
		if (f.g == nil) != (f.w == nil) || (f.g != nil && *f.g != *f.w) {
			t.Errorf("%s: %s = %s, NumPy %s", got.Name, f.name, ptrText(f.g), ptrText(f.w))
		}
	}
	floats := []struct {
		name string
		g, w *float64
	}{{"max_abs", got.MaxAbs, want.MaxAbs}, {"mean_abs", got.MeanAbs, want.MeanAbs}, {"rmse", got.RMSE, want.RMSE},
		{"rel_l2", got.RelL2, want.RelL2}, {"cosine", got.Cosine, want.Cosine}}
	for _, f := range floats {
		if (f.g == nil) != (f.w == nil) || (f.g != nil && math.Abs(*f.g-*f.w) > 1e-9*math.Max(math.Abs(*f.w), 1e-300)) {
			t.Errorf("%s: %s = %s, NumPy %s", got.Name, f.name, ptrText(f.g), ptrText(f.w))
		}
	}
}

func ptrText[T int64 | float64](p *T) string {
	if p == nil {
		return "null"
	}
	b, _ := json.Marshal(*p)
	return string(b)
}

// wave returns n values of a smooth pattern with a spread of magnitudes.
func wave(n int, phase float64) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = float32(math.Sin(float64(i)*0.731+phase) * (1 + float64(i%7)))
	}
	return v
}

// comparisonCases are the generated pairs issue 17 names: identical,
// shifted, scaled, NaN in one only, different shapes, different dtypes.
func comparisonCases() [][2]storedTensor {
	const rows, cols = 24, 50
	shape := []int{rows, cols}
	base := wave(rows*cols, 0)
	shifted, scaled, holes, tiny := make([]float32, len(base)), make([]float32, len(base)), make([]float32, len(base)), make([]float32, len(base))
	for i, x := range base {
		shifted[i] = x + 1e-4
		scaled[i] = x * 1.00001
		holes[i] = x
		tiny[i] = x + float32(i%3-1)*1e-7
	}
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	holes[3], holes[100], holes[101] = nan, inf, -inf
	bothNaN := append([]float32(nil), holes...)
	bothNaN[7] = nan
	zeros := make([]float32, len(base))
	return [][2]storedTensor{
		{f32Stored("identical", shape, base), f32Stored("identical", shape, base)},
		{f32Stored("shifted", shape, base), f32Stored("shifted", shape, shifted)},
		{f32Stored("scaled", shape, base), f32Stored("scaled", shape, scaled)},
		{f32Stored("within", shape, base), f32Stored("within", shape, tiny)},
		{f32Stored("nan_one_side", shape, holes), f32Stored("nan_one_side", shape, base)},
		{f32Stored("nan_both", shape, holes), f32Stored("nan_both", shape, bothNaN)},
		{f32Stored("zeros_a", shape, zeros), f32Stored("zeros_a", shape, base)},
		{f32Stored("shapes", shape, base), f32Stored("shapes", []int{cols, rows}, base)},
		{f32Stored("f32_f16", shape, base), f16Stored("f32_f16", shape, base)},
		{f32Stored("f32_int8", shape, base), quantStored("f32_int8", shape, base, true)},
		{f16Stored("f16_uint8", shape, base), quantStored("f16_uint8", shape, base, false)},
		{quantStored("int8_int8", shape, base, true), quantStored("int8_int8", shape, shifted, true)},
	}
}

func TestDiffFiguresMatchNumPy(t *testing.T) {
	cases := comparisonCases()
	var as, bs []storedTensor
	for _, c := range cases {
		as, bs = append(as, c[0]), append(bs, c[1])
	}
	for _, tol := range [][2]float64{{1e-5, 1e-8}, {1e-3, 1e-4}} {
		want := referenceFigures(t, tol[0], tol[1], cases)
		got, code := diffJSONOf(t, "--rtol", ftoa(tol[0]), "--atol", ftoa(tol[1]),
			writeTmfile(t, "a", as...), writeTmfile(t, "b", bs...))
		if code != 1 {
			t.Errorf("exit %d for pairs that differ, want 1", code)
		}
		if len(got.Pairs) != len(cases) || len(got.OnlyA) != 0 || len(got.OnlyB) != 0 {
			t.Fatalf("%d pairs, only_a %v, only_b %v; want %d pairs", len(got.Pairs), got.OnlyA, got.OnlyB, len(cases))
		}
		for i, c := range cases {
			p := got.Pairs[i]
			if p.Name != c[0].Name {
				t.Errorf("pair %d is %q, want %q (A's order)", i, p.Name, c[0].Name)
				continue
			}
			checkAgainstNumPy(t, p, want[i])
		}
		identical := got.Pairs[0]
		if *identical.OverTol != 0 || *identical.MaxAbs != 0 || *identical.Cosine < 1-1e-15 {
			t.Errorf("identical pair: %+v", identical)
		}
	}
}

func ftoa(v float64) string { b, _ := json.Marshal(v); return string(b) }

// TestDiffJSONKeys pins the exact keys of the JSON contract.
func TestDiffJSONKeys(t *testing.T) {
	a := writeTmfile(t, "a", f32Stored("w", []int{2}, []float32{1, 2}), f32Stored("gone", []int{1}, []float32{1}))
	b := writeTmfile(t, "b", f32Stored("w", []int{3}, []float32{1, 2, 3}), f32Stored("new", []int{1}, []float32{1}))
	out, _, code := runCmd("diff", "--json", a, b)
	if code != 1 {
		t.Fatalf("exit %d, want 1", code)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &raw); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"pairs", "only_a", "only_b"} {
		if _, ok := raw[k]; !ok {
			t.Errorf("no key %q in %s", k, out)
		}
	}
	var pairs []map[string]any
	json.Unmarshal(raw["pairs"], &pairs)
	keys := []string{"name", "dtype_a", "dtype_b", "shape_a", "shape_b", "count", "max_abs", "mean_abs", "rmse",
		"rel_l2", "cosine", "nan_mismatch", "over_tol"}
	if len(pairs) != 1 || len(pairs[0]) != len(keys) {
		t.Fatalf("pairs %v; want one pair with keys %v", pairs, keys)
	}
	for _, k := range keys {
		v, ok := pairs[0][k]
		if !ok {
			t.Errorf("pair has no key %q", k)
		}
		if k != "name" && !strings.HasPrefix(k, "dtype") && !strings.HasPrefix(k, "shape") && v != nil {
			t.Errorf("%s = %v for a pair whose shapes differ, want null", k, v)
		}
	}
	if !strings.Contains(out, `"only_a":["gone"]`) || !strings.Contains(out, `"only_b":["new"]`) {
		t.Errorf("only_a/only_b wrong in %s", out)
	}
}

func TestDiffExitStatus(t *testing.T) {
	base := wave(60, 1)
	near := append([]float32(nil), base...)
	near[5] += 1e-3
	same := writeTmfile(t, "same", f32Stored("w", []int{6, 10}, base), f32Stored("b", []int{3}, []float32{1, 2, 3}))
	same2 := writeTmfile(t, "same2", f32Stored("w", []int{6, 10}, base), f32Stored("b", []int{3}, []float32{1, 2, 3}))
	differs := writeTmfile(t, "differs", f32Stored("w", []int{6, 10}, near), f32Stored("b", []int{3}, []float32{1, 2, 3}))
	missing := writeTmfile(t, "missing", f32Stored("w", []int{6, 10}, base), f32Stored("c", []int{3}, []float32{1, 2, 3}))
	renamed := writeTmfile(t, "renamed", f32Stored("weight", []int{6, 10}, base), f32Stored("b", []int{3}, []float32{1, 2, 3}))
	garbage := filepath.Join(t.TempDir(), "garbage.bin")
	os.WriteFile(garbage, []byte("not a model file at all"), 0o644)
	for _, c := range []struct {
		args []string
		want int
	}{
		{[]string{same, same2}, 0},
		{[]string{same, differs}, 1},
		{[]string{"--atol", "2e-3", same, differs}, 0},
		{[]string{"--rtol", "0.1", "--atol", "0", same, differs}, 0},
		{[]string{same, missing}, 1},
		{[]string{same, renamed}, 1},
		{[]string{"--map", "w=weight", same, renamed}, 0},
		{[]string{"--map", "nope=weight", same, renamed}, 2},
		{[]string{"--map", "w", same, renamed}, 2},
		{[]string{same}, 2},
		{[]string{same, same2, same}, 2},
		{[]string{"--rtol", "-1", same, same2}, 2},
		{[]string{"--atol", "NaN", same, same2}, 2},
		{[]string{"--bogus", same, same2}, 2},
		{[]string{same, garbage}, 2},
		{[]string{same, filepath.Join(t.TempDir(), "absent")}, 2},
		{[]string{"--help"}, 0},
	} {
		out, errOut, code := runCmd(append([]string{"diff"}, c.args...)...)
		if code != c.want {
			t.Errorf("diff %v: exit %d, want %d\nstdout %s\nstderr %s", c.args, code, c.want, out, errOut)
		}
		if code == 2 && !strings.Contains(errOut, "tensorscope") {
			t.Errorf("diff %v: exit 2 without a message", c.args)
		}
	}
}

// Two files with one tensor each are compared whatever the tensors are
// called, across formats (TSR v1 against a Tengine model).
func TestDiffSingleTensorFiles(t *testing.T) {
	v := wave(12, 2)
	b := make([]byte, 48)
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	x, _ := tensor.FromBytes(b, tensor.Float32, []int{3, 4})
	var buf bytes.Buffer
	if err := tsr.EncodeV1(&buf, x); err != nil {
		t.Fatal(err)
	}
	tsrPath := filepath.Join(t.TempDir(), "one.tsr")
	os.WriteFile(tsrPath, buf.Bytes(), 0o644)
	model := writeTmfile(t, "one", f16Stored("conv.weight", []int{3, 4}, v))
	got, code := diffJSONOf(t, "--atol", "1e-2", tsrPath, model)
	if len(got.Pairs) != 1 || got.Pairs[0].Count == nil || *got.Pairs[0].Count != 12 || code != 0 {
		t.Errorf("single-tensor files: exit %d, %+v", code, got)
	}
	if got.Pairs[0].DTypeA != "float32" || got.Pairs[0].DTypeB != "float16" {
		t.Errorf("dtypes %s, %s", got.Pairs[0].DTypeA, got.Pairs[0].DTypeB)
	}
}

// The text table lists the most different pair first.
func TestDiffTableSortedByRelativeError(t *testing.T) {
	base := wave(40, 3)
	small, big := append([]float32(nil), base...), append([]float32(nil), base...)
	small[0] += 1e-3
	for i := range big {
		big[i] *= 1.5
	}
	a := writeTmfile(t, "a", f32Stored("same", []int{40}, base), f32Stored("small", []int{40}, base), f32Stored("big", []int{40}, base),
		f32Stored("bad_shape", []int{40}, base))
	b := writeTmfile(t, "b", f32Stored("same", []int{40}, base), f32Stored("small", []int{40}, small), f32Stored("big", []int{40}, big),
		f32Stored("bad_shape", []int{4, 10}, base))
	out, _, code := runCmd("diff", a, b)
	if code != 1 {
		t.Fatalf("exit %d", code)
	}
	var order []string
	for _, line := range strings.Split(out, "\n")[1:] {
		if f := strings.Fields(line); len(f) > 0 && strings.Contains("same small big bad_shape", f[0]) {
			order = append(order, f[0])
		}
	}
	if strings.Join(order, " ") != "bad_shape big small same" {
		t.Errorf("table order %v\n%s", order, out)
	}
	if !strings.Contains(out, "not compared: shapes differ") || !strings.Contains(out, "4 pairs: 1 within") {
		t.Errorf("table:\n%s", out)
	}
}

// The two DataCode MNIST models: same architecture, different weights.
// Every figure is checked against NumPy over the real values.
func TestDiffRealMNISTPair(t *testing.T) {
	dir := samples.Dir(t, "nn")
	a, b := filepath.Join(dir, "datacode_model_mnist.nn"), filepath.Join(dir, "datacode_model_mnist_sh.nn")
	got, code := diffJSONOf(t, a, b)
	if code != 1 || len(got.Pairs) != 4 || len(got.OnlyA)+len(got.OnlyB) != 0 {
		t.Fatalf("exit %d, %d pairs, only %v %v", code, len(got.Pairs), got.OnlyA, got.OnlyB)
	}
	if got.Graph == nil || len(got.Graph.Added)+len(got.Graph.Removed)+len(got.Graph.Changed) != 0 {
		t.Errorf("the two models have the same architecture, graph diff %+v", got.Graph)
	}
	var pairs [][2]storedTensor
	for _, p := range got.Pairs {
		pairs = append(pairs, [2]storedTensor{storedOf(t, a, p.Name), storedOf(t, b, p.Name)})
	}
	want := referenceFigures(t, 1e-5, 1e-8, pairs)
	for i := range got.Pairs {
		checkAgainstNumPy(t, got.Pairs[i], want[i])
	}
	if _, _, code := runCmd("diff", a, a); code != 0 {
		t.Errorf("a model against itself: exit %d", code)
	}
}

// storedOf exports a tensor of a file, as the tensor core decodes it, as
// raw float64 for NumPy: for block-quantised types, the values dequantised
// (the core's decoders are checked against gguf-py in the tensor package).
func storedOf(t *testing.T, path, name string) storedTensor {
	t.Helper()
	doc, status := openDocument(path, os.Stderr)
	if doc == nil {
		t.Fatalf("open %s: status %d", path, status)
	}
	defer doc.Close()
	e := doc.Tensor(name)
	if e == nil {
		t.Fatalf("%s has no tensor %q", path, name)
	}
	x, err := e.Load(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	v := make([]float64, x.Len())
	if err := x.ReadFloat64s(0, v); err != nil {
		t.Fatal(err)
	}
	raw := make([]byte, 8*len(v))
	for i, f := range v {
		binary.LittleEndian.PutUint64(raw[8*i:], math.Float64bits(f))
	}
	return storedTensor{Name: name, Kind: "f8", Shape: x.Shape(), Raw: raw}
}

// The synthetic F32 model against its quantisations (GGUF block types):
// every figure of every pair against NumPy over the decoded values.
func TestDiffGGUFQuantisations(t *testing.T) {
	dir := samples.Dir(t, "gguf/quantized-llama.cpp")
	f32 := filepath.Join(dir, "synth-llama256-F32.gguf")
	for _, q := range []string{"Q4_K_M", "Q4_0-mix", "IQ2_XXS"} {
		quant := filepath.Join(dir, "synth-llama256-"+q+".gguf")
		got, code := diffJSONOf(t, f32, quant)
		if code != 1 || len(got.Pairs) == 0 || len(got.OnlyA)+len(got.OnlyB) != 0 {
			t.Fatalf("%s: exit %d, %d pairs, only %v %v", q, code, len(got.Pairs), got.OnlyA, got.OnlyB)
		}
		var pairs [][2]storedTensor
		quantised := 0
		for _, p := range got.Pairs {
			pairs = append(pairs, [2]storedTensor{storedOf(t, f32, p.Name), storedOf(t, quant, p.Name)})
			if p.DTypeB != "float32" {
				quantised++
			}
		}
		if quantised == 0 {
			t.Errorf("%s: no quantised tensor among %d pairs", q, len(got.Pairs))
		}
		want := referenceFigures(t, 1e-5, 1e-8, pairs)
		for i := range got.Pairs {
			checkAgainstNumPy(t, got.Pairs[i], want[i])
		}
	}
}

// Two models whose graphs differ: a node removed, one added, one with
// another attribute.
func TestDiffGraphs(t *testing.T) {
	build := func(name string, kernel int64, extra bool) string {
		b := tmfile.NewBuilder(1, name)
		x := b.Input("data", []int32{1, 1, 8, 8})
		w := b.Const("conv.weight", []int32{1, 1, 3, 3}, wave(9, 0))
		c := b.Op("conv", "Convolution", []formats.Attr{{Name: "kernel_h", Value: kernel}, {Name: "kernel_w", Value: kernel}}, []int32{1, 1, 8, 8}, x, w)
		last := b.Op("relu", "ReLu", nil, []int32{1, 1, 8, 8}, c)
		if extra {
			last = b.Op("sigmoid", "Sigmoid", nil, []int32{1, 1, 8, 8}, last)
		} else {
			last = b.Op("tanh", "Tanh", nil, []int32{1, 1, 8, 8}, last)
		}
		b.Output(last)
		m, err := b.Model()
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := tmfile.Encode(&buf, m); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(t.TempDir(), name+".tmfile")
		os.WriteFile(path, buf.Bytes(), 0o644)
		return path
	}
	a, b := build("a", 3, false), build("b", 5, true)
	got, code := diffJSONOf(t, a, b)
	if code != 1 || got.Graph == nil {
		t.Fatalf("exit %d, graph %v", code, got.Graph)
	}
	g := got.Graph
	if strings.Join(g.Removed, ",") != "tanh" || strings.Join(g.Added, ",") != "sigmoid" || len(g.Changed) != 1 ||
		g.Changed[0].Name != "conv" {
		t.Fatalf("graph diff %+v", g)
	}
	names := map[string]bool{}
	for _, a := range g.Changed[0].Attrs {
		names[a.Name] = true
		if a.A == nil || a.B == nil || *a.A == *a.B {
			t.Errorf("attr %s: %v → %v", a.Name, ptrStr(a.A), ptrStr(a.B))
		}
	}
	if !names["kernel_h"] || !names["kernel_w"] {
		t.Errorf("changed attrs %+v", g.Changed[0].Attrs)
	}
	out, _, _ := runCmd("diff", a, b)
	for _, want := range []string{"graph: 1 nodes added, 1 removed, 1 changed", "- tanh (Tanh)", "+ sigmoid (Sigmoid)", "~ conv (Convolution): kernel_h 3 → 5"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
}

func ptrStr(p *string) string {
	if p == nil {
		return "null"
	}
	return *p
}

// TestDiffInterrupted: Ctrl+C during a long comparison exits 130, and a
// run that lasts over a second reports progress.
func TestDiffInterrupted(t *testing.T) {
	if testing.Short() {
		t.Skip("compares 2 × 2 GiB")
	}
	dir := t.TempDir()
	big := func(name string) string {
		// A TSR v1 header for float32[32768,16384] over a sparse file of
		// zeros: 2 GiB to compare, nothing to write.
		x, _ := tensor.FromBytes(make([]byte, 4), tensor.Float32, []int{1, 1})
		var buf bytes.Buffer
		if err := tsr.EncodeV1(&buf, x); err != nil {
			t.Fatal(err)
		}
		h := buf.Bytes()[:64]
		binary.LittleEndian.PutUint32(h[32:], 32768)
		binary.LittleEndian.PutUint32(h[36:], 16384)
		binary.LittleEndian.PutUint64(h[40:], 32768*16384)
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, h, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Truncate(path, 64+4*32768*16384); err != nil {
			t.Fatal(err)
		}
		return path
	}
	a, b := big("a.tsr"), big("b.tsr")
	cmd := exec.Command(os.Args[0], "diff", a, b)
	cmd.Env = append(os.Environ(), "TENSORSCOPE_RUN_MAIN=1")
	var stderr syncBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(time.Minute)
	for !strings.Contains(stderr.String(), "compared") {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("no progress after a minute; stderr %q", stderr.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	ee, ok := err.(*exec.ExitError)
	if !ok {
		t.Fatalf("diff finished before SIGINT (%v): make the input larger", err)
	}
	if ee.ExitCode() != 130 || !strings.Contains(stderr.String(), "interrupted") {
		t.Errorf("exit %d, stderr %q; want 130 and a message", ee.ExitCode(), stderr.String())
	}
}

// syncBuffer is a bytes.Buffer safe to read while a child process writes.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// render --view diff: the usage contract, and a PNG of the requested size.
func TestRenderDiffCommand(t *testing.T) {
	base := wave(60, 1)
	near := append([]float32(nil), base...)
	near[7] += 0.5
	a := writeTmfile(t, "a", f32Stored("w", []int{6, 10}, base))
	b := writeTmfile(t, "b", f32Stored("w", []int{6, 10}, near))
	out := filepath.Join(t.TempDir(), "diff.png")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{a, "--view", "diff", "--tensor", "w", "--out", out}, "--with"},
		{[]string{a, "--view", "diff", "--with", b, "--out", out}, "--tensor"},
		{[]string{a, "--view", "heatmap", "--with", b, "--tensor", "w", "--out", out}, "--with applies to --view diff"},
		{[]string{a, "--view", "heatmap", "--diff", "relative", "--tensor", "w", "--out", out}, "--diff applies to --view diff"},
		{[]string{a, "--view", "diff", "--with", b, "--tensor", "w", "--bins", "8", "--out", out}, "--bins does not apply"},
		{[]string{a, "--view", "diff", "--with", b, "--tensor", "w", "--diff", "sideways", "--out", out}, "absolute or relative"},
		{[]string{a, "--view", "diff", "--with", b, "--tensor", "w", "--out", b + ".png", "--out", a}, "--out"},
	} {
		_, errOut, code := runCmd(append([]string{"render"}, c.args...)...)
		if code != 2 || !strings.Contains(errOut, c.want) {
			t.Errorf("render %v: exit %d, stderr %q; want 2 and %q", c.args, code, errOut, c.want)
		}
	}
	_, errOut, code := runCmd("render", a, "--view", "diff", "--with", b, "--tensor", "w", "--diff", "relative",
		"--axes", "1,0", "--size", "1000x360", "--out", out)
	if code != 0 {
		t.Fatalf("render --view diff: exit %d: %s", code, errOut)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cfg, err := png.DecodeConfig(f)
	if err != nil || cfg.Width != 1000 || cfg.Height != 360 {
		t.Errorf("wrote %+v, %v; want a 1000×360 PNG", cfg, err)
	}
	if _, errOut, code := runCmd("render", a, "--view", "diff", "--with", b, "--tensor", "nope", "--out", out); code != 1 ||
		!strings.Contains(errOut, "nope") {
		t.Errorf("unknown tensor: exit %d, %q", code, errOut)
	}
}
