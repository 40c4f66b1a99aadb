package tensor

import (
	"context"
	"testing"

	"tensorscope/internal/benchcpu"
)

// The summary's one pass beside the statistics' one pass, on the 256 MiB
// float32 tensor of BenchmarkStats, as a matrix (so that dead rows are
// tracked), and on a Q4_K tensor:
//
//	go test -run '^$' -bench 'Summary' -benchmem -count 5 ./tensor/
func BenchmarkSummary(b *testing.B) {
	x := benchTensor(b, benchElems/4096, 4096)
	b.SetBytes(4 * benchElems)
	benchcpu.Report(b, func() {
		if _, err := ComputeSummary(context.Background(), x, nil); err != nil {
			b.Fatal(err)
		}
	})
}

func BenchmarkSummaryQ4K(b *testing.B) {
	for _, f := range []struct {
		name string
		run  func(*Tensor) error
	}{
		{"stats", func(x *Tensor) error { _, err := ComputeStats(context.Background(), x, nil); return err }},
		{"summary", func(x *Tensor) error { _, err := ComputeSummary(context.Background(), x, nil); return err }},
	} {
		b.Run(f.name, func(b *testing.B) {
			x := blockTensor(b, GGMLQ4_K, 4096, 4096)
			b.SetBytes(4096 * 4096)
			benchcpu.Report(b, func() {
				if err := f.run(x); err != nil {
					b.Fatal(err)
				}
			})
		})
	}
}
