package ui

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"tensorscope/viewmodel"
)

// compareGraphView lists how two models' graphs differ: removed, added and
// changed nodes, a changed node with both versions of each attribute that
// differs, the kind of change in its colour.
type compareGraphView struct {
	content fyne.CanvasObject
	rows    []viewmodel.GraphChangeRow
}

var graphChangeColumns = []string{"change", "node", "op in A", "op in B", "attribute", "in A", "in B"}

func newCompareGraphView(c *viewmodel.Comparison) *compareGraphView {
	v := &compareGraphView{rows: c.GraphChangeRows()}
	if len(v.rows) == 0 {
		v.content = container.NewCenter(widget.NewLabel("The graphs have the same nodes, ops and attributes."))
		return v
	}
	table := widget.NewTableWithHeaders(
		func() (int, int) { return len(v.rows), len(graphChangeColumns) },
		func() fyne.CanvasObject {
			l := widget.NewLabel("")
			l.Truncation = fyne.TextTruncateEllipsis
			swatch := canvas.NewRectangle(color.Transparent)
			swatch.SetMinSize(fyne.NewSize(6, 6))
			return container.NewBorder(nil, nil, swatch, nil, l)
		},
		func(id widget.TableCellID, o fyne.CanvasObject) {
			box := o.(*fyne.Container)
			l := box.Objects[0].(*widget.Label)
			swatch := box.Objects[1].(*canvas.Rectangle)
			r := v.rows[id.Row]
			l.SetText(r.Cells()[id.Col])
			swatch.FillColor = color.Transparent
			if id.Col == 0 {
				swatch.FillColor = changeColor(r.Change)
			}
			swatch.Refresh()
		})
	table.ShowHeaderColumn = false
	table.CreateHeader = func() fyne.CanvasObject {
		return widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	}
	table.UpdateHeader = func(id widget.TableCellID, o fyne.CanvasObject) {
		if id.Row < 0 && id.Col >= 0 {
			o.(*widget.Label).SetText(graphChangeColumns[id.Col])
		}
	}
	for i, w := range []float32{90, 220, 130, 130, 150, 220, 220} {
		table.SetColumnWidth(i, w)
	}
	v.content = table
	return v
}

// changeColor marks a kind of change: removed in the theme's error colour,
// added in its success colour, changed in its warning colour.
func changeColor(c viewmodel.NodeChange) color.Color {
	switch c {
	case viewmodel.NodeRemoved:
		return theme.Color(theme.ColorNameError)
	case viewmodel.NodeAdded:
		return theme.Color(theme.ColorNameSuccess)
	case viewmodel.NodeChanged:
		return theme.Color(theme.ColorNameWarning)
	}
	return color.Transparent
}
