package ui

import (
	"context"
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"tensorscope/graphview"
	"tensorscope/viewmodel/compare"
)

// compareGraphView shows how two models' graphs differ: both graphs drawn
// as one with removed, added and changed nodes in colour, a properties
// panel with both versions of the tapped node's attributes, and a table of
// every change.
type compareGraphView struct {
	content fyne.CanvasObject
	rows    []compare.GraphChangeRow
	view    *graphview.GraphView
	props   *widget.Label
	cancel  context.CancelFunc
	// laidOut is closed once the combined graph is laid out and shown (or
	// failed to be), for tests and headless captures.
	laidOut chan struct{}
}

var graphChangeColumns = []string{"change", "node", "op in A", "op in B", "attribute", "in A", "in B"}

func newCompareGraphView(c *compare.Comparison) *compareGraphView {
	v := &compareGraphView{rows: c.GraphChangeRows(), laidOut: make(chan struct{})}
	if len(v.rows) == 0 {
		close(v.laidOut)
		v.content = container.NewCenter(widget.NewLabel("The graphs have the same nodes, ops and attributes."))
		return v
	}
	table := v.changeTable()
	cg := c.ChangeGraph()
	v.props = widget.NewLabel("Tap a node to see both versions of its attributes.")
	v.props.Wrapping = fyne.TextWrapWord
	v.view = graphview.NewGraphView(nil)
	v.view.OnNodeTapped = func(i int) { v.props.SetText(c.NodeVersions(cg, i)) }
	var ctx context.Context
	ctx, v.cancel = context.WithCancel(context.Background())
	v.view.Load(cg.View, graphview.SceneOptions{}, graphview.GoLayout(ctx), func(*graphview.Scene, error) {
		v.view.Home() // follows the widget's size until the user pans or zooms
		close(v.laidOut)
	})
	legend := widget.NewLabel("− removed (red)   + added (green)   ~ changed (ochre); constants not drawn")
	top := container.NewHSplit(container.NewBorder(nil, legend, nil, nil, v.view), container.NewVScroll(v.props))
	top.Offset = 0.65
	split := container.NewVSplit(top, table)
	split.Offset = 0.62
	v.content = split
	return v
}

// close stops a layout still running.
func (v *compareGraphView) close() {
	if v.cancel != nil {
		v.cancel()
	}
}

// changeTable lists every change, one row per differing attribute.
func (v *compareGraphView) changeTable() *widget.Table {
	table := widget.NewTableWithHeaders(
		func() (int, int) { return len(v.rows), len(graphChangeColumns) },
		func() fyne.CanvasObject {
			l := widget.NewLabel("")
			l.Truncation = fyne.TextTruncateEllipsis
			swatch := canvas.NewRectangle(color.Transparent)
			swatch.SetMinSize(themeSize(6, 6))
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
	return table
}

// changeColor marks a kind of change: removed in the theme's error colour,
// added in its success colour, changed in its warning colour.
func changeColor(c compare.NodeChange) color.Color {
	switch c {
	case compare.NodeRemoved:
		return theme.Color(theme.ColorNameError)
	case compare.NodeAdded:
		return theme.Color(theme.ColorNameSuccess)
	case compare.NodeChanged:
		return theme.Color(theme.ColorNameWarning)
	}
	return color.Transparent
}
