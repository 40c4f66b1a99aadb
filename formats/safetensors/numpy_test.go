package safetensors_test

import (
	"context"
	"encoding/json"
	"math"
	"os/exec"
	"testing"

	"tensorscope/formats"
	"tensorscope/internal/pyref"
	"tensorscope/tensor"
)

// numpyStats reads each tensor of the safetensors files NumPy can decode
// (every dtype but the float8 ones; bfloat16 widened by hand, as the top half
// of a float32) and prints min, max and mean.
const numpyStats = `
import sys, json, struct
import numpy as np
kinds = {'BOOL': '?', 'U8': '<u1', 'I8': '<i1', 'U16': '<u2', 'I16': '<i2', 'U32': '<u4', 'I32': '<i4',
         'U64': '<u8', 'I64': '<i8', 'F16': '<f2', 'F32': '<f4', 'F64': '<f8'}
out = {}
for path in sys.argv[1:]:
    b = open(path, 'rb').read()
    n = struct.unpack('<Q', b[:8])[0]
    header = json.loads(b[8:8+n])
    buf = b[8+n:]
    res = {}
    for name, info in header.items():
        if name == '__metadata__':
            continue
        s, e = info['data_offsets']
        raw = buf[s:e]
        if info['dtype'] == 'BF16':
            a = (np.frombuffer(raw, '<u2').astype('<u4') << 16).view('<f4')
        elif info['dtype'] in kinds:
            a = np.frombuffer(raw, kinds[info['dtype']])
        else:
            continue
        a = a.astype(np.float64)
        res[name] = [float(a.min()), float(a.max()), float(a.mean())] if a.size else None
    out[path] = res
print(json.dumps(out))
`

// TestValuesMatchNumPy compares the statistics of every tensor of every
// readable sample with NumPy's reading of the same bytes.
func TestValuesMatchNumPy(t *testing.T) {
	python := pyref.NumPy(t)
	var files []string
	for _, p := range sampleFiles(t) {
		if d, err := formats.Open(p); err == nil && d.Version != "index" {
			files = append(files, p)
			d.Close()
		}
	}
	out, err := exec.Command(python, append([]string{"-c", numpyStats}, files...)...).Output()
	if err != nil {
		t.Fatal(err)
	}
	var ref map[string]map[string][]float64
	if err := json.Unmarshal(out, &ref); err != nil {
		t.Fatal(err)
	}
	compared := 0
	for _, p := range files {
		doc, err := formats.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		for name, want := range ref[p] {
			x, err := doc.Tensor(name).Load(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			st, err := tensor.ComputeStats(context.Background(), x, nil)
			if err != nil {
				t.Fatal(err)
			}
			if want == nil {
				continue
			}
			if st.Min != want[0] || st.Max != want[1] || math.Abs(st.Mean-want[2]) > 1e-9*math.Max(1, math.Abs(want[2])) {
				t.Errorf("%s %s: min %v max %v mean %v, NumPy %v", p, name, st.Min, st.Max, st.Mean, want)
			}
			compared++
		}
		doc.Close()
	}
	if compared < 50 {
		t.Errorf("only %d tensors compared", compared)
	}
}

// TestPackedFloat4 reads F4 (two E2M1 values per byte, low nibble first).
func TestPackedFloat4(t *testing.T) {
	b := file(`{"a":{"dtype":"F4","shape":[2,2],"data_offsets":[0,2]}}`, []byte{0x21, 0xf3})
	doc, err := formats.DecodeAs("safetensors", "f4", b)
	if err != nil {
		t.Fatal(err)
	}
	x, err := doc.Tensor("a").Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{0.5, 1, 1.5, -6}
	for i, w := range want {
		v, err := x.Float64At([]int{i / 2, i % 2})
		if err != nil || v != w {
			t.Errorf("element %d: %v (%v), want %v", i, v, err, w)
		}
	}
	odd := file(`{"a":{"dtype":"F4","shape":[3],"data_offsets":[0,2]}}`, []byte{0x21, 0x03})
	doc, err = formats.DecodeAs("safetensors", "f4", odd)
	if err != nil || doc.Tensors[0].HasData() || len(doc.Warnings) != 1 {
		t.Errorf("three F4 elements (half a byte over): %v, warnings %v", err, doc.Warnings)
	}
}
