package tensor

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
)

// Pairwise comparison of two tensors of the same shape, element by element
// in row-major order, as float64. The figures follow NumPy so that a CI job
// can trust them: the error sums are over the positions where both values
// are finite, and a position is within tolerance exactly when
// numpy.isclose(b, a, rtol, atol, equal_nan=True) holds there.

// CompareSide is one operand of a comparison: a tensor and, when Scales is
// not empty, the affine dequantisation real = (q − zero point)·scale applied
// to its stored integers in float64 (per tensor, or per index along Axis,
// as for Dequantize).
type CompareSide struct {
	Tensor     *Tensor
	Scales     []float64
	ZeroPoints []int64
	Axis       int
}

// Difference accumulates the comparison of a against b. Finite counts the
// positions where both values are finite; the sums and MaxAbs are over
// those positions only.
type Difference struct {
	Count       int64 // positions compared
	Finite      int64 // positions where both are finite
	NaNMismatch int64 // exactly one side is NaN
	InfMismatch int64 // one side is ±Inf and the other is not the same infinity (and neither is NaN)
	OverTol     int64 // numpy.isclose(b, a, rtol, atol, equal_nan=True) is false

	MaxAbs              float64 // max |a−b|
	SumAbs, SumSq       float64 // Σ|a−b|, Σ(a−b)²
	SumAA, SumBB, SumAB float64 // Σa², Σb², Σab
}

// Figures of a Difference: each reports ok=false when it is undefined —
// no finite positions, a zero denominator, or a sum that overflowed.

// MaxAbsDiff is max |a−b| over the finite positions.
func (d *Difference) MaxAbsDiff() (float64, bool) {
	if d.Finite == 0 {
		return 0, false
	}
	return defined(d.MaxAbs)
}

// MeanAbs is the mean of |a−b| over the finite positions.
func (d *Difference) MeanAbs() (float64, bool) { return defined(d.SumAbs / float64(d.Finite)) }

// RMSE is the root of the mean of (a−b)² over the finite positions.
func (d *Difference) RMSE() (float64, bool) { return defined(math.Sqrt(d.SumSq / float64(d.Finite))) }

// RelL2 is ‖a−b‖/‖a‖ over the finite positions.
func (d *Difference) RelL2() (float64, bool) {
	if d.SumAA == 0 {
		return 0, false
	}
	return defined(math.Sqrt(d.SumSq) / math.Sqrt(d.SumAA))
}

// Cosine is a·b/(‖a‖‖b‖) over the finite positions.
func (d *Difference) Cosine() (float64, bool) {
	den := math.Sqrt(d.SumAA) * math.Sqrt(d.SumBB)
	if den == 0 {
		return 0, false
	}
	return defined(d.SumAB / den)
}

func defined(v float64) (float64, bool) {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, false
	}
	return v, true
}

func (d *Difference) merge(o *Difference) {
	d.Count += o.Count
	d.Finite += o.Finite
	d.NaNMismatch += o.NaNMismatch
	d.InfMismatch += o.InfMismatch
	d.OverTol += o.OverTol
	d.MaxAbs = max(d.MaxAbs, o.MaxAbs)
	d.SumAbs += o.SumAbs
	d.SumSq += o.SumSq
	d.SumAA += o.SumAA
	d.SumBB += o.SumBB
	d.SumAB += o.SumAB
}

// Compare compares a and b, which must have the same shape, with NumPy's
// isclose tolerances rtol and atol. Progress counts elements. Results do
// not depend on the number of cores: chunks are merged in order.
func Compare(ctx context.Context, a, b CompareSide, rtol, atol float64, progress ProgressFunc) (Difference, error) {
	if err := checkComparable(a, b); err != nil {
		return Difference{}, err
	}
	da, err := newDequantTable(a)
	if err != nil {
		return Difference{}, err
	}
	db, err := newDequantTable(b)
	if err != nil {
		return Difference{}, err
	}
	n := int64(a.Tensor.Len())
	meter := newProgressMeter(progress, n)
	plan := planChunks(n)
	parts := make([]Difference, plan.count)
	tol := closeness{rtol: rtol, atol: atol}
	fa, fb := float32Run(ctx, a), float32Run(ctx, b)
	err = parallel(ctx, plan.count, func() func(int) error {
		var bufA, bufB []float64
		if fa == nil || fb == nil {
			bufA, bufB = make([]float64, decodeBlock), make([]float64, decodeBlock)
		}
		return func(c int) error {
			lo, hi := plan.bounds(c)
			acc := &parts[c]
			return steps(ctx, lo, hi, meter, func(lo, hi int64) {
				if fa != nil && fb != nil {
					for ; lo < hi; lo += compareBlock {
						end := min(lo+compareBlock, hi)
						compareF32(acc, fa[4*lo:4*end], fb[4*lo:4*end], tol)
					}
					return
				}
				for ; lo < hi; lo += decodeBlock {
					end := min(lo+decodeBlock, hi)
					x, y := bufA[:end-lo], bufB[:end-lo]
					if err := readSide(a.Tensor, da, lo, x); err != nil {
						panic(err) // bounds were checked; cannot happen
					}
					if err := readSide(b.Tensor, db, lo, y); err != nil {
						panic(err)
					}
					compareF64(acc, x, y, tol)
				}
			})
		}
	})
	if err != nil {
		return Difference{}, err
	}
	var total Difference
	for i := range parts {
		total.merge(&parts[i])
	}
	return total, nil
}

// compareBlock is how many elements are summed at a time: summing each
// block apart before adding it to the chunk keeps rounding error small.
// decodeBlock is how many the general path decodes per ReadFloat64s call:
// each call sets up a reader (and allocates its scratch), so fewer, larger
// calls; the two float64 buffers (1 MiB) still stay in the L2 cache.
const (
	compareBlock = 4096
	decodeBlock  = 1 << 16
)

func checkComparable(a, b CompareSide) error {
	if a.Tensor == nil || b.Tensor == nil {
		return fmt.Errorf("compare: missing tensor")
	}
	sa, sb := a.Tensor.shape, b.Tensor.shape
	same := len(sa) == len(sb)
	for i := 0; same && i < len(sa); i++ {
		same = sa[i] == sb[i]
	}
	if !same {
		return fmt.Errorf("compare %s with %s: shapes differ", a.Tensor, b.Tensor)
	}
	for _, s := range []CompareSide{a, b} {
		if err := checkNumeric(s.Tensor, "compare"); err != nil {
			return err
		}
	}
	return nil
}

// float32Run returns the little-endian bytes of a float32 tensor laid out
// densely in row-major order with no dequantisation — the common case,
// compared straight from storage — or nil. It goes through the exported
// ContiguousBytes so that views whose bytes are not plain little-endian
// floats (other byte orders, computed views) keep to the general path.
func float32Run(ctx context.Context, s CompareSide) []byte {
	t := s.Tensor
	if t.dtype != Float32 || len(s.Scales) > 0 || t.IsBigEndian() || !t.IsContiguous() {
		return nil // big-endian: ContiguousBytes would copy the whole tensor to swap it
	}
	b, err := t.ContiguousBytes(ctx)
	if err != nil || len(b) != 4*t.Len() {
		return nil
	}
	return b
}

// dequantTable is a side's per-channel scale and zero point, broadcast.
type dequantTable struct {
	scale, zero []float64
	inner       int64 // elements per channel step
}

func newDequantTable(s CompareSide) (*dequantTable, error) {
	if len(s.Scales) == 0 {
		return nil, nil
	}
	t := s.Tensor
	if !t.dtype.IsInteger() {
		return nil, fmt.Errorf("dequantize %s: want an integer tensor", t)
	}
	channels, inner := 1, int64(1)
	if len(s.Scales) > 1 || len(s.ZeroPoints) > 1 {
		if s.Axis < 0 || s.Axis >= t.Rank() {
			return nil, fmt.Errorf("dequantize %s: %d scales and %d zero points need an axis in [0,%d), got %d",
				t, len(s.Scales), len(s.ZeroPoints), t.Rank(), s.Axis)
		}
		channels = t.shape[s.Axis]
		for _, d := range t.shape[s.Axis+1:] {
			inner *= int64(d)
		}
	}
	if len(s.Scales) != 1 && len(s.Scales) != channels {
		return nil, fmt.Errorf("dequantize %s: %d scales for %d channels along axis %d", t, len(s.Scales), channels, s.Axis)
	}
	if len(s.ZeroPoints) > 1 && len(s.ZeroPoints) != channels {
		return nil, fmt.Errorf("dequantize %s: %d zero points for %d channels along axis %d", t, len(s.ZeroPoints), channels, s.Axis)
	}
	d := &dequantTable{scale: make([]float64, channels), zero: make([]float64, channels), inner: max(inner, 1)}
	for c := range channels {
		d.scale[c] = s.Scales[min(c, len(s.Scales)-1)]
		if len(s.ZeroPoints) > 0 {
			d.zero[c] = float64(s.ZeroPoints[min(c, len(s.ZeroPoints)-1)])
		}
	}
	return d, nil
}

// readSide fills dst with the real values of the elements from row-major
// index start: decoded by the core, then dequantised when d is not nil.
func readSide(t *Tensor, d *dequantTable, start int64, dst []float64) error {
	if err := t.ReadFloat64s(start, dst); err != nil {
		return err
	}
	if d == nil {
		return nil
	}
	channels := int64(len(d.scale))
	for i := range dst {
		c := ((start + int64(i)) / d.inner) % channels
		dst[i] = (dst[i] - d.zero[c]) * d.scale[c]
	}
	return nil
}

// closeness is NumPy's isclose(b, a) with equal_nan: a is the reference.
type closeness struct{ rtol, atol float64 }

// compareF64 adds the block x (side a) against y (side b) to acc.
func compareF64(acc *Difference, x, y []float64, tol closeness) {
	y = y[:len(x)]
	var s finiteSums
	var special Difference
	for i, a := range x {
		b := y[i]
		diff := a - b
		// Both finite, and a−b did not overflow (b is finite when a and
		// a−b are).
		if diff-diff != 0 || a-a != 0 {
			special.addSpecial(a, b)
			continue
		}
		s.add(a, b, diff, tol)
	}
	s.flush(acc, &special, int64(len(x)))
}

// compareF32 is compareF64 over little-endian float32 bytes, two
// positions per step into two sets of sums so that the additions of one
// do not wait for the other's. A difference of two float32 values cannot
// overflow in float64, so a finite a−b means both values are finite.
func compareF32(acc *Difference, x, y []byte, tol closeness) {
	n := len(x) / 4
	y = y[:4*n]
	var s0, s1 finiteSums
	var special Difference
	i := 0
	for ; i+1 < n; i += 2 {
		xp, yp := x[4*i:4*i+8:4*i+8], y[4*i:4*i+8:4*i+8] // one bounds check for four loads
		a0 := float64(math.Float32frombits(binary.LittleEndian.Uint32(xp[0:4])))
		b0 := float64(math.Float32frombits(binary.LittleEndian.Uint32(yp[0:4])))
		a1 := float64(math.Float32frombits(binary.LittleEndian.Uint32(xp[4:8])))
		b1 := float64(math.Float32frombits(binary.LittleEndian.Uint32(yp[4:8])))
		d0, d1 := a0-b0, a1-b1
		if d0-d0 != 0 || d1-d1 != 0 {
			compareF32Slow(&s0, &special, a0, b0, tol)
			compareF32Slow(&s1, &special, a1, b1, tol)
			continue
		}
		ad0, ad1 := math.Abs(d0), math.Abs(d1)
		s0.maxAbs = max(s0.maxAbs, ad0)
		s1.maxAbs = max(s1.maxAbs, ad1)
		s0.sumAbs += ad0
		s1.sumAbs += ad1
		s0.sumSq += d0 * d0
		s1.sumSq += d1 * d1
		s0.aa += a0 * a0
		s1.aa += a1 * a1
		s0.bb += b0 * b0
		s1.bb += b1 * b1
		s0.ab += a0 * b0
		s1.ab += a1 * b1
		if !(ad0 <= tol.atol+tol.rtol*math.Abs(a0)) {
			s0.overTol++
		}
		if !(ad1 <= tol.atol+tol.rtol*math.Abs(a1)) {
			s1.overTol++
		}
		s0.finite += 2 // counted in one set: the count is all that merging needs
	}
	if i < n {
		a := float64(math.Float32frombits(binary.LittleEndian.Uint32(x[4*i:])))
		b := float64(math.Float32frombits(binary.LittleEndian.Uint32(y[4*i:])))
		compareF32Slow(&s0, &special, a, b, tol)
	}
	s0.merge(&s1)
	s0.flush(acc, &special, int64(n))
}

// compareF32Slow accounts for one position of compareF32 outside its
// fast pair loop.
func compareF32Slow(s *finiteSums, special *Difference, a, b float64, tol closeness) {
	diff := a - b
	if diff-diff != 0 {
		special.addSpecial(a, b)
		return
	}
	s.add(a, b, diff, tol)
}

// add accounts for one position where a, b and a−b are all finite.
func (s *finiteSums) add(a, b, diff float64, tol closeness) {
	ad := math.Abs(diff)
	s.finite++
	s.maxAbs = max(s.maxAbs, ad)
	s.sumAbs += ad
	s.sumSq += diff * diff
	s.aa += a * a
	s.bb += b * b
	s.ab += a * b
	if !(ad <= tol.atol+tol.rtol*math.Abs(a)) {
		s.overTol++
	}
}

// finiteSums is one block's accumulators over its finite positions; as a
// local variable the compiler keeps its fields in registers.
type finiteSums struct {
	finite, overTol                   int64
	maxAbs, sumAbs, sumSq, aa, bb, ab float64
}

func (s *finiteSums) merge(o *finiteSums) {
	s.finite += o.finite
	s.overTol += o.overTol
	s.maxAbs = max(s.maxAbs, o.maxAbs)
	s.sumAbs += o.sumAbs
	s.sumSq += o.sumSq
	s.aa += o.aa
	s.bb += o.bb
	s.ab += o.ab
}

func (s *finiteSums) flush(acc, special *Difference, count int64) {
	blk := Difference{Count: count, Finite: s.finite, OverTol: s.overTol, MaxAbs: s.maxAbs,
		SumAbs: s.sumAbs, SumSq: s.sumSq, SumAA: s.aa, SumBB: s.bb, SumAB: s.ab}
	blk.merge(special)
	acc.merge(&blk)
}

// addSpecial accounts for a position where a value is NaN or infinite (or
// a−b overflowed): isclose holds only for equal values or two NaNs.
func (d *Difference) addSpecial(a, b float64) {
	na, nb := math.IsNaN(a), math.IsNaN(b)
	switch {
	case na && nb:
		return
	case na != nb:
		d.NaNMismatch++
		d.OverTol++
		return
	}
	if a == b { // the same infinity
		return
	}
	if math.IsInf(a, 0) || math.IsInf(b, 0) {
		d.InfMismatch++
		d.OverTol++
		return
	}
	// Both finite but a−b overflowed: both are finite positions.
	d.Finite++
	d.MaxAbs = math.Inf(1)
	d.SumAbs = math.Inf(1)
	d.SumSq = math.Inf(1)
	d.SumAA += a * a
	d.SumBB += b * b
	d.SumAB += a * b
	d.OverTol++
}
