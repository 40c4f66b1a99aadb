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
// Packed elements are found by element number (naivePacked), big-endian
// elements are reversed byte by byte, magnitudes computed with math.Hypot.
func naiveAt(x *Tensor, index []int) float64 {
	e := naiveOffset(x, index)
	if x.DType().Packed() {
		return naivePacked(x.DType(), x.Storage().Bytes()[x.Offset():], x.UnitPhase()+e)
	}
	size := x.DType().Size()
	if x.IsMagnitude() {
		size *= 2
	}
	b := x.Storage().Bytes()[x.Offset()+e*size:]
	if x.IsBigEndian() {
		b = naiveSwap(b[:size], x.DType(), x.IsMagnitude())
	}
	if x.IsMagnitude() {
		if size == 8 {
			re := float64(math.Float32frombits(binary.LittleEndian.Uint32(b)))
			im := float64(math.Float32frombits(binary.LittleEndian.Uint32(b[4:])))
			if math.IsInf(re, 0) || math.IsInf(im, 0) {
				return math.Inf(1)
			}
			return float64(float32(math.Sqrt(re*re + im*im)))
		}
		return math.Hypot(math.Float64frombits(binary.LittleEndian.Uint64(b)), math.Float64frombits(binary.LittleEndian.Uint64(b[8:])))
	}
	return naiveDecode(x.DType(), b)
}

// naiveSwap returns b (one element) with the bytes of each of its parts
// reversed.
func naiveSwap(b []byte, dt DType, parts bool) []byte {
	out := slices.Clone(b)
	n := len(out)
	if parts || dt.IsComplex() {
		n /= 2
	}
	for p := 0; p < len(out); p += n {
		slices.Reverse(out[p : p+n])
	}
	return out
}

func naiveDecode(dt DType, b []byte) float64 {
	le := binary.LittleEndian
	switch dt {
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
	case Datetime64, Timedelta64:
		if v := int64(le.Uint64(b)); v != math.MinInt64 {
			return float64(v)
		}
		return math.NaN()
	case Float8E4M3FN, Float8E4M3FNUZ, Float8E5M2, Float8E5M2FNUZ, Float8E8M0FNU:
		return refNarrowValue(dt, b[0])
	}
	panic("naiveAt: " + dt.String())
}

// naivePacked decodes element e of the packed stream that starts at b[0]:
// sub-byte elements bit by bit from the stream, fake blocks from their unit.
func naivePacked(dt DType, b []byte, e int) float64 {
	if dt == fakeBlockDType {
		u := b[e/32*34:]
		return float64(float16.Frombits(binary.LittleEndian.Uint16(u)).Float32()) * float64(int8(u[2+e%32]))
	}
	w := map[DType]int{Int4: 4, Uint4: 4, Float4E2M1FN: 4, Int2: 2, Uint2: 2, Float6E2M3FN: 6, Float6E3M2FN: 6}[dt]
	v := 0
	for k := range w {
		bit := e*w + k
		v |= int(b[bit/8]>>(bit%8)&1) << k
	}
	switch dt {
	case Int4, Int2:
		if v >= 1<<(w-1) {
			v -= 1 << w
		}
		return float64(v)
	case Uint4, Uint2:
		return float64(v)
	}
	return refNarrowValue(dt, uint8(v))
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

// naiveOffset is the element offset of index: along a composite axis, the
// index read as digits of its components (innermost fastest), each times
// its stride.
func naiveOffset(x *Tensor, index []int) int {
	e := 0
	for k, i := range index {
		sp := x.spans(k)
		digits := make([]int, len(sp))
		for j := len(sp) - 1; j >= 0; j-- {
			digits[j] = i % sp[j].size
			i /= sp[j].size
		}
		for j, d := range digits {
			e += d * sp[j].stride
		}
	}
	return e
}

// sliceIsView reports whether indices [start, start+length) of axis dim of
// x are addressed by a set of components: always for a plain axis; for a
// composite one, when the offsets the range addresses, in order, form a
// mixed-radix grid (checked by brute force over the candidates' products).
func sliceIsView(x *Tensor, dim, start, length int) bool {
	sp := x.spans(dim)
	if len(sp) == 1 {
		return true
	}
	offs := make([]int, length)
	for i := range offs {
		one := make([]int, x.Rank())
		one[dim] = start + i
		offs[i] = naiveOffset(x, one)
	}
	// Any grid's sizes are a factorisation of length whose strides are
	// differences of offs; try the strides of the digits of sp.
	var try func(rest, n int, sizes, strides []int) bool
	try = func(rest, n int, sizes, strides []int) bool {
		if n == 1 {
			ok := true
			for i, o := range offs {
				want, q := offs[0], i
				for j := len(sizes) - 1; j >= 0; j-- {
					want += q % sizes[j] * strides[j]
					q /= sizes[j]
				}
				ok = ok && o == want
			}
			return ok
		}
		for j := rest; j < len(sp); j++ {
			for d := 2; d <= n; d++ {
				if n%d == 0 && try(j+1, n/d, append(sizes[:len(sizes):len(sizes)], d), append(strides[:len(strides):len(strides)], sp[j].stride)) {
					return true
				}
			}
		}
		return false
	}
	return try(0, length, nil, nil)
}
