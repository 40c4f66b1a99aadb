package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"tensorscope/viewmodel"
)

var headerColumns = []string{"Field", "Offset", "Size", "Value", "Meaning"}
var headerWidths = []float32{180, 150, 44, 170, 260}

// newHeaderPane shows the header fields as a table beside a hex dump;
// selecting a field highlights its bytes, tapping a byte selects its field.
func newHeaderPane(d *viewmodel.Doc) fyne.CanvasObject {
	hv := d.Header
	hex := widget.NewTextGrid()
	hexTap := newTapGrid(hex)
	var table *widget.Table
	paint := func() {
		hex.SetText(joinLines(hv.Lines()))
		for _, r := range hv.SelectedHighlight() {
			hex.SetStyleRange(r.Row, r.FirstCol, r.Row, r.LastCol, &widget.CustomTextGridStyle{
				FGColor: theme.Color(theme.ColorNameForegroundOnPrimary),
				BGColor: theme.Color(theme.ColorNamePrimary),
			})
		}
		hex.Refresh() // cell style changes alone do not reach rows already drawn
	}
	table = widget.NewTableWithHeaders(
		func() (int, int) { return len(hv.Fields), len(headerColumns) },
		func() fyne.CanvasObject {
			l := widget.NewLabel("")
			l.Truncation = fyne.TextTruncateEllipsis
			return l
		},
		func(id widget.TableCellID, o fyne.CanvasObject) {
			o.(*widget.Label).SetText(hv.FieldCells(id.Row)[id.Col])
		})
	table.ShowHeaderColumn = false
	table.CreateHeader = func() fyne.CanvasObject {
		return widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	}
	table.UpdateHeader = func(id widget.TableCellID, o fyne.CanvasObject) {
		if id.Col >= 0 {
			o.(*widget.Label).SetText(headerColumns[id.Col])
		}
	}
	for i, w := range headerWidths {
		table.SetColumnWidth(i, w)
	}
	table.OnSelected = func(id widget.TableCellID) {
		if id.Row != hv.Selected {
			hv.Select(id.Row)
			paint()
		}
	}
	hexTap.onTapped = func(row, col int) {
		off := hv.ByteAt(row, col)
		if off < 0 {
			return
		}
		if i := hv.FieldAt(off); i >= 0 {
			table.Select(widget.TableCellID{Row: i, Col: 0})
		}
	}
	paint()
	if len(hv.Fields) == 0 {
		return widget.NewLabel("This format has no fixed header fields.")
	}
	split := container.NewVSplit(table, container.NewScroll(hexTap))
	split.Offset = 0.55
	return split
}

func joinLines(lines []string) string {
	n := 0
	for _, l := range lines {
		n += len(l) + 1
	}
	b := make([]byte, 0, n)
	for i, l := range lines {
		if i > 0 {
			b = append(b, '\n')
		}
		b = append(b, l...)
	}
	return string(b)
}

// tapGrid makes a TextGrid tappable, reporting the cell under the pointer.
type tapGrid struct {
	widget.BaseWidget
	grid     *widget.TextGrid
	onTapped func(row, col int)
}

func newTapGrid(g *widget.TextGrid) *tapGrid {
	t := &tapGrid{grid: g}
	t.ExtendBaseWidget(t)
	return t
}

func (t *tapGrid) CreateRenderer() fyne.WidgetRenderer { return widget.NewSimpleRenderer(t.grid) }

func (t *tapGrid) Tapped(ev *fyne.PointEvent) {
	if t.onTapped != nil {
		row, col := t.grid.CursorLocationForPosition(ev.Position)
		t.onTapped(row, col)
	}
}

var _ fyne.Tappable = (*tapGrid)(nil)
