package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// Keys without a modifier (F5, Escape) are not shortcuts to Fyne: they go
// to the focused widget, or to the canvas when nothing has the focus. The
// window's own handler (globalKeys) is installed on the canvas; the widgets
// below that take the focus hand it the keys they do not use, so those keys
// work whatever has the focus.

// globalKeyHandler handles a key for the whole window; it reports whether
// it used the key.
type globalKeyHandler func(*fyne.KeyEvent) bool

// keyEntry is an Entry that passes the window's keys on, and the keys
// that move through a list (nav) to that list.
type keyEntry struct {
	widget.Entry
	global globalKeyHandler
	// nav, when set, is offered every key first: the filter box of a list
	// hands it Up, Down, PgUp, PgDn, Home and End.
	nav func(*fyne.KeyEvent) bool
}

func newKeyEntry(global globalKeyHandler) *keyEntry {
	e := &keyEntry{global: global}
	e.ExtendBaseWidget(e)
	return e
}

// TypedKey implements fyne.Focusable.
func (e *keyEntry) TypedKey(ev *fyne.KeyEvent) {
	if e.global != nil && e.global(ev) {
		return
	}
	if e.nav != nil && e.nav(ev) {
		return
	}
	e.Entry.TypedKey(ev)
}

// keyTable is a Table of rows whose Up, Down, PgUp, PgDn, Home and End keys
// move the selection (Fyne's move only a focus highlight, and Space
// selects), that takes the focus when clicked, and that passes the
// window's keys on.
type keyTable struct {
	widget.Table
	global globalKeyHandler
	win    fyne.Window
	row    int  // the selected row, -1 for none
	byKey  bool // the selection being made comes from a key

	// OnRowSelected is called when a row is selected, by a click, a key
	// (byKey) or Select.
	OnRowSelected func(row int, byKey bool)
}

func newKeyTable(win fyne.Window, length func() (int, int), create func() fyne.CanvasObject,
	update func(widget.TableCellID, fyne.CanvasObject)) *keyTable {
	t := &keyTable{global: windowKeys(win), win: win, row: -1}
	t.Length, t.CreateCell, t.UpdateCell = length, create, update
	t.ShowHeaderRow, t.ShowHeaderColumn = true, true
	t.Table.OnSelected = func(id widget.TableCellID) {
		t.row = id.Row
		if t.OnRowSelected != nil {
			t.OnRowSelected(id.Row, t.byKey)
		}
	}
	t.ExtendBaseWidget(t)
	return t
}

// TypedKey implements fyne.Focusable.
func (t *keyTable) TypedKey(ev *fyne.KeyEvent) {
	if t.global != nil && t.global(ev) {
		return
	}
	if t.navigate(ev) {
		return
	}
	t.Table.TypedKey(ev)
}

// navigate moves the selection for Up, Down, PgUp, PgDn, Home and End and
// reports whether the key was one of them.
func (t *keyTable) navigate(ev *fyne.KeyEvent) bool {
	rows, _ := t.Length()
	next := t.row
	switch ev.Name {
	case fyne.KeyUp:
		next--
	case fyne.KeyDown:
		next++
	case fyne.KeyPageUp:
		next -= t.pageRows()
	case fyne.KeyPageDown:
		next += t.pageRows()
	case fyne.KeyHome:
		next = 0
	case fyne.KeyEnd:
		next = rows - 1
	default:
		return false
	}
	if t.row < 0 && ev.Name != fyne.KeyEnd {
		next = 0 // from no selection, every key but End starts at the top
	}
	next = min(max(next, 0), rows-1)
	if next >= 0 && next != t.row {
		t.byKey = true
		t.Select(widget.TableCellID{Row: next, Col: 0})
		t.byKey = false
	}
	return true
}

// pageRows is how many rows PgUp and PgDn move: a screenful less one.
func (t *keyTable) pageRows() int {
	h := t.CreateCell().MinSize().Height + theme.SeparatorThicknessSize()
	return max(1, int(t.Size().Height/h)-2)
}

// UnselectAll clears the selection.
func (t *keyTable) UnselectAll() {
	t.row = -1
	t.Table.UnselectAll()
}

// Tapped selects the row clicked and takes the focus, so that the keys
// then move through the list. Fyne's Table asks the driver for its canvas
// by the embedded *widget.Table, which the driver does not know (it knows
// the keyTable), and so never took the focus. A click on the row selected
// already (a group row reached with the keys) is reported again, so that
// it acts as a click.
func (t *keyTable) Tapped(e *fyne.PointEvent) {
	before := t.row
	t.Table.Tapped(e)
	if t.row == before && before >= 0 && t.OnRowSelected != nil {
		t.OnRowSelected(before, false)
	}
	if t.win != nil {
		t.win.Canvas().Focus(t)
	}
}

// windowKeys hands F5 and Escape to win's canvas handler (see
// MainWindow.typedKey); other keys stay with the widget.
func windowKeys(win fyne.Window) globalKeyHandler {
	return func(ev *fyne.KeyEvent) bool {
		if win == nil || (ev.Name != fyne.KeyF5 && ev.Name != fyne.KeyEscape) {
			return false
		}
		f := win.Canvas().OnTypedKey()
		if f == nil {
			return false
		}
		f(ev)
		return true
	}
}
