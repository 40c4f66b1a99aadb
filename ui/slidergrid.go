package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// sliderGrid lays the axis sliders out two to a row, so that a 4-D
// tensor's two sliders take one row of the inspector, not two; a single
// slider takes the whole row.
type sliderGrid struct{}

const sliderColumns = 2

func (sliderGrid) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	visible := visibleObjects(objects)
	if len(visible) == 0 {
		return
	}
	cols := min(len(visible), sliderColumns)
	pad := theme.Padding()
	w := (size.Width - pad*float32(cols-1)) / float32(cols)
	var y, rowH float32
	for i, o := range visible {
		col := i % cols
		if col == 0 && i > 0 {
			y += rowH + pad
			rowH = 0
		}
		h := o.MinSize().Height
		o.Move(fyne.NewPos(float32(col)*(w+pad), y))
		o.Resize(fyne.NewSize(w, h))
		rowH = max(rowH, h)
	}
}

func (sliderGrid) MinSize(objects []fyne.CanvasObject) fyne.Size {
	visible := visibleObjects(objects)
	if len(visible) == 0 {
		return fyne.NewSize(0, 0)
	}
	cols := min(len(visible), sliderColumns)
	pad := theme.Padding()
	var w, h, rowH float32
	for i, o := range visible {
		m := o.MinSize()
		w = max(w, m.Width)
		if i%cols == 0 && i > 0 {
			h += rowH + pad
			rowH = 0
		}
		rowH = max(rowH, m.Height)
	}
	return fyne.NewSize(w*float32(cols)+pad*float32(cols-1), h+rowH)
}

func visibleObjects(objects []fyne.CanvasObject) []fyne.CanvasObject {
	var visible []fyne.CanvasObject
	for _, o := range objects {
		if o.Visible() {
			visible = append(visible, o)
		}
	}
	return visible
}
