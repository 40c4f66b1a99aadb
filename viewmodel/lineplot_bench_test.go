package viewmodel

import (
	"context"
	"testing"

	"tensorscope/tensor"
)

// BenchmarkLinePlotEnvelope reduces a 16 Mi-value float32 vector to 1024
// columns of min, max and mean (three passes of the downsampling kernel).
func BenchmarkLinePlotEnvelope(b *testing.B) {
	const n = 16 << 20
	data := make([]byte, 4*n)
	for i := 0; i < len(data); i += 4 {
		data[i+1] = byte(i >> 4) // varied small floats
		data[i+3] = 0x3f
	}
	t, err := tensor.FromBytes(data, tensor.Float32, []int{n})
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for range b.N {
		p, err := computeLinePlot(context.Background(), t, 1024, func(int64, int64) {})
		if err != nil || p.Step != n/1024 {
			b.Fatalf("%v, step %d", err, p.Step)
		}
	}
}
