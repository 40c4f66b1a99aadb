package ui

import (
	"math"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"tensorscope/viewmodel/compare"
)

// pairTableWidths are the least widths of the comparison table's columns,
// in the order of compare.PairColumns; each grows to fit its texts.
var pairTableWidths = [...]float32{140, 64, 70, 70, 70, 70, 70, 70, 50, 50, 70}

// compactPairColumns are the columns of a narrow table: dtype and shape
// go under the name, on a second line of its cell.
var compactPairColumns = []compare.PairColumn{compare.PairName, compare.PairMaxAbs, compare.PairMeanAbs,
	compare.PairRMSE, compare.PairRelL2, compare.PairCosine, compare.PairNaN, compare.PairInf, compare.PairOverTol}

// pairTable is the comparison's table of matched pairs: the columns of
// `tensorscope diff`, sorted by any of them (click a header, or Tab to it
// and press Space), the name column kept in view when the others scroll;
// where the window is too narrow for them all, dtype and shape go under
// the name. Up, Down, PgUp, PgDn, Home and End move the selection from
// the table or the filter box.
type pairTable struct {
	c       *compare.Comparison
	table   *keyTable
	content fyne.CanvasObject

	fitted    int // the number of pairs the widths were fitted to; −1 never
	widths    [len(pairTableWidths)]float32
	nameLines float32 // the width a compact name cell's two lines ask
	compact   bool
	width     float32 // as last laid out
}

func newPairTable(mw *MainWindow, c *compare.Comparison) *pairTable {
	var win fyne.Window
	if mw != nil {
		win = mw.win
	}
	p := &pairTable{c: c, fitted: -1}
	p.table = newKeyTable(win,
		func() (int, int) { return c.Rows(), len(p.columns()) },
		compactCell(&p.compact),
		func(id widget.TableCellID, o fyne.CanvasObject) {
			if id.Col >= len(p.columns()) {
				return
			}
			l := o.(*widget.Label)
			col := p.columns()[id.Col]
			l.Text = c.Cell(id.Row, col)
			if p.compact && col == compare.PairName {
				l.Text += "\n" + strings.TrimSpace(c.Cell(id.Row, compare.PairDType)+"  "+c.Cell(id.Row, compare.PairShape))
			}
			l.Importance = widget.MediumImportance
			if f := c.Row(id.Row); f != nil && col.Numeric() && !f.Within() &&
				(!f.Compared() || col >= compare.PairNaN && l.Text != "0") {
				l.Importance = widget.WarningImportance
			}
			l.Refresh()
		})
	p.table.ShowHeaderColumn = false
	p.table.StickyColumnCount = 1
	p.table.CreateHeader = newSortHeader
	p.table.UpdateHeader = func(id widget.TableCellID, o fyne.CanvasObject) {
		if id.Col < 0 || id.Col >= len(p.columns()) {
			return
		}
		col := p.columns()[id.Col]
		b := o.(*widget.Button)
		b.SetText(p.headerText(col))
		b.OnTapped = func() { c.SortBy(col) }
	}
	p.table.OnRowSelected = func(row int, _ bool) { c.Select(row) }
	p.content = container.New(&pairTableLayout{p}, p.table)
	p.fit()
	return p
}

// columns are the columns shown: all of diff's, or in a narrow table the
// name (with dtype and shape under it) and the figures.
func (p *pairTable) columns() []compare.PairColumn {
	if p.compact {
		return compactPairColumns
	}
	return compare.PairColumns
}

// headerText is a column's title, with ▼ or ▲ on the sorted column.
func (p *pairTable) headerText(col compare.PairColumn) string {
	c, desc, ok := p.c.Sort()
	return sortedTitle(compare.PairColumnTitles[col], ok && c == col, desc)
}

// fit measures every column against its longest texts and its title with
// a sort arrow, once the figures are known.
func (p *pairTable) fit() {
	n := len(p.c.Figures())
	if n == p.fitted {
		return
	}
	p.fitted = n
	for i, least := range pairTableWidths {
		col := compare.PairColumn(i)
		texts := append(p.c.LongestCells(col, 20), sortArrowWidest(compare.PairColumnTitles[col]))
		most := float32(160)
		if col == compare.PairName {
			most = 320
		}
		p.widths[i] = fitWidth(texts, least, most)
	}
	var seconds []string
	for _, d := range p.c.LongestCells(compare.PairDType, 3) {
		for _, s := range p.c.LongestCells(compare.PairShape, 3) {
			seconds = append(seconds, d+"  "+s)
		}
	}
	p.nameLines = max(p.widths[compare.PairName], fitWidth(seconds, 0, 320))
	p.applyWidths()
	p.width = 0 // choose wide or compact again at the next layout
}

// wideWidth is the width the table needs to show every column in full.
func (p *pairTable) wideWidth() float32 {
	var w float32
	for _, c := range p.widths {
		w += c + theme.Padding()
	}
	return w + theme.ScrollBarSize()
}

// applyWidths sets the widths of the columns shown.
func (p *pairTable) applyWidths() {
	for i, col := range p.columns() {
		w := p.widths[col]
		if p.compact && col == compare.PairName {
			w = float32(math.Ceil(float64(p.nameLines)))
		}
		p.table.SetColumnWidth(i, w)
	}
}

// rowsChanged follows a new filter, order or set of pairs: the selected
// pair stays selected in its new row.
func (p *pairTable) rowsChanged() {
	if p.fit(); p.width == 0 && p.content != nil {
		p.content.Refresh()
	}
	p.table.Table.UnselectAll()
	p.table.row = -1
	if row := p.c.SelectedRow(); row >= 0 {
		p.table.row = row
		p.table.Table.Select(widget.TableCellID{Row: row, Col: 0})
	}
	p.table.Refresh()
}

// pairTableLayout fills its space with the table, showing every column
// when they fit and dtype and shape under the name when they do not.
type pairTableLayout struct{ p *pairTable }

func (l *pairTableLayout) MinSize([]fyne.CanvasObject) fyne.Size { return l.p.table.MinSize() }

func (l *pairTableLayout) Layout(_ []fyne.CanvasObject, size fyne.Size) {
	p := l.p
	p.table.Move(fyne.NewPos(0, 0))
	p.table.Resize(size)
	if size.Width <= 0 || size.Width == p.width {
		return
	}
	p.width = size.Width
	if compact := size.Width < p.wideWidth(); compact != p.compact {
		p.compact = compact
		p.applyWidths()
		p.table.Refresh() // other columns, and rows of one or two lines
		if p.table.row >= 0 {
			p.table.ScrollTo(widget.TableCellID{Row: p.table.row, Col: 0})
		}
	}
}
