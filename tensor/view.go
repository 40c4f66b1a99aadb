package tensor

import (
	"errors"
	"fmt"
)

// View operations follow the reference tensor core (NOTES.md §5): they share
// storage, change only shape, strides and offset, and report every rejected
// argument as an error wrapping ErrView instead of asserting.
//
// One deliberate difference: DimMerge and View skip dimensions of size 1
// when they check that strides line up. A size-1 dimension is only ever
// indexed at 0, so its stride cannot change which elements a view
// addresses; the reference compares it anyway and so refuses some views that
// are perfectly valid (e.g. [2,1,3] with strides [3,7,1] viewed as [6]).
// IsContiguous keeps the reference's strict definition.
//
// A second one: where the reference's DimMerge refuses dimensions that do
// not lie one inside the other, ours returns a composite axis (see
// composite.go), so that a conv weight's mosaic is a view, not a copy.

// ErrView reports a view operation whose arguments do not fit the tensor.
var ErrView = errors.New("invalid view")

func (t *Tensor) viewErr(op string, format string, args ...any) error {
	return fmt.Errorf("%w: %s of %s: %s", ErrView, op, t, fmt.Sprintf(format, args...))
}

// derive returns a view of t with shape, strides and composite axes merged
// (nil when none, see composite.go) whose element 0 is element number shift
// of t's addressing (Σ ik·strides[k] for the index it had in t). Packed views
// keep the unit holding element 0 at offset.
func (t *Tensor) derive(shape, strides []int, merged [][]span, shift int) *Tensor {
	v := *t
	v.shape, v.strides, v.merged = shape, strides, normMerged(merged)
	if t.dtype.Packed() {
		ue := t.dtype.UnitElems()
		e := t.phase + shift
		v.offset += e / ue * t.dtype.UnitBytes()
		v.phase = e % ue
	} else {
		v.offset += shift * t.addrSize()
	}
	return &v
}

// Slice keeps indices [start, start+length) of dimension dim. length must be
// at least 1, as in the reference.
func (t *Tensor) Slice(dim, start, length int) (*Tensor, error) {
	op := fmt.Sprintf("Slice(dim=%d, start=%d, len=%d)", dim, start, length)
	if dim < 0 || dim >= len(t.shape) {
		return nil, t.viewErr(op, "dim out of range [0,%d)", len(t.shape))
	}
	if length < 1 {
		return nil, t.viewErr(op, "length must be at least 1")
	}
	if start < 0 || start > t.shape[dim]-length {
		return nil, t.viewErr(op, "range [%d,%d) exceeds size %d", start, start+length, t.shape[dim])
	}
	shape, strides := t.Shape(), t.Strides()
	sp, shift, ok := sliceSpans(t.spans(dim), start, length)
	if !ok {
		return nil, t.viewErr(op, "dim %d merges dims that are not adjacent in memory; a slice of it must cover whole blocks of %d or stay inside one",
			dim, t.shape[dim]/t.spans(dim)[0].size)
	}
	var comp []span
	shape[dim], strides[dim], comp = axisFrom(sp)
	merged := t.mergedWithout(-1)
	if comp != nil && merged == nil {
		merged = make([][]span, len(shape))
	}
	if merged != nil {
		merged[dim] = comp
	}
	return t.derive(shape, strides, merged, shift), nil
}

// Select fixes dimension dim at index and drops it, so the result has rank
// one less.
func (t *Tensor) Select(dim, index int) (*Tensor, error) {
	op := fmt.Sprintf("Select(dim=%d, index=%d)", dim, index)
	if dim < 0 || dim >= len(t.shape) {
		return nil, t.viewErr(op, "dim out of range [0,%d)", len(t.shape))
	}
	if index < 0 || index >= t.shape[dim] {
		return nil, t.viewErr(op, "index out of range [0,%d)", t.shape[dim])
	}
	shape := append(t.Shape()[:dim:dim], t.shape[dim+1:]...)
	strides := append(t.Strides()[:dim:dim], t.strides[dim+1:]...)
	return t.derive(shape, strides, t.mergedWithout(dim), t.axisOffset(dim, index)), nil
}

// Permute reorders dimensions: dimension i of the result is dimension
// order[i] of t.
func (t *Tensor) Permute(order []int) (*Tensor, error) {
	op := fmt.Sprintf("Permute(%v)", order)
	if len(order) != len(t.shape) {
		return nil, t.viewErr(op, "need %d axes, got %d", len(t.shape), len(order))
	}
	seen := make([]bool, len(order))
	shape := make([]int, len(order))
	strides := make([]int, len(order))
	var merged [][]span
	if t.merged != nil {
		merged = make([][]span, len(order))
	}
	for i, o := range order {
		if o < 0 || o >= len(order) {
			return nil, t.viewErr(op, "axis %d out of range [0,%d)", o, len(order))
		}
		if seen[o] {
			return nil, t.viewErr(op, "axis %d repeated", o)
		}
		seen[o] = true
		shape[i], strides[i] = t.shape[o], t.strides[o]
		if merged != nil {
			merged[i] = t.merged[o]
		}
	}
	return t.derive(shape, strides, merged, 0), nil
}

// DimMerge merges dimensions start..end (inclusive) into one, whose index
// runs over theirs in row-major order. When each merged dimension steps
// exactly over the ones inside it (stride[i-1] == shape[i]·stride[i], size-1
// dimensions skipped, see above) the result is a plain strided axis with the
// innermost stride. Otherwise — after a Permute, say — the merged axis is
// composite: it keeps the dimensions as components (see composite.go), still
// without copying.
func (t *Tensor) DimMerge(start, end int) (*Tensor, error) {
	op := fmt.Sprintf("DimMerge(%d, %d)", start, end)
	if start < 0 || end >= len(t.shape) || start > end {
		return nil, t.viewErr(op, "need 0 ≤ start ≤ end < %d", len(t.shape))
	}
	var parts [][]span
	size := 1
	for i := start; i <= end; i++ {
		size *= t.shape[i]
		parts = append(parts, t.spans(i))
	}
	stride := t.strides[end]
	comp := joinSpans(parts)
	if size == 0 {
		comp = nil
	} else if comp != nil {
		stride = comp[len(comp)-1].stride
	} else {
		for i := start; i <= end; i++ {
			if t.shape[i] != 1 {
				stride = t.spans(i)[len(t.spans(i))-1].stride
			}
		}
	}
	shape := append(append(t.Shape()[:start:start], size), t.shape[end+1:]...)
	strides := append(append(t.Strides()[:start:start], stride), t.strides[end+1:]...)
	var merged [][]span
	if t.merged != nil || comp != nil {
		merged = make([][]span, 0, len(shape))
		for i := range start {
			merged = append(merged, t.mergedAxis(i))
		}
		merged = append(merged, comp)
		for i := end + 1; i < len(t.shape); i++ {
			merged = append(merged, t.mergedAxis(i))
		}
	}
	return t.derive(shape, strides, merged, 0), nil
}

// DimSplit splits dimension dim into sizes, whose product must equal its
// size; every size must be at least 1. Sub-dimension i gets stride
// stride[dim]·product(sizes[i+1:]).
func (t *Tensor) DimSplit(dim int, sizes []int) (*Tensor, error) {
	op := fmt.Sprintf("DimSplit(%d, %v)", dim, sizes)
	if dim < 0 || dim >= len(t.shape) {
		return nil, t.viewErr(op, "dim out of range [0,%d)", len(t.shape))
	}
	if t.mergedAxis(dim) != nil {
		return nil, t.viewErr(op, "dim %d merges dims that are not adjacent in memory; use View or split before merging", dim)
	}
	if len(sizes) == 0 {
		return nil, t.viewErr(op, "no sizes")
	}
	prod := 1
	for _, s := range sizes {
		if s < 1 {
			return nil, t.viewErr(op, "size %d is not positive", s)
		}
		if prod > t.shape[dim]/s {
			return nil, t.viewErr(op, "product of sizes exceeds %d", t.shape[dim])
		}
		prod *= s
	}
	if prod != t.shape[dim] {
		return nil, t.viewErr(op, "product of sizes is %d, dim has %d", prod, t.shape[dim])
	}
	sub := make([]int, len(sizes))
	acc := t.strides[dim]
	for i := len(sizes) - 1; i >= 0; i-- {
		sub[i] = acc
		acc *= sizes[i]
	}
	shape := append(append(t.Shape()[:dim:dim], sizes...), t.shape[dim+1:]...)
	strides := append(append(t.Strides()[:dim:dim], sub...), t.strides[dim+1:]...)
	var merged [][]span
	if t.merged != nil {
		merged = append(append(append(merged, t.merged[:dim]...), make([][]span, len(sizes))...), t.merged[dim+1:]...)
	}
	return t.derive(shape, strides, merged, 0), nil
}

// View reshapes t to shape without copying, with the reference algorithm:
// runs of old dimensions that are laid out one inside the other are merged,
// then each run is split into consecutive new dimensions. It fails when a
// new dimension would straddle two runs (a transposed [4,3] cannot be viewed
// as [12]), when element counts differ, for rank-0 sources and for zero
// sizes. Copy with Contiguous first when a view is impossible.
func (t *Tensor) View(shape []int) (*Tensor, error) {
	op := fmt.Sprintf("View(%v)", shape)
	if len(t.shape) == 0 {
		return nil, t.viewErr(op, "cannot view a rank-0 tensor")
	}
	for _, d := range t.shape {
		if d == 0 {
			return nil, t.viewErr(op, "cannot view an empty tensor")
		}
	}
	for _, d := range shape {
		if d <= 0 {
			return nil, t.viewErr(op, "size %d is not positive", d)
		}
	}
	n, err := NumElements(shape)
	if err != nil {
		return nil, t.viewErr(op, "%v", err)
	}
	if n != t.Len() {
		return nil, t.viewErr(op, "%d elements cannot view %d", n, t.Len())
	}

	type run struct{ size, stride int }
	var runs []run
	physShape, physStrides := t.physical()
	for i, d := range physShape {
		if d == 1 {
			continue
		}
		if k := len(runs) - 1; k >= 0 && physStrides[i]*d == runs[k].stride {
			runs[k].size *= d
			runs[k].stride = physStrides[i]
			continue
		}
		runs = append(runs, run{d, physStrides[i]})
	}
	if len(runs) == 0 {
		runs = append(runs, run{1, 1})
	}

	strides := make([]int, len(shape))
	k, rem, cur := 0, runs[0].size, runs[0].stride
	for i, d := range shape {
		if d > 1 {
			for rem == 1 && k+1 < len(runs) {
				k++
				rem, cur = runs[k].size, runs[k].stride
			}
			if d > rem || rem%d != 0 {
				return nil, t.viewErr(op, "new dim %d (size %d) straddles non-contiguous dims", i, d)
			}
		}
		strides[i] = cur * (rem / d)
		rem /= d
	}
	return t.derive(append([]int(nil), shape...), strides, nil, 0), nil
}

// IsContiguous reports whether the strides are exactly the row-major strides
// of the shape (the reference's definition: a size-1 dimension with an
// unusual stride makes a view non-contiguous even though its elements are
// adjacent).
//
// A composite tensor is never contiguous: its components would have merged.
func (t *Tensor) IsContiguous() bool {
	if t.merged != nil {
		return false
	}
	acc := 1
	for i := len(t.shape) - 1; i >= 0; i-- {
		if t.strides[i] != acc {
			return false
		}
		acc *= t.shape[i]
	}
	return true
}

// Step keeps every step-th index of dimension dim, from index 0: the
// result has ⌈size/step⌉ indices, the stride times step. A composite
// dimension has no single stride to multiply, so it refuses.
func (t *Tensor) Step(dim, step int) (*Tensor, error) {
	op := fmt.Sprintf("Step(dim=%d, step=%d)", dim, step)
	if dim < 0 || dim >= len(t.shape) {
		return nil, t.viewErr(op, "dim out of range [0,%d)", len(t.shape))
	}
	if step < 1 {
		return nil, t.viewErr(op, "step must be at least 1")
	}
	if t.mergedAxis(dim) != nil && step > 1 {
		return nil, t.viewErr(op, "dim %d merges dims that are not adjacent in memory; step before merging", dim)
	}
	shape, strides := t.Shape(), t.Strides()
	shape[dim] = (t.shape[dim] + step - 1) / step
	if shape[dim] > 1 {
		strides[dim] *= step
	}
	return t.derive(shape, strides, t.merged, 0), nil
}
