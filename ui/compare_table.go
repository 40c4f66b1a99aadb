package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"tensorscope/viewmodel/compare"
)

// pairTableWidths are the least widths of the comparison table's columns,
// in the order of compare.PairColumns; each grows to fit its texts.
var pairTableWidths = [...]float32{140, 64, 70, 70, 70, 70, 70, 70, 50, 50, 70}

// pairTable is the comparison's table of matched pairs: the columns of
// `tensorscope diff`, sorted by any of them (click a header, or Tab to it
// and press Space), the name column kept in view when the others scroll.
// Up, Down, PgUp, PgDn, Home and End move the selection from the table
// or the filter box.
type pairTable struct {
	c      *compare.Comparison
	table  *keyTable
	fitted int // the number of pairs the widths were fitted to; −1 never
}

func newPairTable(mw *MainWindow, c *compare.Comparison) *pairTable {
	var win fyne.Window
	if mw != nil {
		win = mw.win
	}
	p := &pairTable{c: c, fitted: -1}
	p.table = newKeyTable(win,
		func() (int, int) { return c.Rows(), len(compare.PairColumns) },
		func() fyne.CanvasObject {
			l := widget.NewLabel("")
			l.Truncation = fyne.TextTruncateEllipsis
			return l
		},
		func(id widget.TableCellID, o fyne.CanvasObject) {
			l := o.(*widget.Label)
			col := compare.PairColumn(id.Col)
			l.Text = c.Cell(id.Row, col)
			l.Importance = widget.MediumImportance
			if f := c.Row(id.Row); f != nil && col.Numeric() && !f.Within() &&
				(!f.Compared() || col >= compare.PairNaN && l.Text != "0") {
				l.Importance = widget.WarningImportance
			}
			l.Refresh()
		})
	p.table.ShowHeaderColumn = false
	p.table.StickyColumnCount = 1
	p.table.CreateHeader = func() fyne.CanvasObject {
		b := widget.NewButton("", nil)
		b.Alignment = widget.ButtonAlignLeading
		b.Importance = widget.LowImportance
		return b
	}
	p.table.UpdateHeader = func(id widget.TableCellID, o fyne.CanvasObject) {
		if id.Col < 0 || id.Col >= len(compare.PairColumns) {
			return
		}
		col := compare.PairColumn(id.Col)
		b := o.(*widget.Button)
		b.SetText(p.headerText(col))
		b.OnTapped = func() { c.SortBy(col) }
	}
	p.table.OnRowSelected = func(row int, _ bool) { c.Select(row) }
	p.fit()
	return p
}

// headerText is a column's title, with ▼ or ▲ on the sorted column.
func (p *pairTable) headerText(col compare.PairColumn) string {
	title := compare.PairColumnTitles[col]
	if c, desc, ok := p.c.Sort(); ok && c == col {
		if desc {
			return title + " ▼"
		}
		return title + " ▲"
	}
	return title
}

// fit sizes every column to its longest texts and its title with a sort
// arrow, once the figures are known.
func (p *pairTable) fit() {
	n := len(p.c.Figures())
	if n == p.fitted {
		return
	}
	p.fitted = n
	for i, least := range pairTableWidths {
		col := compare.PairColumn(i)
		texts := append(p.c.LongestCells(col, 20), compare.PairColumnTitles[col]+" ▼")
		most := float32(160)
		if col == compare.PairName {
			most = 320
		}
		p.table.SetColumnWidth(i, fitWidth(texts, least, most))
	}
}

// rowsChanged follows a new filter, order or set of pairs: the selected
// pair stays selected in its new row.
func (p *pairTable) rowsChanged() {
	p.fit()
	p.table.Table.UnselectAll()
	p.table.row = -1
	if row := p.c.SelectedRow(); row >= 0 {
		p.table.row = row
		p.table.Table.Select(widget.TableCellID{Row: row, Col: 0})
	}
	p.table.Refresh()
}
