package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"tensorscope/tensor"
	"tensorscope/viewmodel"
)

// complexPartNames label the parts of a complex tensor in the inspector.
var complexPartNames = map[tensor.ComplexPart]string{
	tensor.Magnitude: "Magnitude |z|",
	tensor.RealPart:  "Real part",
	tensor.ImagPart:  "Imaginary part",
}

// newComplexPartSelect offers the real views of a complex tensor; it is
// shown only while a complex tensor is inspected.
func newComplexPartSelect(in *viewmodel.Inspector) *fyne.Container {
	var opts []string
	for _, p := range tensor.ComplexParts {
		opts = append(opts, complexPartNames[p])
	}
	sel := widget.NewSelect(opts, func(name string) {
		for p, n := range complexPartNames {
			if n == name {
				in.SetComplexPart(p)
			}
		}
	})
	sel.SetSelected(complexPartNames[in.ComplexPart()])
	c := container.NewHBox(widget.NewLabel("Complex values:"), sel)
	c.Hide()
	return c
}

// updateComplexPartSelect shows the choice for a complex tensor, with the
// inspector's current part selected.
func updateComplexPartSelect(c *fyne.Container, in *viewmodel.Inspector) {
	if !in.IsComplex() {
		c.Hide()
		return
	}
	sel := c.Objects[1].(*widget.Select)
	if name := complexPartNames[in.ComplexPart()]; sel.Selected != name {
		sel.SetSelected(name)
	}
	c.Show()
}
