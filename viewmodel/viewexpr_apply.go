package viewmodel

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"tensorscope/tensor"
)

// IndexMap turns an index of an expression's result into the index of the
// same element in the tensor the expression was applied to, so that hover
// names the element as the file has it: [o, i, y, x] in a conv mosaic.
type IndexMap func(idx []int) []int

// Apply evaluates e on t through the tensor core's views alone: the
// result shares t's storage. It returns the result and the map back to
// t's indices. An operation that does not fit gets an error naming its
// column and the operation as written.
func (e *ViewExpr) Apply(t *tensor.Tensor) (*tensor.Tensor, IndexMap, error) {
	cur := t
	var maps []IndexMap
	for _, op := range e.ops {
		next, m, err := applyViewOp(cur, op)
		var at *itemError
		switch {
		case errors.As(err, &at):
			return nil, nil, err // names its item's column already
		case err != nil:
			return nil, nil, fmt.Errorf("col %d: %s: %w", op.col, op.spelled, err)
		}
		cur = next
		maps = append(maps, m...)
	}
	return cur, func(idx []int) []int {
		idx = slices.Clone(idx)
		for i := len(maps) - 1; i >= 0; i-- {
			idx = maps[i](idx)
		}
		return idx
	}, nil
}

// applyViewOp applies one operation, returning the index maps of the
// views it took, in order.
func applyViewOp(t *tensor.Tensor, op viewOp) (*tensor.Tensor, []IndexMap, error) {
	if op.name == "index" {
		return applyBracket(t, op.items)
	}
	rank := t.Rank()
	axes := func(args []int) ([]int, error) {
		out := make([]int, len(args))
		for i, a := range args {
			n, err := normAxis(a, rank)
			if err != nil {
				return nil, err
			}
			out[i] = n
		}
		return out, nil
	}
	switch op.name {
	case "permute", "transpose":
		order := op.args
		if op.name == "transpose" {
			ab, err := axes(op.args)
			if err != nil {
				return nil, nil, err
			}
			order = make([]int, rank)
			for i := range order {
				order[i] = i
			}
			order[ab[0]], order[ab[1]] = order[ab[1]], order[ab[0]]
		}
		if len(order) != rank {
			return nil, nil, fmt.Errorf("a tensor of rank %d needs %d axes, not %d", rank, rank, len(order))
		}
		order, err := axes(order)
		if err != nil {
			return nil, nil, err
		}
		r, err := t.Permute(order)
		return r, []IndexMap{permuteMap(order)}, viewErr(err)
	case "merge":
		ab, err := axes(op.args)
		if err != nil {
			return nil, nil, err
		}
		if ab[0] > ab[1] {
			return nil, nil, fmt.Errorf("axes %d and %d: the first must not come after the second", ab[0], ab[1])
		}
		r, err := t.DimMerge(ab[0], ab[1])
		return r, []IndexMap{mergeMap(ab[0], t.Shape()[ab[0]:ab[1]+1])}, viewErr(err)
	case "split":
		dim, err := normAxis(op.args[0], rank)
		if err != nil {
			return nil, nil, err
		}
		sizes, err := inferSize(op.args[1:], t.Shape()[dim])
		if err != nil {
			return nil, nil, err
		}
		r, err := t.DimSplit(dim, sizes)
		return r, []IndexMap{splitMap(dim, sizes)}, viewErr(err)
	case "select":
		dim, err := normAxis(op.args[0], rank)
		if err != nil {
			return nil, nil, err
		}
		i, err := normIndex(op.args[1], t.Shape()[dim], dim)
		if err != nil {
			return nil, nil, err
		}
		r, err := t.Select(dim, i)
		return r, []IndexMap{selectMap(dim, i)}, viewErr(err)
	case "view", "reshape":
		shape, err := inferSize(op.args, t.Len())
		if err != nil {
			return nil, nil, err
		}
		r, err := t.View(shape)
		return r, []IndexMap{reshapeMap(shape, t.Shape())}, viewErr(err)
	}
	return nil, nil, fmt.Errorf("unknown operation %q", op.name)
}

// applyBracket applies NumPy basic indexing: integers select, slices
// slice (with a positive step), one "..." stands for the axes not named.
func applyBracket(t *tensor.Tensor, items []indexItem) (*tensor.Tensor, []IndexMap, error) {
	named, ellipses := 0, 0
	for _, it := range items {
		if it.ellipsis {
			ellipses++
		} else {
			named++
		}
	}
	if ellipses > 1 {
		return nil, nil, errors.New("only one '...' may appear")
	}
	if named > t.Rank() {
		return nil, nil, fmt.Errorf("%d indices for a tensor of rank %d", named, t.Rank())
	}
	var maps []IndexMap
	dim := 0
	for _, it := range items {
		size := 0
		if dim < t.Rank() {
			size = t.Shape()[dim]
		}
		switch {
		case it.ellipsis:
			dim = t.Rank() - named
		case !it.isSlice:
			i, err := normIndex(it.index, size, dim)
			if err != nil {
				return nil, nil, &itemError{it.col, err}
			}
			r, err := t.Select(dim, i)
			if err != nil {
				return nil, nil, &itemError{it.col, viewErr(err)}
			}
			t = r
			maps = append(maps, selectMap(dim, i))
			named--
		default:
			start, length, step, err := sliceBounds(it, size)
			if err != nil {
				return nil, nil, &itemError{it.col, err}
			}
			if start != 0 || length != size {
				if t, err = t.Slice(dim, start, length); err != nil {
					return nil, nil, &itemError{it.col, viewErr(err)}
				}
			}
			if step > 1 {
				if t, err = t.Step(dim, step); err != nil {
					return nil, nil, &itemError{it.col, viewErr(err)}
				}
			}
			maps = append(maps, sliceMap(dim, start, step))
			dim++
			named--
		}
	}
	return t, maps, nil
}

// sliceBounds resolves a slice item against an axis of size, as Python
// does for a positive step: negative bounds count from the end, bounds
// past either end are clipped. An empty result is an error, since a view
// of nothing shows nothing.
func sliceBounds(it indexItem, size int) (start, length, step int, err error) {
	step = 1
	if it.step != nil {
		step = *it.step
	}
	if step < 1 {
		return 0, 0, 0, fmt.Errorf("step %d: only positive steps are views", step)
	}
	resolve := func(b *int, def int) int {
		if b == nil {
			return def
		}
		v := *b
		if v < 0 {
			v += size
		}
		return min(max(v, 0), size)
	}
	start, stop := resolve(it.start, 0), resolve(it.stop, size)
	if stop <= start {
		return 0, 0, 0, fmt.Errorf("slice %d:%d of an axis of size %d selects nothing", start, stop, size)
	}
	return start, stop - start, step, nil
}

// normAxis reads a possibly negative axis number.
func normAxis(a, rank int) (int, error) {
	if a < -rank || a >= rank {
		return 0, fmt.Errorf("axis %d is out of range for rank %d", a, rank)
	}
	if a < 0 {
		a += rank
	}
	return a, nil
}

// normIndex reads a possibly negative index into an axis.
func normIndex(i, size, dim int) (int, error) {
	if i < -size || i >= size {
		return 0, fmt.Errorf("index %d is out of range for axis %d of size %d", i, dim, size)
	}
	if i < 0 {
		i += size
	}
	return i, nil
}

// inferSize fills in one -1 among sizes so that they multiply to total.
func inferSize(sizes []int, total int) ([]int, error) {
	out := slices.Clone(sizes)
	free, prod := -1, 1
	for i, s := range out {
		switch {
		case s == -1 && free < 0:
			free = i
		case s == -1:
			return nil, errors.New("only one size may be -1")
		case s < 1:
			return nil, fmt.Errorf("size %d is not positive", s)
		default:
			if prod > total/s+1 {
				return nil, fmt.Errorf("sizes %v hold more than the %d elements", sizes, total)
			}
			prod *= s
		}
	}
	if free >= 0 {
		if prod == 0 || total%prod != 0 {
			return nil, fmt.Errorf("sizes %v cannot divide %d elements", sizes, total)
		}
		out[free] = total / prod
	}
	return out, nil
}

// viewErr drops the tensor core's "invalid view: " prefix: the message
// already says which operation failed.
func viewErr(err error) error {
	if err == nil {
		return nil
	}
	return errors.New(strings.TrimPrefix(err.Error(), tensor.ErrView.Error()+": "))
}

func permuteMap(order []int) IndexMap {
	return func(idx []int) []int {
		out := make([]int, len(idx))
		for k, o := range order {
			out[o] = idx[k]
		}
		return out
	}
}

func mergeMap(start int, sizes []int) IndexMap {
	return func(idx []int) []int {
		digits := make([]int, len(sizes))
		v := idx[start]
		for j := len(sizes) - 1; j >= 0; j-- {
			if sizes[j] > 0 {
				digits[j] = v % sizes[j]
				v /= sizes[j]
			}
		}
		return slices.Concat(idx[:start], digits, idx[start+1:])
	}
}

func splitMap(dim int, sizes []int) IndexMap {
	return func(idx []int) []int {
		v := 0
		for j, s := range sizes {
			v = v*s + idx[dim+j]
		}
		return slices.Concat(idx[:dim], []int{v}, idx[dim+len(sizes):])
	}
}

func selectMap(dim, i int) IndexMap {
	return func(idx []int) []int { return slices.Insert(slices.Clone(idx), dim, i) }
}

func sliceMap(dim, start, step int) IndexMap {
	return func(idx []int) []int {
		out := slices.Clone(idx)
		out[dim] = start + idx[dim]*step
		return out
	}
}

func reshapeMap(to, from []int) IndexMap {
	return func(idx []int) []int {
		flat := 0
		for k, s := range to {
			flat = flat*s + idx[k]
		}
		out := make([]int, len(from))
		for k := len(from) - 1; k >= 0; k-- {
			if from[k] > 0 {
				out[k] = flat % from[k]
				flat /= from[k]
			}
		}
		return out
	}
}

// itemError is an error of one item of a bracket, at its column.
type itemError struct {
	col int
	err error
}

func (e *itemError) Error() string { return fmt.Sprintf("col %d: %v", e.col, e.err) }
func (e *itemError) Unwrap() error { return e.err }
