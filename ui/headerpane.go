package ui

import (
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"tensorscope/viewmodel"
)

var headerColumns = []string{"Field", "Offset", "Size", "Value", "Meaning"}
var headerWidths = []float32{180, 150, 44, 170, 260}

// headerMaxWidths bound how far a column widens to fit its longest cell.
var headerMaxWidths = []float32{380, 180, 90, 340, 640}

// headerWidthSample bounds how many fields are read to size the columns:
// formatting every field of a 30,000-tensor header would cost the UI
// goroutine a noticeable moment for a hint.
const headerWidthSample = 2000

// longestCells returns, per column, the n longest texts (by bytes) among
// the first headerWidthSample fields: the candidates for its width.
func longestCells(hv *viewmodel.HeaderView, n int) [][]string {
	cols := make([][]string, len(headerColumns))
	for i := range hv.Fields[:min(len(hv.Fields), headerWidthSample)] {
		for c, text := range hv.FieldCells(i) {
			cols[c] = append(cols[c], text)
		}
	}
	for c := range cols {
		slices.SortFunc(cols[c], func(a, b string) int { return len(b) - len(a) })
		cols[c] = cols[c][:min(n, len(cols[c]))]
	}
	return cols
}

// newHeaderPane shows the header fields as a table above a hex view of the
// whole file; selecting a field highlights its bytes (scrolling to them),
// tapping a byte selects its field.
func newHeaderPane(win fyne.Window, d *viewmodel.Doc) fyne.CanvasObject {
	hv := d.Header
	if len(hv.Fields) == 0 {
		pane := newHexPane(win, newHexView(hv, windowKeys(win)))
		return container.NewBorder(widget.NewLabel("This format has no fixed header fields; the file's bytes:"), nil, nil, nil, pane)
	}
	return newFieldsAndBytes(win, hv)
}

// newFieldsAndBytes is the table of hv's fields above its hex view, linked
// both ways: the Header pane, and a failed file's tab.
func newFieldsAndBytes(win fyne.Window, hv *viewmodel.HeaderView) fyne.CanvasObject {
	hex := newHexView(hv, windowKeys(win))
	var table *widget.Table
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
	longest := longestCells(hv, 30)
	for i, w := range headerWidths {
		table.SetColumnWidth(i, fitWidth(longest[i], w, headerMaxWidths[i]))
	}
	table.OnSelected = func(id widget.TableCellID) {
		if id.Row != hv.Selected {
			hv.Select(id.Row)
			hex.moved(true)
		}
	}
	hex.onByteTapped = func(off int64) {
		if i := hv.FieldAt(off); i >= 0 {
			table.Select(widget.TableCellID{Row: i, Col: 0})
		}
	}
	split := container.NewVSplit(table, newHexPane(win, hex))
	split.Offset = 0.5
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
