package summary

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"tensorscope/formats"
	"tensorscope/internal/benchcpu"
	"tensorscope/internal/samples"
	"tensorscope/tensor"
)

// The whole summary of the GGUF Q4_K_M sample beside what `stats` does
// for it (ComputeStats of every tensor, one after another), in process:
//
//	go test -run '^$' -bench GGUF -count 5 ./viewmodel/summary/
func BenchmarkGGUFQ4KM(b *testing.B) {
	path := filepath.Join(samples.Dir(b, "gguf/quantized-llama.cpp"), "synth-llama256-Q4_K_M.gguf")
	doc, err := formats.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer doc.Close()
	ctx := context.Background()
	b.Run("summary", func(b *testing.B) {
		benchcpu.Report(b, func() {
			if err := New(doc).Compute(ctx, doc, nil, nil); err != nil {
				b.Fatal(err)
			}
		})
	})
	b.Run("stats", func(b *testing.B) {
		benchcpu.Report(b, func() {
			for _, e := range Selected(doc) {
				x, err := e.Load(ctx)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := tensor.ComputeStats(ctx, x, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	})
}

// BenchmarkComputeFindsTensors: Compute of 30,000 tensors, cancelled at
// once, so that what is measured is finding each tensor's entry (by name,
// once per tensor: it scanned the document's list for each, 450 million
// comparisons).
func BenchmarkComputeFindsTensors(b *testing.B) {
	doc := &formats.Document{Path: "many"}
	for i := range 30000 {
		x, err := tensor.FromBytes(make([]byte, 4), tensor.Float32, []int{1})
		if err != nil {
			b.Fatal(err)
		}
		e := &formats.TensorEntry{Name: fmt.Sprintf("model.layers.%d.block.%d.weight", i/300, i%300), DType: tensor.Float32, Shape: []int{1}, NBytes: 4}
		e.SetLoader(func(context.Context) (*tensor.Tensor, error) { return x, nil })
		doc.Tensors = append(doc.Tensors, e)
	}
	m := New(doc)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for b.Loop() {
		if err := m.Compute(ctx, doc, nil, nil); err != context.Canceled {
			b.Fatalf("Compute: %v, want context.Canceled", err)
		}
	}
}
