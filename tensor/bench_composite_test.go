package tensor

import (
	"context"
	"testing"
)

// BenchmarkDownsampleConvMosaic downsamples the mosaic of a conv weight
// float32[1024,1024,3,3] (36 MiB; a 3072×3072 composite plane) to
// 1024×1024 cells, beside the same elements as a plain contiguous plane:
// the price of reading kernels through their components instead of rows.
func BenchmarkDownsampleConvMosaic(b *testing.B) {
	const o, i, k = 1024, 1024, 3
	data := make([]byte, 4*o*i*k*k)
	for off := 0; off < len(data); off += copy(data[off:], benchData()) {
	}
	w, err := FromBytes(data, Float32, []int{o, i, k, k})
	if err != nil {
		b.Fatal(err)
	}
	mosaic, err := convMosaic(w)
	if err != nil {
		b.Fatal(err)
	}
	plain, err := FromBytes(data, Float32, []int{o * k, i * k})
	if err != nil {
		b.Fatal(err)
	}
	// A cancellable context, as the viewer's tasks have: its Err takes a lock.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	for _, c := range []struct {
		name  string
		plane *Tensor
	}{{"mosaic", mosaic}, {"plain", plain}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if _, err := Downsample(ctx, c.plane, 1024, 1024, ReduceMean, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
