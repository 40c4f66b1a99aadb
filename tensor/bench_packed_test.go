package tensor

import (
	"context"
	"encoding/binary"
	"math/rand/v2"
	"testing"

	"tensorscope/internal/benchcpu"
)

// Packed and narrow dtypes through statistics, on 64M elements:
//
//	go test -run '^$' -bench 'Packed' -benchtime 5x ./tensor/
//
// The block type is a stand-in with q4_k's geometry (256 elements in 144
// bytes) and a cheap decoder of our own (a float16 scale times each
// nibble), since the real ggml decoders live with the GGUF codec: it
// measures the core's share of the cost.
const packedBenchElems = 64 << 20

func decodeFakeQ4K(dst []float32, src []byte) {
	for u := 0; u+144 <= len(src); u += 144 {
		scale := Float16ToFloat32(binary.LittleEndian.Uint16(src[u:]))
		d := dst[u/144*256 : u/144*256+256]
		q := src[u+16 : u+144]
		for i, b := range q {
			d[2*i] = scale * float32(b&15)
			d[2*i+1] = scale * float32(b>>4)
		}
	}
}

func withFakeQ4K(b *testing.B) {
	old := unitDecoders[GGMLQ4_K]
	unitDecoders[GGMLQ4_K] = decodeFakeQ4K
	b.Cleanup(func() { unitDecoders[GGMLQ4_K] = old })
}

func packedBenchTensor(b *testing.B, dt DType, shape ...int) *Tensor {
	n := 1
	for _, d := range shape {
		n *= d
	}
	size, err := StorageBytes(dt, int64(n))
	if err != nil {
		b.Fatal(err)
	}
	buf := make([]byte, size)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range buf {
		buf[i] = byte(rng.Uint32())
	}
	if dt == GGMLQ4_K {
		for u := 0; u+144 <= len(buf); u += 144 {
			binary.LittleEndian.PutUint16(buf[u:], Float32ToFloat16(float32(rng.Float64()*0.01)))
		}
	}
	if dt == Float8E4M3FN {
		for i := range buf {
			buf[i] = Float32ToNarrow(dt, float32(rng.NormFloat64()), true)
		}
	}
	x, err := FromBytes(buf, dt, shape)
	if err != nil {
		b.Fatal(err)
	}
	return x
}

func BenchmarkPackedStats(b *testing.B) {
	withFakeQ4K(b)
	for _, dt := range []DType{Int4, Float8E4M3FN, Float4E2M1FN, GGMLQ4_K} {
		x := packedBenchTensor(b, dt, packedBenchElems)
		b.Run(dt.String(), func(b *testing.B) {
			size, _ := StorageBytes(dt, packedBenchElems)
			b.SetBytes(size)
			benchcpu.Report(b, func() {
				if _, err := ComputeStats(context.Background(), x, nil); err != nil {
					b.Fatal(err)
				}
			})
			b.ReportMetric(float64(packedBenchElems)*float64(b.N)/b.Elapsed().Seconds()/1e9, "Gelem/s")
		})
	}
}

// BenchmarkPackedColumns walks a [4096, 4096] q4_k-shaped tensor down its
// columns: reading a transposed block of it.
func BenchmarkPackedColumns(b *testing.B) {
	withFakeQ4K(b)
	x := packedBenchTensor(b, GGMLQ4_K, 4096, 4096)
	tr, _ := x.Permute([]int{1, 0})
	tr, _ = tr.Slice(0, 0, 64)
	tr, _ = tr.Slice(1, 0, 48)
	dst := make([]float64, tr.Len())
	b.Run("ReadFloat64s-transposed-64x48", func(b *testing.B) {
		for b.Loop() {
			if err := tr.ReadFloat64s(0, dst); err != nil {
				b.Fatal(err)
			}
		}
	})
}
