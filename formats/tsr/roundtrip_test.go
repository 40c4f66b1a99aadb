package tsr

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"tensorscope/formats"
	"tensorscope/tensor"
)

var testShapes = [][]int{{}, {5}, {3, 4}, {2, 3, 4}, {2, 3, 4, 5}, {1, 1, 7, 1}}

// randomTensor returns a contiguous tensor of random bytes.
func randomTensor(t testing.TB, rng *rand.Rand, dt tensor.DType, shape []int) *tensor.Tensor {
	t.Helper()
	n, err := tensor.NumElements(shape)
	if err != nil {
		t.Fatal(err)
	}
	b := make([]byte, n*dt.Size())
	for i := range b {
		b[i] = byte(rng.UintN(256))
	}
	x, err := tensor.FromBytes(b, dt, shape)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

func decodeBytes(t testing.TB, id string, b []byte) *formats.Document {
	t.Helper()
	doc, err := formats.OpenBytes("test", b)
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	if doc.Format != id {
		t.Fatalf("sniffed as %s, want %s", doc.Format, id)
	}
	if len(doc.Warnings) != 0 {
		t.Errorf("warnings on a file we wrote: %v", doc.Warnings)
	}
	return doc
}

func TestRoundTripV1(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, dc := range v1DTypes {
		for _, shape := range append(testShapes, []int{0}, []int{3, 0}) {
			t.Run(fmt.Sprintf("%s%v", dc.dtype, shape), func(t *testing.T) {
				x := randomTensor(t, rng, dc.dtype, shape)
				var buf bytes.Buffer
				if err := EncodeV1(&buf, x); err != nil {
					t.Fatal(err)
				}
				doc := decodeBytes(t, "tsr", buf.Bytes())
				e := doc.Tensors[0]
				if e.DType != dc.dtype || !slices.Equal(e.Shape, shape) {
					t.Fatalf("read back %s%v", e.DType, e.Shape)
				}
				if !bytes.Equal(tensorBytes(t, load(t, e)), tensorBytes(t, x)) {
					t.Error("data differs")
				}
			})
		}
	}
}

func TestRoundTripV3(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, mode := range []Mode{RAW, ZLIB} {
		for _, dc := range v3DTypes {
			for _, shape := range testShapes {
				t.Run(fmt.Sprintf("%v/%s%v", mode, dc.dtype, shape), func(t *testing.T) {
					x := randomTensor(t, rng, dc.dtype, shape)
					var buf bytes.Buffer
					if err := EncodeV3(&buf, x, mode); err != nil {
						t.Fatal(err)
					}
					doc := decodeBytes(t, "tsr3", buf.Bytes())
					e := doc.Tensors[0]
					if e.DType != dc.dtype || !slices.Equal(e.Shape, shape) {
						t.Fatalf("read back %s%v", e.DType, e.Shape)
					}
					got := load(t, e)
					if !bytes.Equal(tensorBytes(t, got), tensorBytes(t, x)) {
						t.Error("data differs")
					}
					if mode == RAW && got.Storage() != doc.Storage() {
						t.Error("RAW data was copied instead of viewed")
					}
				})
			}
		}
	}
	var buf bytes.Buffer
	if err := EncodeV3(&buf, randomTensor(t, rng, tensor.Float32, []int{2, 0}), RAW); err == nil {
		t.Error("EncodeV3 wrote an empty tensor its readers would refuse")
	}
}

func TestRoundTripV4(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, mode := range []Mode{RAW, ZLIB} {
		// One file per dtype with every test shape, and one mixing dtypes.
		var all []*tensor.Tensor
		for _, dc := range v4DTypes {
			var ts []*tensor.Tensor
			for _, shape := range testShapes {
				ts = append(ts, randomTensor(t, rng, dc.dtype, shape))
			}
			all = append(all, ts...)
			t.Run(fmt.Sprintf("%v/%s", mode, dc.dtype), func(t *testing.T) { roundTripV4(t, ts, mode) })
		}
		t.Run(fmt.Sprintf("%v/mixed", mode), func(t *testing.T) { roundTripV4(t, all, mode) })
	}
}

func roundTripV4(t *testing.T, ts []*tensor.Tensor, mode Mode) {
	var buf bytes.Buffer
	if err := EncodeV4(&buf, ts, mode); err != nil {
		t.Fatal(err)
	}
	doc := decodeBytes(t, "tsr4", buf.Bytes())
	if len(doc.Tensors) != len(ts) {
		t.Fatalf("%d tensors, wrote %d", len(doc.Tensors), len(ts))
	}
	for i, e := range doc.Tensors {
		x := ts[i]
		want := x.Shape()
		for len(want) < 4 {
			want = append([]int{1}, want...)
		}
		if e.Name != fmt.Sprintf("#%d", i) || e.DType != x.DType() || !slices.Equal(e.Shape, want) {
			t.Fatalf("#%d: read back %s %s%v, want %s%v", i, e.Name, e.DType, e.Shape, x.DType(), want)
		}
		if mode == RAW && e.Offset%256 != 0 {
			t.Errorf("#%d: RAW block at %d is not 256-aligned", i, e.Offset)
		}
		if !bytes.Equal(tensorBytes(t, load(t, e)), tensorBytes(t, x)) {
			t.Errorf("#%d: data differs", i)
		}
	}
}

func TestEncodeRefuses(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	f64 := randomTensor(t, rng, tensor.Float64, []int{2})
	five := randomTensor(t, rng, tensor.Float32, []int{1, 1, 1, 1, 2})
	empty := randomTensor(t, rng, tensor.Float32, []int{0, 3})
	var buf bytes.Buffer
	for name, err := range map[string]error{
		"v1 float64":  EncodeV1(&buf, f64),
		"v1 rank 5":   EncodeV1(&buf, five),
		"v3 float64":  EncodeV3(&buf, f64, RAW),
		"v3 mode 7":   EncodeV3(&buf, randomTensor(t, rng, tensor.Float32, []int{2}), Mode(7)),
		"v4 float64":  EncodeV4(&buf, []*tensor.Tensor{f64}, RAW),
		"v4 none":     EncodeV4(&buf, nil, RAW),
		"v4 empty":    EncodeV4(&buf, []*tensor.Tensor{empty}, ZLIB),
		"v4 bfloat16": EncodeV4(&buf, []*tensor.Tensor{randomTensor(t, rng, tensor.BFloat16, []int{2})}, RAW),
		"v4 rank 5":   EncodeV4(&buf, []*tensor.Tensor{five}, RAW),
	} {
		if err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// TestEncodeViews writes non-contiguous views: what is read back must be
// the view's elements in row-major order.
func TestEncodeViews(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 16))
	base := randomTensor(t, rng, tensor.Float32, []int{3, 4, 5})
	perm, err := base.Permute([]int{2, 0, 1})
	if err != nil {
		t.Fatal(err)
	}
	slice, err := base.Slice(2, 1, 3)
	if err != nil {
		t.Fatal(err)
	}
	for name, x := range map[string]*tensor.Tensor{"permuted": perm, "sliced": slice} {
		want, err := x.ContiguousBytes(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		for id, enc := range map[string]func(*bytes.Buffer) error{
			"tsr":  func(w *bytes.Buffer) error { return EncodeV1(w, x) },
			"tsr3": func(w *bytes.Buffer) error { return EncodeV3(w, x, ZLIB) },
			"tsr4": func(w *bytes.Buffer) error { return EncodeV4(w, []*tensor.Tensor{x, x}, RAW) },
		} {
			var buf bytes.Buffer
			if err := enc(&buf); err != nil {
				t.Fatal(err)
			}
			doc := decodeBytes(t, id, buf.Bytes())
			for _, e := range doc.Tensors {
				if !bytes.Equal(tensorBytes(t, load(t, e)), want) {
					t.Errorf("%s view written as %s reads back differently", name, id)
				}
			}
		}
	}
}
