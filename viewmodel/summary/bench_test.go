package summary

import (
	"context"
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
