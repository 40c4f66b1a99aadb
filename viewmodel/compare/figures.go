package compare

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"tensorscope/formats"
	"tensorscope/tensor"
)

// Tolerance is NumPy's isclose rule: b is close to a when
// |b−a| ≤ ATol + RTol·|a|. Build it with NewTolerance, which validates.
type Tolerance struct {
	RTol, ATol float64
}

// DefaultTolerance is NumPy's default: rtol 1e-5, atol 1e-8.
var DefaultTolerance = Tolerance{RTol: 1e-5, ATol: 1e-8}

// NewTolerance returns the tolerance, or an error when either is negative
// or not finite.
func NewTolerance(rtol, atol float64) (Tolerance, error) {
	for _, v := range []struct {
		name string
		v    float64
	}{{"rtol", rtol}, {"atol", atol}} {
		if v.v < 0 || math.IsNaN(v.v) || math.IsInf(v.v, 0) {
			return Tolerance{}, fmt.Errorf("%s must be a finite number ≥ 0, not %v", v.name, v.v)
		}
	}
	return Tolerance{RTol: rtol, ATol: atol}, nil
}

// PairFigures is the comparison of one matched pair. When the values were
// not compared (shapes differ, or a side cannot be decoded), NotCompared
// says why and every figure is undefined.
type PairFigures struct {
	Name           string
	DTypeA, DTypeB tensor.DType
	ShapeA, ShapeB []int
	NotCompared    string
	Diff           tensor.Difference
}

// Compared reports whether the values were compared.
func (f *PairFigures) Compared() bool { return f.NotCompared == "" }

// Within reports whether the pair was compared and every position is
// within tolerance.
func (f *PairFigures) Within() bool { return f.Compared() && f.Diff.OverTol == 0 }

// The figures, each with ok=false when undefined (see tensor.Difference).

func (f *PairFigures) MaxAbs() (float64, bool)  { return f.figure(f.Diff.MaxAbsDiff) }
func (f *PairFigures) MeanAbs() (float64, bool) { return f.figure(f.Diff.MeanAbs) }
func (f *PairFigures) RMSE() (float64, bool)    { return f.figure(f.Diff.RMSE) }
func (f *PairFigures) RelL2() (float64, bool)   { return f.figure(f.Diff.RelL2) }
func (f *PairFigures) Cosine() (float64, bool)  { return f.figure(f.Diff.Cosine) }

func (f *PairFigures) figure(get func() (float64, bool)) (float64, bool) {
	if !f.Compared() {
		return 0, false
	}
	return get()
}

// SortKey orders pairs from most to least different: pairs not compared
// first, then pairs whose relative error is infinite (‖a‖ = 0 but b
// differs, or NaN/Inf mismatches only), then by relative L2 error.
func (f *PairFigures) SortKey() float64 {
	if !f.Compared() {
		return math.Inf(1)
	}
	if r, ok := f.RelL2(); ok {
		return r
	}
	if f.Diff.OverTol > 0 || f.Diff.SumSq > 0 {
		return math.MaxFloat64
	}
	return 0
}

// SortByError returns the figures ordered by SortKey, largest first; ties
// keep their order (A's).
func SortByError(fs []PairFigures) []PairFigures {
	out := make([]PairFigures, 0, len(fs))
	for _, i := range errorOrder(fs) {
		out = append(out, fs[i])
	}
	return out
}

// errorOrder returns the indices of fs ordered by SortKey, largest first,
// ties in A's order.
func errorOrder(fs []PairFigures) []int {
	idx := make([]int, len(fs))
	keys := make([]float64, len(fs))
	for i := range fs {
		idx[i], keys[i] = i, fs[i].SortKey()
	}
	slices.SortStableFunc(idx, func(x, y int) int {
		switch {
		case keys[x] > keys[y]:
			return -1
		case keys[x] < keys[y]:
			return 1
		}
		return 0
	})
	return idx
}

// PairBytes is how many bytes of the two files a pair's comparison reads:
// the unit of comparison progress.
func PairBytes(p TensorPair) int64 { return max(p.A.NBytes, 0) + max(p.B.NBytes, 0) }

// ComparePair loads both tensors of p and compares their values as float64,
// integer tensors with quantisation parameters dequantised. A pair that
// cannot be compared is not an error: its figures say why. Only a
// cancelled ctx returns an error. progress counts elements.
func ComparePair(ctx context.Context, p TensorPair, tol Tolerance, progress tensor.ProgressFunc) (PairFigures, error) {
	f := PairFigures{Name: p.Name, DTypeA: p.A.DType, DTypeB: p.B.DType,
		ShapeA: nonNilShape(p.A.Shape), ShapeB: nonNilShape(p.B.Shape)}
	if !slices.Equal(f.ShapeA, f.ShapeB) {
		f.NotCompared = "shapes differ"
		return f, nil
	}
	sa, err := compareSide(ctx, p.A)
	if err == nil {
		var sb tensor.CompareSide
		if sb, err = compareSide(ctx, p.B); err == nil {
			f.Diff, err = tensor.Compare(ctx, sa, sb, tol.RTol, tol.ATol, progress)
		}
	}
	if err != nil {
		if ctx.Err() != nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)) {
			return f, ctx.Err()
		}
		f.NotCompared = err.Error()
	}
	return f, nil
}

// compareSide loads e's values; integers with quantisation parameters are
// dequantised by the comparison itself, in float64.
func compareSide(ctx context.Context, e *formats.TensorEntry) (tensor.CompareSide, error) {
	t, err := e.Load(ctx)
	if err != nil {
		return tensor.CompareSide{}, err
	}
	s := tensor.CompareSide{Tensor: t}
	if q := e.Quant; q != nil && t.DType().IsInteger() {
		s.Scales, s.ZeroPoints, s.Axis = q.Scales, q.ZeroPoints, q.Axis
	}
	return s, nil
}

func nonNilShape(s []int) []int {
	if s == nil {
		return []int{}
	}
	return s
}
