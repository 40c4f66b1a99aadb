package tensor

import (
	"context"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"tensorscope/internal/benchcpu"
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
	benchcpu.Report(b, func() {
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
	benchcpu.Report(b, func() {
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
	benchcpu.Report(b, func() {
		if _, err := ComputeHistogram(context.Background(), x, 256, 0, 0, nil); err != nil {
			b.Fatal(err)
		}
	})
}

func BenchmarkHistogram(b *testing.B) {
	x := benchTensor(b, benchElems)
	b.SetBytes(4 * benchElems)
	benchcpu.Report(b, func() {
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
			benchcpu.Report(b, func() {
				if _, err := Downsample(context.Background(), x, 1024, 1024, r, nil); err != nil {
					b.Fatal(err)
				}
			})
		})
	}
}

// BenchmarkStatsDType measures the other dtypes on 16M elements each (the
// same normal data, converted; integers scaled to use their range).
func BenchmarkStatsDType(b *testing.B) {
	const n = 16 << 20
	src := benchData()
	for _, dt := range []DType{Float16, BFloat16, Int8, Uint8, Int16, Int32, Float64} {
		buf := make([]byte, n*dt.Size())
		for i := range n {
			v := float64(math.Float32frombits(binary.LittleEndian.Uint32(src[4*i:])))
			e := buf[i*dt.Size():]
			switch dt {
			case Float16:
				binary.LittleEndian.PutUint16(e, Float32ToFloat16(float32(v)))
			case BFloat16:
				binary.LittleEndian.PutUint16(e, Float32ToBFloat16(float32(v)))
			case Int8, Uint8:
				e[0] = byte(int8(max(-127, min(127, v*30))))
			case Int16:
				binary.LittleEndian.PutUint16(e, uint16(int16(v*8000)))
			case Int32:
				binary.LittleEndian.PutUint32(e, uint32(int32(v*1e8)))
			case Float64:
				binary.LittleEndian.PutUint64(e, math.Float64bits(v))
			}
		}
		x, err := FromBytes(buf, dt, []int{n})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(dt.String(), func(b *testing.B) {
			b.SetBytes(int64(len(buf)))
			benchcpu.Report(b, func() {
				if _, err := ComputeStats(context.Background(), x, nil); err != nil {
					b.Fatal(err)
				}
			})
		})
	}
}

// BenchmarkStatsMappedFile is what `tensorscope stats` does: map a 256 MiB
// file (in the page cache) afresh and compute statistics once; "faulting"
// without the workers' MADV_POPULATE_READ, to compare.
func BenchmarkStatsMappedFile(b *testing.B) {
	path := filepath.Join(b.TempDir(), "f32.bin")
	if err := os.WriteFile(path, benchData(), 0o600); err != nil {
		b.Fatal(err)
	}
	b.Run("populate", func(b *testing.B) { benchStatsMapped(b, path) })
	b.Run("faulting", func(b *testing.B) {
		prefaultOn = false
		defer func() { prefaultOn = true }()
		benchStatsMapped(b, path)
	})
}

func benchStatsMapped(b *testing.B, path string) {
	b.SetBytes(4 * benchElems)
	benchcpu.Report(b, func() {
		s, err := MapFile(path)
		if err != nil {
			b.Fatal(err)
		}
		x, err := New(s, 0, Float32, []int{benchElems})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := ComputeStats(context.Background(), x, nil); err != nil {
			b.Fatal(err)
		}
		s.Close()
	})
}

// BenchmarkStatsLayouts: the 256 MiB float32 tensor as an 8192×8192
// matrix in C order, in Fortran order (transposed strides over the same
// bytes, as a Fortran-order .npy maps) and stored big-endian.
func BenchmarkStatsLayouts(b *testing.B) {
	s := NewStorage(benchData())
	c, err := New(s, 0, Float32, []int{8192, 8192})
	if err != nil {
		b.Fatal(err)
	}
	f, err := NewStrided(s, 0, Float32, []int{8192, 8192}, []int{1, 8192})
	if err != nil {
		b.Fatal(err)
	}
	be, err := c.BigEndian()
	if err != nil {
		b.Fatal(err)
	}
	for _, l := range []struct {
		name string
		x    *Tensor
	}{{"C-order", c}, {"Fortran-order", f}, {"big-endian", be}} {
		b.Run(l.name, func(b *testing.B) {
			b.SetBytes(4 * benchElems)
			benchcpu.Report(b, func() {
				if _, err := ComputeStats(context.Background(), l.x, nil); err != nil {
					b.Fatal(err)
				}
			})
		})
	}
}
