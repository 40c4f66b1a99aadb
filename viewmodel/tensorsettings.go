package viewmodel

import "slices"

// perTensorSettings makes settings belong to the tensor they were made on:
// switching to another tensor and back restores its colour map, range,
// plane, indices and bins, and a tensor not seen before starts from the
// defaults, not from the last tensor's choices, unless the user pinned
// them.
type perTensorSettings struct {
	saved map[string]savedSettings // by tensor name, which a reload keeps
	// pinned, while the user pins settings, are those carried from tensor
	// to tensor (the plane only to tensors it fits).
	pinned *InspectorSettings
	// base is the last Apply: what a tensor without settings of its own
	// starts from; nil for the defaults.
	base *InspectorSettings
}

// savedSettings are a tensor's settings and the shape they were made for:
// a reloaded tensor of another shape keeps its colours but not its plane.
type savedSettings struct {
	settings InspectorSettings
	shape    []int
}

// Pinned reports whether the settings carry over to every tensor shown.
func (in *Inspector) Pinned() bool { return in.perTensor.pinned != nil }

// SetPinned pins the current settings, so that they apply to each tensor
// shown next (and follow the user's changes), or unpins them, so that each
// tensor has its own again.
func (in *Inspector) SetPinned(on bool) {
	if on == in.Pinned() {
		return
	}
	if !on {
		in.perTensor.pinned = nil
		return
	}
	s := in.Settings()
	in.perTensor.pinned = &s
}

// leaveTensor remembers the shown tensor's settings before another is
// shown. A tensor that had not loaded yet keeps the plane it had.
func (in *Inspector) leaveTensor() {
	if in.entry == nil {
		return
	}
	p := &in.perTensor
	s := in.Settings()
	if old, ok := p.saved[in.entry.Name]; ok && in.heat.t == nil {
		s.Axes, s.Index = old.settings.Axes, old.settings.Index
	}
	if p.saved == nil {
		p.saved = map[string]savedSettings{}
	}
	p.saved[in.entry.Name] = savedSettings{s, slices.Clone(in.entry.Shape)}
	if p.pinned != nil {
		p.pinned = &s
	}
}

// enterTensor gives the tensor about to be loaded its settings: the pinned
// ones, its own from before, or those every new tensor starts from.
func (in *Inspector) enterTensor() {
	p := &in.perTensor
	in.settingsErr = nil
	// The base plane applies as given (nil axes: the default plane, the
	// two largest axes) and says when it does not fit.
	s, plane, quiet := p.base, p.base, false
	if s == nil {
		d := DefaultInspectorSettings()
		s = &d
	}
	if in.entry != nil {
		if own, ok := p.saved[in.entry.Name]; ok {
			s, plane, quiet = &own.settings, nil, true
			if slices.Equal(own.shape, in.entry.Shape) {
				plane = s
			}
		}
	}
	if p.pinned != nil {
		s, plane, quiet = p.pinned, p.pinned, true
	}
	if quiet && plane != nil && plane.Axes == nil && plane.Index == nil {
		plane = nil // a vector's settings name no plane: the default one
	}
	in.choose(*s)
	in.plane, in.planeQuiet = plane, quiet
	in.changed(ChangedSettings)
}
