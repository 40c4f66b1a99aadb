package tensor

import (
	"context"
	"math/rand/v2"
	"sync"
	"testing"
)

// The performance targets of issue 3, on a 256 MiB float32 tensor in
// memory and a 16384×16384 float32 plane:
//
//	go test -run '^$' -bench 'Stats|Downsample' -benchmem -count 5 ./tensor/

const benchElems = 64 << 20 // 256 MiB of float32

var benchData = sync.OnceValue(func() []byte {
	rng := rand.New(rand.NewPCG(42, 42))
	b := make([]byte, 4*benchElems)
	for i := range benchElems {
		putF32(b[4*i:], float32(rng.NormFloat64()))
	}
	return b
})

func benchTensor(b *testing.B, shape ...int) *Tensor {
	x, err := FromBytes(benchData(), Float32, shape)
	if err != nil {
		b.Fatal(err)
	}
	return x
}

func BenchmarkStats(b *testing.B) {
	x := benchTensor(b, benchElems)
	b.SetBytes(4 * benchElems)
	b.ResetTimer()
	for b.Loop() {
		if _, err := ComputeStats(context.Background(), x, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkStatsHistogram is what the histogram pane does: statistics, then
// a 256-bin histogram over the finite range they found.
func BenchmarkStatsHistogram(b *testing.B) {
	x := benchTensor(b, benchElems)
	b.SetBytes(4 * benchElems)
	b.ResetTimer()
	for b.Loop() {
		if _, err := ComputeHistogram(context.Background(), x, 256, 0, 0, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkHistogram(b *testing.B) {
	x := benchTensor(b, benchElems)
	b.SetBytes(4 * benchElems)
	b.ResetTimer()
	for b.Loop() {
		if _, err := ComputeHistogram(context.Background(), x, 256, -5, 5, nil); err != nil {
			b.Fatal(err)
		}
	}
}
