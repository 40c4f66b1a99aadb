package tsr

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"os"
	"testing"

	"tensorscope/formats"
	"tensorscope/internal/samples"
	"tensorscope/tensor"
)

// generatedFiles returns small files of every generation and mode, written
// by this package's encoders, for fuzz seeds and truncation tests.
func generatedFiles(t testing.TB) map[string][]byte {
	rng := rand.New(rand.NewPCG(21, 21))
	x := randomTensor(t, rng, tensor.Float32, []int{2, 3})
	y := randomTensor(t, rng, tensor.Int8, []int{5})
	h := randomTensor(t, rng, tensor.Float16, []int{1, 2, 2, 2})
	out := map[string][]byte{}
	add := func(name string, enc func(w *bytes.Buffer) error) {
		var buf bytes.Buffer
		if err := enc(&buf); err != nil {
			t.Fatal(err)
		}
		out[name] = buf.Bytes()
	}
	add("v1", func(w *bytes.Buffer) error { return EncodeV1(w, x) })
	add("v1-scalar", func(w *bytes.Buffer) error { return EncodeV1(w, randomTensor(t, rng, tensor.Int32, nil)) })
	add("v3-raw", func(w *bytes.Buffer) error { return EncodeV3(w, x, RAW) })
	add("v3-zlib", func(w *bytes.Buffer) error { return EncodeV3(w, y, ZLIB) })
	add("v4-raw", func(w *bytes.Buffer) error { return EncodeV4(w, []*tensor.Tensor{x, y, h}, RAW) })
	add("v4-zlib", func(w *bytes.Buffer) error { return EncodeV4(w, []*tensor.Tensor{x, y, h}, ZLIB) })
	return out
}

// checkDecode decodes b and, when that succeeds, loads every tensor and
// marshals the document; any failure must be an error value naming where.
func checkDecode(t *testing.T, b []byte) (*formats.Document, error) {
	doc, err := formats.OpenBytes("fuzz", b)
	if err != nil {
		var fe *formats.Error
		if !errors.As(err, &fe) && !errors.Is(err, formats.ErrUnknownFormat) && !errors.Is(err, formats.ErrEmpty) {
			t.Fatalf("error without a byte offset: %v", err)
		}
		return nil, err
	}
	for _, e := range doc.Tensors {
		x, err := e.Load(context.Background())
		if err != nil {
			continue
		}
		n, _ := tensor.NumElements(e.Shape)
		if got := len(tensorBytes(t, x)); got != n*e.DType.Size() {
			t.Fatalf("%s: loaded %d bytes for %s%v", e.Name, got, e.DType, e.Shape)
		}
	}
	if _, err := json.Marshal(doc); err != nil {
		t.Fatalf("marshal: %v", err)
	}
	return doc, nil
}

func FuzzDecodeTSR(f *testing.F) {
	samples.Seed(f, "tsr", ".tsr")
	for _, b := range generatedFiles(f) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		checkDecode(t, b)
	})
}

// TestTruncated cuts every sample and generated file at every byte offset
// (for the large label files: every offset of the first 4 KiB and a stride
// over the rest) and expects an error each time, never a panic.
func TestTruncated(t *testing.T) {
	files := generatedFiles(t)
	for _, p := range samples.Files(t, "tsr", ".tsr") {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		files[p] = b
	}
	for name, b := range files {
		for n := 0; n < len(b); n++ {
			if n > 4096 && n%997 != 0 && n != len(b)-1 {
				continue
			}
			if _, err := checkDecode(t, b[:n]); err == nil {
				t.Errorf("%s cut at %d of %d bytes decoded without error", name, n, len(b))
			}
		}
	}
}
