package tensor

import (
	"encoding/binary"
	"math"
	"slices"
	"testing"

	"github.com/x448/float16"
)

// seqTensor returns a contiguous float32 tensor whose elements are 0, 1,
// 2, ... in row-major order.
func seqTensor(t testing.TB, shape ...int) *Tensor {
	t.Helper()
	n, err := NumElements(shape)
	if err != nil {
		t.Fatal(err)
	}
	b := make([]byte, 4*n)
	for i := range n {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(float32(i)))
	}
	x, err := FromBytes(b, Float32, shape)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// naiveAt reads element index of x through the bare index formula and an
// independent decoder — the reference every faster path is checked against.
func naiveAt(x *Tensor, index []int) float64 {
	off := x.Offset()
	st := x.Strides()
	for k, i := range index {
		off += i * st[k] * x.DType().Size()
	}
	b := x.Storage().Bytes()[off:]
	le := binary.LittleEndian
	switch x.DType() {
	case Bool:
		if b[0] != 0 {
			return 1
		}
		return 0
	case Int8:
		return float64(int8(b[0]))
	case Uint8:
		return float64(b[0])
	case Int16:
		return float64(int16(le.Uint16(b)))
	case Uint16:
		return float64(le.Uint16(b))
	case Int32:
		return float64(int32(le.Uint32(b)))
	case Uint32:
		return float64(le.Uint32(b))
	case Int64:
		return float64(int64(le.Uint64(b)))
	case Uint64:
		return float64(le.Uint64(b))
	case Float16:
		return float64(float16.Frombits(le.Uint16(b)).Float32())
	case BFloat16:
		return float64(math.Float32frombits(uint32(le.Uint16(b)) << 16))
	case Float32:
		return float64(math.Float32frombits(le.Uint32(b)))
	case Float64:
		return math.Float64frombits(le.Uint64(b))
	}
	panic("naiveAt: " + x.DType().String())
}

// forEachIndex calls fn with every index of shape in row-major order (the
// slice is reused).
func forEachIndex(shape []int, fn func(index []int)) {
	for _, d := range shape {
		if d == 0 {
			return
		}
	}
	idx := make([]int, len(shape))
	for {
		fn(idx)
		k := len(shape) - 1
		for ; k >= 0; k-- {
			idx[k]++
			if idx[k] < shape[k] {
				break
			}
			idx[k] = 0
		}
		if k < 0 {
			return
		}
	}
}

// naiveValues lists x's elements in row-major order via naiveAt.
func naiveValues(x *Tensor) []float64 {
	var out []float64
	forEachIndex(x.Shape(), func(idx []int) { out = append(out, naiveAt(x, idx)) })
	return out
}

// sameFloat is == that also matches NaN with NaN and tells -0 from +0.
func sameFloat(a, b float64) bool {
	if a != a || b != b {
		return a != a && b != b
	}
	return a == b && math.Signbit(a) == math.Signbit(b)
}

func eqInts(a, b []int) bool { return slices.Equal(a, b) }

func putF32(b []byte, v float32) { binary.LittleEndian.PutUint32(b, math.Float32bits(v)) }
func putF64(b []byte, v float64) { binary.LittleEndian.PutUint64(b, math.Float64bits(v)) }
