package viewmodel

import "tensorscope/tensor"

// IsComplex reports whether the shown tensor is complex, so that the UI
// offers its parts.
func (in *Inspector) IsComplex() bool { return in.entry != nil && in.entry.DType.IsComplex() }

// ComplexPart is the part of a complex tensor shown.
func (in *Inspector) ComplexPart() tensor.ComplexPart { return in.part }

// SetComplexPart shows the real part, imaginary part or magnitude of a
// complex tensor; statistics, heatmap and histogram are recomputed over it.
func (in *Inspector) SetComplexPart(p tensor.ComplexPart) {
	if p == in.part {
		return
	}
	in.part = p
	if !in.IsComplex() || in.raw == nil {
		return
	}
	in.stopAll()
	in.summary = summaryResult{}
	in.heat.reset()
	in.hist.reset()
	in.load()
}
