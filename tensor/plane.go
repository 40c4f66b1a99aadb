package tensor

import "fmt"

// Plane returns the 2-D strided view of t that a heatmap shows: dimension
// rowAxis down, colAxis across, every other axis k fixed at fixed[k]
// (entries for rowAxis and colAxis are ignored; nil fixes every other axis
// at 0). Either axis may be −1 for "none", giving a single row or column:
// a rank-1 tensor is Plane(t, -1, 0, nil), 1×N; a rank-0 tensor is
// Plane(t, -1, -1, nil), 1×1. No data is copied.
func Plane(t *Tensor, rowAxis, colAxis int, fixed []int) (*Tensor, error) {
	rank := t.Rank()
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: Plane(row=%d, col=%d, fixed=%v) of %s: %s",
			ErrView, rowAxis, colAxis, fixed, t, fmt.Sprintf(format, args...))
	}
	for _, a := range []int{rowAxis, colAxis} {
		if a < -1 || a >= rank {
			return nil, bad("axis %d out of range [-1,%d)", a, rank)
		}
	}
	if rowAxis >= 0 && rowAxis == colAxis {
		return nil, bad("row and column axis are the same")
	}
	if fixed != nil && len(fixed) != rank {
		return nil, bad("need %d fixed indices, got %d", rank, len(fixed))
	}
	shift := 0 // elements from t's element 0 to the plane's
	for k := range rank {
		if k == rowAxis || k == colAxis {
			continue
		}
		i := 0
		if fixed != nil {
			i = fixed[k]
		}
		if i < 0 || i >= t.shape[k] {
			return nil, bad("index %d of axis %d out of range [0,%d)", i, k, t.shape[k])
		}
		shift += t.axisOffset(k, i)
	}
	rows, cols, rs, cs := 1, 1, 1, 1
	if colAxis >= 0 {
		cols, cs = t.shape[colAxis], t.strides[colAxis]
	}
	if rowAxis >= 0 {
		rows, rs = t.shape[rowAxis], t.strides[rowAxis]
	} else {
		rs = cols * cs // what a row-major 1×N would have
	}
	var merged [][]span
	if t.merged != nil {
		merged = make([][]span, 2)
		if rowAxis >= 0 {
			merged[0] = t.merged[rowAxis]
		}
		if colAxis >= 0 {
			merged[1] = t.merged[colAxis]
		}
	}
	return t.derive([]int{rows, cols}, []int{rs, cs}, merged, shift), nil
}
