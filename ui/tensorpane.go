package ui

import (
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"tensorscope/viewmodel"
)

var tensorColumnWidths = [...]float32{190, 76, 120, 84, 80}

// tensorPane is the filterable, sortable tensor list beside the inspector.
type tensorPane struct {
	content   fyne.CanvasObject
	filter    *widget.Entry
	table     *widget.Table
	count     *widget.Label
	inspector *inspectorView
	list      *viewmodel.TensorList
}

func newTensorPane(win fyne.Window, d *viewmodel.Doc) *tensorPane {
	p := &tensorPane{list: d.Tensors}
	p.inspector = newInspectorView(win, d)
	p.filter = widget.NewEntry()
	p.filter.SetPlaceHolder("Filter by name, dtype, shape or role (Ctrl+F)")
	p.filter.SetText(p.list.Filter())
	p.count = widget.NewLabel("")
	p.table = widget.NewTableWithHeaders(
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
	for i, w := range tensorColumnWidths {
		p.table.SetColumnWidth(i, w)
	}
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
	split.Offset = 0.42
	p.content = split
	return p
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
		p.count.SetText(fmt.Sprintf("%d tensors", p.list.Total()))
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
