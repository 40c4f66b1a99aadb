package viewmodel

import (
	"slices"

	"tensorscope/formats"
)

// tensorPlace is where the user is on the inspected tensor: which tensor,
// and the plane, slider positions and zoom on it. A reload restores it when
// the new file still has a tensor of that name (the plane and zoom only if
// its shape is unchanged, since they would not fit another shape).
type tensorPlace struct {
	name             string
	shape            []int
	rowAxis, colAxis int
	fixed            []int
	view             Window
	expr             *ViewExpr // the user's expression for the tensor, nil for its default
}

// place records the inspector's place, or nil when no tensor is shown.
func (in *Inspector) place() *tensorPlace {
	if in.entry == nil {
		return nil
	}
	p := &tensorPlace{name: in.entry.Name, shape: slices.Clone(in.entry.Shape), expr: in.view.chosen}
	if in.heat.t != nil {
		p.rowAxis, p.colAxis = in.heat.rowAxis, in.heat.colAxis
		p.fixed = slices.Clone(in.heat.fixed)
		p.view = in.heat.view
	} else {
		p.rowAxis = -2 // the tensor had not loaded: nothing to restore but the selection
	}
	return p
}

// restorePlace shows the tensor named in p from entries, and once it has
// loaded, its plane, sliders and zoom.
func (in *Inspector) restorePlace(p *tensorPlace, entries []*formats.TensorEntry) {
	if p == nil {
		return
	}
	for i, e := range entries {
		if e.Name != p.name {
			continue
		}
		in.Show(i, e)
		if slices.Equal(e.Shape, p.shape) {
			in.view.chosen = p.expr // applies when it has loaded
		}
		if p.rowAxis != -2 && slices.Equal(e.Shape, p.shape) {
			in.pendingPlace = p
		}
		return
	}
}

// applyPendingPlace puts back the plane, sliders and zoom of a reload once
// the reloaded tensor has loaded. Errors cannot happen for an unchanged
// shape, and would only leave the default plane.
func (in *Inspector) applyPendingPlace() {
	p := in.pendingPlace
	in.pendingPlace = nil
	h := &in.heat
	if p == nil || h.t == nil || len(p.fixed) != len(h.fixed) {
		return
	}
	h.rowAxis, h.colAxis = p.rowAxis, p.colAxis
	copy(h.fixed, p.fixed)
	h.makePlane()
	if h.planeErr == nil {
		h.view = p.view
	}
}
