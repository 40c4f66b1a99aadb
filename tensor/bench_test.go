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

// reportCPU adds the CPU time per operation (all goroutines) to a
// benchmark's output: with n cores free, wall time approaches cpu-ms/op
// divided by n.
func reportCPU(b *testing.B, body func()) {
	b.ResetTimer()
	start := processCPUTime()
	for b.Loop() {
		body()
	}
	if cpu := processCPUTime() - start; cpu > 0 {
		b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms/op")
	}
}

func BenchmarkStats(b *testing.B) {
	x := benchTensor(b, benchElems)
	b.SetBytes(4 * benchElems)
	reportCPU(b, func() {
		if _, err := ComputeStats(context.Background(), x, nil); err != nil {
			b.Fatal(err)
		}
	})
}

// BenchmarkStatsUnaligned reads float32s that start at an odd address, as a
// tensor in a mapped file can.
func BenchmarkStatsUnaligned(b *testing.B) {
	buf := make([]byte, 1+4*benchElems)
	copy(buf[1:], benchData())
	x, err := New(NewStorage(buf), 1, Float32, []int{benchElems})
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(4 * benchElems)
	reportCPU(b, func() {
		if _, err := ComputeStats(context.Background(), x, nil); err != nil {
			b.Fatal(err)
		}
	})
}

// BenchmarkStatsHistogram is what the histogram pane does: statistics, then
// a 256-bin histogram over the finite range they found.
func BenchmarkStatsHistogram(b *testing.B) {
	x := benchTensor(b, benchElems)
	b.SetBytes(4 * benchElems)
	reportCPU(b, func() {
		if _, err := ComputeHistogram(context.Background(), x, 256, 0, 0, nil); err != nil {
			b.Fatal(err)
		}
	})
}

func BenchmarkHistogram(b *testing.B) {
	x := benchTensor(b, benchElems)
	b.SetBytes(4 * benchElems)
	reportCPU(b, func() {
		if _, err := ComputeHistogram(context.Background(), x, 256, -5, 5, nil); err != nil {
			b.Fatal(err)
		}
	})
}

// BenchmarkDownsample16k reduces a 16384×16384 float32 plane (1 GiB) to
// 1024×1024 cells of 16×16 elements.
func BenchmarkDownsample16k(b *testing.B) {
	const side = 16384
	data := make([]byte, 4*side*side)
	for off := 0; off < len(data); off += copy(data[off:], benchData()) {
	}
	x, err := FromBytes(data, Float32, []int{side, side})
	if err != nil {
		b.Fatal(err)
	}
	for _, r := range []Reduction{ReduceMean, ReduceMin, ReduceMax, ReduceAbsMax} {
		b.Run(r.String(), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			reportCPU(b, func() {
				if _, err := Downsample(context.Background(), x, 1024, 1024, r, nil); err != nil {
					b.Fatal(err)
				}
			})
		})
	}
}
