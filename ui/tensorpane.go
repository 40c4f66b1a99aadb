package ui

import (
	"fmt"
	"math"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"tensorscope/viewmodel"
	"tensorscope/viewmodel/textfmt"
)

// tensorColumnWidths are the least widths of the list's columns, in the
// order of viewmodel.TensorColumn; each grows to fit its texts.
var tensorColumnWidths = [...]float32{150, 60, 70, 70, 64}

// compactColumns are the columns of a narrow list: DType and Shape go
// under the name, on a second line of its cell.
var compactColumns = []viewmodel.TensorColumn{viewmodel.ColName, viewmodel.ColSize, viewmodel.ColRole}

var wideColumns = []viewmodel.TensorColumn{viewmodel.ColName, viewmodel.ColDType, viewmodel.ColShape, viewmodel.ColSize, viewmodel.ColRole}

// filterHints are the filter box's placeholders, longest first: the box
// shows the longest that fits it.
var filterHints = []string{"Filter by name, dtype, shape or role (Ctrl+F)", "Filter by name, dtype, shape or role", "Filter (Ctrl+F)", "Filter"}

// tensorPane is the filterable, sortable tensor list beside the inspector.
type tensorPane struct {
	content   fyne.CanvasObject
	filter    *keyEntry
	table     *keyTable
	count     *widget.Label
	inspector *inspectorView
	list      *viewmodel.TensorList

	widths    [len(tensorColumnWidths)]float32 // each column's width fitted to its texts
	nameLines float32                          // the width the two lines of a compact name cell ask
	compact   bool                             // DType and Shape under the name
	listSize  fyne.Size                        // as last laid out
}

func newTensorPane(win fyne.Window, d *viewmodel.Doc) *tensorPane {
	p := &tensorPane{list: d.Tensors}
	p.inspector = newInspectorView(win, d)
	p.filter = newKeyEntry(windowKeys(win))
	p.filter.SetPlaceHolder(filterHints[0])
	p.filter.SetText(p.list.Filter())
	p.count = widget.NewLabel("")
	p.table = newKeyTable(win,
		func() (int, int) { return p.list.Len(), len(p.columns()) },
		compactCell(&p.compact),
		func(id widget.TableCellID, o fyne.CanvasObject) {
			if id.Row < p.list.Len() && id.Col < len(p.columns()) {
				o.(*widget.Label).SetText(p.cellText(id.Row, p.columns()[id.Col]))
			}
		})
	p.table.ShowHeaderColumn = false
	p.table.CreateHeader = newSortHeader
	p.table.UpdateHeader = func(id widget.TableCellID, o fyne.CanvasObject) {
		if id.Col < 0 || id.Col >= len(p.columns()) {
			return
		}
		col := p.columns()[id.Col]
		b := o.(*widget.Button)
		b.SetText(p.headerText(col))
		b.OnTapped = func() {
			p.list.SortBy(col)
			p.table.UnselectAll()
			p.keepInspected()
			p.table.Refresh()
		}
	}
	p.fitColumns()
	p.table.OnRowSelected = func(row int, byKey bool) {
		if row < 0 || row >= p.list.Len() {
			return
		}
		if p.list.IsGroup(row) {
			if byKey {
				return // the keys pass over a group row; a click opens it
			}
			// A group row of the name tree opens or closes.
			p.list.ToggleGroup(row)
			p.table.UnselectAll()
			p.table.Refresh()
			return
		}
		p.inspector.show(p.list.Index(row))
	}
	p.filter.nav = p.table.navigate
	grouped := widget.NewCheck("Tree", func(on bool) {
		p.list.SetGrouped(on)
		p.table.UnselectAll()
		p.keepInspected()
		p.table.Refresh()
		p.updateCount()
	})
	grouped.SetChecked(p.list.Grouped())
	p.filter.OnChanged = func(text string) {
		p.list.SetFilter(text)
		p.table.UnselectAll()
		p.keepInspected()
		p.table.Refresh()
		p.updateCount()
	}
	p.updateCount()
	// The filter bar comes before the table among the objects, so that Tab
	// goes from the filter to the table (NewBorder would put it after).
	tail := container.NewHBox(grouped, p.count)
	bar := container.NewBorder(nil, nil, nil, tail, p.filter)
	left := container.New(&listLayout{p: p, bar: bar, tail: tail}, bar, p.table)
	split := container.NewHSplit(left, p.inspector.content)
	width := float32(1280) // the viewer's opening size, before it is shown
	if win != nil && win.Canvas().Size().Width > 0 {
		width = win.Canvas().Size().Width
	}
	split.Offset = listShare(p.wideWidth(), width)
	p.content = container.New(&shareLayout{p: p, split: split, offset: split.Offset}, split)
	return p
}

// columns are the columns shown: all of them, or in a narrow list Name
// (with DType and Shape under it), Size and Role.
func (p *tensorPane) columns() []viewmodel.TensorColumn {
	if p.compact {
		return compactColumns
	}
	return wideColumns
}

// cellText is the text of row's cell in column col; a compact list's name
// cell has the dtype and shape on a second line.
func (p *tensorPane) cellText(row int, col viewmodel.TensorColumn) string {
	text := p.list.Cell(row, col)
	if p.compact && col == viewmodel.ColName {
		text += "\n" + strings.TrimSpace(p.list.Cell(row, viewmodel.ColDType)+"  "+p.list.Cell(row, viewmodel.ColShape))
	}
	return text
}

// fitColumns measures every column against its longest texts (up to a
// limit; longer names are ellipsized) and its title with a sort arrow,
// and sets the wide list's widths.
func (p *tensorPane) fitColumns() {
	for i, least := range tensorColumnWidths {
		col := viewmodel.TensorColumn(i)
		texts := append(p.list.LongestCells(col, 20), sortArrowWidest(viewmodel.TensorColumnTitles[col]))
		most := float32(320)
		if col == viewmodel.ColName {
			most = 360
		}
		if col == viewmodel.ColDType || col == viewmodel.ColRole {
			// Few distinct values, and the widest by bytes is not always
			// the widest drawn.
			texts = append(texts, p.list.DistinctCells(col, 64)...)
		}
		p.widths[i] = fitWidth(texts, least, most)
	}
	var seconds []string
	for _, d := range p.list.LongestCells(viewmodel.ColDType, 3) {
		for _, s := range p.list.LongestCells(viewmodel.ColShape, 3) {
			seconds = append(seconds, d+"  "+s)
		}
	}
	p.nameLines = max(p.widths[viewmodel.ColName], fitWidth(seconds, 0, 360))
	p.applyWidths(0)
}

// wideWidth is the width the list needs to show every column in full.
func (p *tensorPane) wideWidth() float32 {
	var w float32
	for _, c := range p.widths {
		w += c + theme.Padding()
	}
	return w + theme.ScrollBarSize()
}

// applyWidths sets the columns' widths for the mode the list is in; a
// compact list's name column takes what the others leave of width.
func (p *tensorPane) applyWidths(width float32) {
	if !p.compact {
		for i, w := range p.widths {
			p.table.SetColumnWidth(i, w)
		}
		return
	}
	size, role := p.widths[viewmodel.ColSize], p.widths[viewmodel.ColRole]
	name := width - size - role - 3*theme.Padding() - theme.ScrollBarSize()
	name = float32(math.Floor(float64(min(max(name, 120), p.nameLines))))
	for i, w := range []float32{name, size, role} {
		p.table.SetColumnWidth(i, w)
	}
}

// listLayout lays the filter bar above the list, and fits the list to its
// width: every column when they fit, else DType and Shape under the name;
// the filter's placeholder is the longest hint that fits the box. It
// scrolls the selected row into view when the list is first shown, as
// scrolling while the list had no size went astray.
type listLayout struct {
	p         *tensorPane
	bar, tail fyne.CanvasObject
}

func (l *listLayout) MinSize([]fyne.CanvasObject) fyne.Size {
	bar, table := l.bar.MinSize(), l.p.table.MinSize()
	return fyne.NewSize(max(bar.Width, table.Width), bar.Height+theme.Padding()+table.Height)
}

func (l *listLayout) Layout(_ []fyne.CanvasObject, size fyne.Size) {
	p := l.p
	barHeight := l.bar.MinSize().Height
	l.bar.Move(fyne.NewPos(0, 0))
	l.bar.Resize(fyne.NewSize(size.Width, barHeight))
	top := barHeight + theme.Padding()
	p.table.Move(fyne.NewPos(0, top))
	p.table.Resize(fyne.NewSize(size.Width, max(size.Height-top, 0)))
	if size == p.listSize || size.Width <= 0 {
		return
	}
	firstShown := p.listSize.Width <= 0 || p.listSize.Height <= 0
	p.listSize = size
	p.setPlaceholder(size.Width - l.tail.MinSize().Width - theme.Padding())
	compact := size.Width < p.wideWidth()
	rescroll := firstShown
	if compact != p.compact {
		p.compact = compact
		p.applyWidths(size.Width)
		p.table.Refresh() // new columns, and rows of one or two lines
		rescroll = true   // the scroll offset was in rows of the other height
	} else if compact {
		p.applyWidths(size.Width)
	}
	if rescroll {
		p.table.ScrollToTop()
		if p.table.row >= 0 {
			p.table.ScrollTo(widget.TableCellID{Row: p.table.row, Col: 0})
		}
	}
}

// setPlaceholder shows the longest filter hint that fits a box of width.
func (p *tensorPane) setPlaceholder(width float32) {
	room := width - 2*theme.InnerPadding() - 2*theme.Padding()
	hint := filterHints[len(filterHints)-1]
	for _, h := range filterHints {
		if fyne.MeasureText(h, theme.TextSize(), fyne.TextStyle{}).Width <= room {
			hint = h
			break
		}
	}
	if p.filter.PlaceHolder != hint {
		p.filter.SetPlaceHolder(hint)
	}
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

// listShare is the split offset, for a window width wide, that shows the
// whole table when it can, but never more than 45% of the window nor so
// much that the inspector is left less than 660 pixels (its toolbar fits
// in two rows there); a narrower list puts DType and Shape under the name.
func listShare(listWidth, width float32) float64 {
	share := float64((listWidth + 4*theme.Padding()) / width) // and the split's divider
	most := min(0.45, max(0.36, float64(1-660/width)))
	return min(max(share, 0.3), most)
}

// shareLayout gives the split between list and inspector the share
// listShare picks for each width the window takes, until the user drags
// the divider: Fyne keeps the offset as a ratio, which at 1024 pixels
// left the inspector too narrow for a share fit for 1600.
type shareLayout struct {
	p      *tensorPane
	split  *container.Split
	offset float64 // the offset last set here
	width  float32
}

func (l *shareLayout) MinSize([]fyne.CanvasObject) fyne.Size { return l.split.MinSize() }

func (l *shareLayout) Layout(_ []fyne.CanvasObject, size fyne.Size) {
	if size.Width > 0 && size.Width != l.width && l.split.Offset == l.offset {
		l.width = size.Width
		l.offset = listShare(l.p.wideWidth(), size.Width)
		l.split.Offset = l.offset
		l.split.Refresh()
	}
	l.split.Move(fyne.NewPos(0, 0))
	l.split.Resize(size)
}

func (p *tensorPane) headerText(col viewmodel.TensorColumn) string {
	c, desc, ok := p.list.Sort()
	return sortedTitle(viewmodel.TensorColumnTitles[col], ok && c == col, desc)
}

func (p *tensorPane) updateCount() {
	if p.list.Grouped() {
		p.count.SetText(fmt.Sprintf("%d tensors", p.list.Total()))
		return
	}
	if p.list.Len() == p.list.Total() {
		p.count.SetText(textfmt.CountNoun(p.list.Total(), "tensor"))
	} else {
		p.count.SetText(fmt.Sprintf("%d of %d", p.list.Len(), p.list.Total()))
	}
}

func (p *tensorPane) close() { p.inspector.close() }

// keepInspected selects the inspected tensor's row after the list changed;
// when the filter hides it, the list's first weight (OpeningRow) is
// inspected instead.
func (p *tensorPane) keepInspected() {
	row := -1
	if i := p.inspector.in.Index(); i >= 0 {
		row = p.list.RowOf(i)
	}
	if row < 0 {
		row = p.list.OpeningRow()
	}
	if row >= 0 {
		p.table.Select(widget.TableCellID{Row: row, Col: 0})
	}
}

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
