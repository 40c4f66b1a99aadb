package viewmodel

import "math"

// resolvedRange is a heatmap colour range as colourise takes it: the grid's
// own range (RangeAuto, RangeSymmetric) or fixed bounds (RangeManual).
type resolvedRange struct {
	mode   RangeMode
	lo, hi float64
}

// colourRange turns the user's range mode into the bounds to paint with.
// Whole-tensor modes need the tensor's statistics, computed in the
// background; until they arrive the heatmap is painted with the shown
// slice's range and painted again once they do. With a diverging map, a
// whole-tensor range that spans 0 is made symmetric about it, so that equal magnitudes get equal strength on
// both sides and the colour bar's ticks mirror each other.
func (in *Inspector) colourRange() resolvedRange {
	h := &in.heat
	symmetric := h.rangeMode == RangeSymmetric || h.cmap.Diverging
	switch h.rangeMode {
	case RangeManual:
		return resolvedRange{RangeManual, h.lo, h.hi}
	case RangeSlice:
		return resolvedRange{mode: RangeAuto}
	}
	st, done := in.Stats()
	if !done || st.Finite == 0 {
		if h.rangeMode == RangeSymmetric {
			return resolvedRange{mode: RangeSymmetric}
		}
		return resolvedRange{mode: RangeAuto}
	}
	lo, hi := st.Min, st.Max
	if symmetric && (h.rangeMode == RangeSymmetric || (lo < 0 && hi > 0)) {
		m := math.Max(math.Abs(lo), math.Abs(hi))
		lo, hi = -m, m
	}
	return resolvedRange{RangeManual, lo, hi}
}
