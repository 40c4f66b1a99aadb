package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"tensorscope/viewmodel"
	"tensorscope/viewmodel/compare"
)

// openComparison opens a comparison of compareModel's two versions in a
// main window of the given size and waits for its figures.
func openComparison(t *testing.T, w, h float32) (*compareTab, *viewmodel.Queue) {
	t.Helper()
	dt, q := openTab(t, w, h, "fixture.nn", nnFixture(t))
	mw := dt.mw
	mw.post = q.Post
	mw.Compare(viewmodel.Source{Name: "v1.tmfile", Data: compareModel(t, 1)}, viewmodel.Source{Name: "v2.tmfile", Data: compareModel(t, 2)})
	tab := mw.compareOf(mw.tabs.Selected())
	if tab == nil {
		t.Fatal("no comparison tab")
	}
	settleComparison(t, q, tab.c)
	mw.win.Resize(fyne.NewSize(w, h))
	return tab, q
}

func pairNames(c *compare.Comparison) string {
	var out []string
	for i := 0; i < c.Rows(); i++ {
		out = append(out, c.Cell(i, compare.PairName))
	}
	return strings.Join(out, " ")
}

// TestComparisonTableShowsEveryColumnAt1024: in a 1024×700 window the
// table of pairs shows every figure of diff, each column as wide as its
// texts, side by side within the table (dtype and shape go under the name
// where they would not fit), and so at 1600×1000.
func TestComparisonTableShowsEveryColumnAt1024(t *testing.T) {
	for _, size := range []fyne.Size{{Width: 1024, Height: 700}, {Width: 1600, Height: 1000}} {
		tab, _ := openComparison(t, size.Width, size.Height)
		p := tab.table
		var total float32
		for _, col := range p.columns() {
			total += fitWidth(append(tab.c.LongestCells(col, 20), compare.PairColumnTitles[col]), 0, 1000)
		}
		if got := p.table.Size().Width; got < total {
			t.Errorf("%v: the table is %.0f pixels wide; its columns need %.0f", size, got, total)
		}
		if len(p.columns()) < len(compare.PairColumns)-2 {
			t.Errorf("%v: %d columns", size, len(p.columns()))
		}
		if h := p.table.Size().Height; h < 3*p.table.CreateCell().MinSize().Height {
			t.Errorf("%v: the table is %.0f pixels tall: fewer than three rows", size, h)
		}
	}
}

// TestComparisonTableSortsByHeaderAndKeys clicks the cosine header (the
// least similar first, then reversed), moves the selection with the keys
// from the filter box and the table, and sorts from the keyboard: Tab
// reaches the headers, Space sorts.
func TestComparisonTableSortsByHeaderAndKeys(t *testing.T) {
	tab, q := openComparison(t, 1280, 820)
	c, table := tab.c, tab.table.table
	win := tab.mw.win
	if got := pairNames(c); got != "conv.weight fc.weight" {
		t.Fatalf("default order %q", got)
	}
	header := headerButton(t, win, "cosine")
	test.Tap(header)
	if got := pairNames(c); got != "conv.weight fc.weight" || header.Text != "cosine ▲" {
		t.Errorf("after a click on cosine: %q, header %q", got, header.Text)
	}
	test.Tap(header)
	if got := pairNames(c); got != "fc.weight conv.weight" || header.Text != "cosine ▼" {
		t.Errorf("after a second click on cosine: %q, header %q", got, header.Text)
	}

	canvas := win.Canvas()
	canvas.Focus(tab.filter)
	tab.filter.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown})
	settleComparison(t, q, c)
	if p := c.Pair(); p == nil || p.Name() != "fc.weight" {
		t.Fatalf("Down in the filter box selected %v, want fc.weight (the first row)", p)
	}
	canvas.Focus(table)
	table.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEnd})
	settleComparison(t, q, c)
	if p := c.Pair(); p == nil || p.Name() != "conv.weight" {
		t.Fatalf("End in the table selected %v, want conv.weight", p)
	}

	// From the table, Tab reaches the headers; Space on max_abs sorts by it
	// (the largest first) and the selected pair keeps its selection.
	var focused *widget.Button
	for i := 0; i < 30 && focused == nil; i++ {
		canvas.FocusNext()
		if b, ok := canvas.Focused().(*widget.Button); ok && strings.HasPrefix(b.Text, "max_abs") {
			focused = b
		}
	}
	if focused == nil {
		t.Fatal("Tab from the table never reached the max_abs header")
	}
	focused.TypedKey(&fyne.KeyEvent{Name: fyne.KeySpace})
	if got := pairNames(c); got != "conv.weight fc.weight" || focused.Text != "max_abs ▼" {
		t.Errorf("Space on max_abs: %q, header %q", got, focused.Text)
	}
	if table.row != 0 || c.SelectedRow() != 0 {
		t.Errorf("after sorting the selected pair conv.weight is row %d (table %d), want 0", c.SelectedRow(), table.row)
	}
}

// headerButton finds the header of the column titled title.
func headerButton(t *testing.T, win fyne.Window, title string) *widget.Button {
	t.Helper()
	var found *widget.Button
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		if found != nil || o == nil || !o.Visible() {
			return
		}
		if b, ok := o.(*widget.Button); ok && strings.TrimRight(strings.TrimSuffix(strings.TrimSuffix(b.Text, " ▲"), " ▼"), " ") == title {
			found = b
			return
		}
		switch x := o.(type) {
		case *fyne.Container:
			for _, c := range x.Objects {
				walk(c)
			}
		case fyne.Widget:
			for _, c := range test.WidgetRenderer(x).Objects() {
				walk(c)
			}
		}
	}
	walk(win.Content())
	if found == nil {
		t.Fatalf("no header %q", title)
	}
	return found
}
