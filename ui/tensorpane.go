package ui

import (
	"fmt"
	"math"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"tensorscope/viewmodel"
)

var tensorColumnWidths = [...]float32{190, 76, 120, 84, 80}

// tensorPane is the filterable, sortable tensor list beside the inspector.
type tensorPane struct {
	content   fyne.CanvasObject
	filter    *keyEntry
	table     *keyTable
	count     *widget.Label
	inspector *inspectorView
	list      *viewmodel.TensorList
}

func newTensorPane(win fyne.Window, d *viewmodel.Doc) *tensorPane {
	p := &tensorPane{list: d.Tensors}
	p.inspector = newInspectorView(win, d)
	p.filter = newKeyEntry(windowKeys(win))
	p.filter.SetPlaceHolder("Filter by name, dtype, shape or role (Ctrl+F)")
	p.filter.SetText(p.list.Filter())
	p.count = widget.NewLabel("")
	p.table = newKeyTable(windowKeys(win),
		func() (int, int) { return p.list.Len(), len(viewmodel.TensorColumnTitles) },
		func() fyne.CanvasObject {
			l := widget.NewLabel("")
			l.Truncation = fyne.TextTruncateEllipsis
			return l
		},
		func(id widget.TableCellID, o fyne.CanvasObject) {
			if id.Row < p.list.Len() {
				o.(*widget.Label).SetText(p.list.Cell(id.Row, viewmodel.TensorColumn(id.Col)))
			}
		})
	p.table.ShowHeaderColumn = false
	p.table.CreateHeader = func() fyne.CanvasObject {
		b := widget.NewButton("", nil)
		b.Alignment = widget.ButtonAlignLeading
		b.Importance = widget.LowImportance
		return b
	}
	p.table.UpdateHeader = func(id widget.TableCellID, o fyne.CanvasObject) {
		if id.Col < 0 {
			return
		}
		col := viewmodel.TensorColumn(id.Col)
		b := o.(*widget.Button)
		b.SetText(p.headerText(col))
		b.OnTapped = func() {
			p.list.SortBy(col)
			p.table.UnselectAll()
			p.table.Refresh()
		}
	}
	tableWidth := p.fitColumns()
	p.table.OnSelected = func(id widget.TableCellID) {
		if id.Row < 0 || id.Row >= p.list.Len() {
			return
		}
		if p.list.IsGroup(id.Row) {
			// A group row of the name tree opens or closes.
			p.list.ToggleGroup(id.Row)
			p.table.UnselectAll()
			p.table.Refresh()
			return
		}
		p.inspector.show(p.list.Index(id.Row))
	}
	grouped := widget.NewCheck("Tree", func(on bool) {
		p.list.SetGrouped(on)
		p.table.UnselectAll()
		p.table.Refresh()
		p.updateCount()
	})
	grouped.SetChecked(p.list.Grouped())
	p.filter.OnChanged = func(text string) {
		p.list.SetFilter(text)
		p.table.UnselectAll()
		p.table.Refresh()
		p.updateCount()
	}
	p.updateCount()
	left := container.NewBorder(container.NewBorder(nil, nil, nil, container.NewHBox(grouped, p.count), p.filter), nil, nil, nil, p.table)
	split := container.NewHSplit(left, p.inspector.content)
	split.Offset = listShare(tableWidth, win)
	p.content = split
	return p
}

// fitColumns sets the column widths and returns their sum: Shape and Size
// at their defaults, Name as wide as the longest names (up to a limit; the
// rest are ellipsized), DType and Role wide enough for every value they
// take in this file ("float8_e4m3fnuz (quantised)", "derived") and for
// their title with a sort arrow.
func (p *tensorPane) fitColumns() float32 {
	var total float32
	for i, w := range tensorColumnWidths {
		col := viewmodel.TensorColumn(i)
		switch col {
		case viewmodel.ColName:
			w = fitWidth(p.list.LongestNames(20), w, 360)
		case viewmodel.ColDType, viewmodel.ColRole:
			w = fitWidth(append(p.list.DistinctCells(col, 64), viewmodel.TensorColumnTitles[col]+" ▼"), w, 320)
		}
		p.table.SetColumnWidth(i, w)
		total += w
	}
	return total
}

// fitWidth is the width of a table cell whose label shows the widest of
// texts, at least least and at most most.
func fitWidth(texts []string, least, most float32) float32 {
	size := theme.TextSize()
	w := least
	for _, t := range texts {
		tw := fyne.MeasureText(t, size, fyne.TextStyle{}).Width + 4*theme.Padding()
		w = max(w, min(tw, most))
	}
	return float32(math.Ceil(float64(w)))
}

// listShare is the split offset that shows the whole table when it can,
// but never more than 36% of the window: the inspector keeps the rest, so
// that in a 1024-pixel window its toolbar still fits in two rows beside
// the list (the offset is a ratio, kept as the window is resized).
func listShare(tableWidth float32, win fyne.Window) float64 {
	width := float32(1280) // the viewer's opening size, before it is shown
	if win != nil && win.Canvas().Size().Width > 0 {
		width = win.Canvas().Size().Width
	}
	share := float64((tableWidth + 2*theme.Padding() + theme.ScrollBarSize()) / width)
	return min(max(share, 0.3), 0.36)
}

func (p *tensorPane) headerText(col viewmodel.TensorColumn) string {
	title := viewmodel.TensorColumnTitles[col]
	if c, desc, ok := p.list.Sort(); ok && c == col {
		if desc {
			return title + " ▼"
		}
		return title + " ▲"
	}
	return title
}

func (p *tensorPane) updateCount() {
	if p.list.Grouped() {
		p.count.SetText(fmt.Sprintf("%d tensors", p.list.Total()))
		return
	}
	if p.list.Len() == p.list.Total() {
		p.count.SetText(viewmodel.CountNoun(p.list.Total(), "tensor"))
	} else {
		p.count.SetText(fmt.Sprintf("%d of %d", p.list.Len(), p.list.Total()))
	}
}

func (p *tensorPane) close() { p.inspector.close() }

// selectTensor selects document tensor i in the list (clearing a filter
// that hides it) and inspects it.
func (p *tensorPane) selectTensor(i int) {
	row := p.list.RowOf(i)
	if row < 0 {
		p.filter.SetText("")
		row = p.list.RowOf(i)
	}
	if row < 0 {
		return
	}
	p.table.Select(widget.TableCellID{Row: row, Col: 0})
	p.table.ScrollTo(widget.TableCellID{Row: row, Col: 0})
}
