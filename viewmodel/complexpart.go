package viewmodel

import (
	"fmt"
	"strings"

	"tensorscope/tensor"
)

// ComplexParts are the real views of a complex tensor the inspector offers,
// in menu order.
var ComplexParts = []tensor.ComplexPart{tensor.Magnitude, tensor.RealPart, tensor.ImagPart}

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

// ComplexPartNames are the names ParseComplexPart accepts, in menu order.
var ComplexPartNames = func() []string {
	names := make([]string, len(ComplexParts))
	for i, p := range ComplexParts {
		names[i] = p.String()
	}
	return names
}()

// ParseComplexPart reads a part's name: magnitude, real or imag, as the
// command line's --part gives it.
func ParseComplexPart(name string) (tensor.ComplexPart, error) {
	for _, p := range ComplexParts {
		if p.String() == name {
			return p, nil
		}
	}
	return 0, fmt.Errorf("unknown complex part %q: want %s", name, strings.Join(ComplexPartNames, ", "))
}
