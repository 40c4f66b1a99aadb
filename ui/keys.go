package ui

import (
	"fyne.io/fyne/v2"
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

// keyEntry is an Entry that passes the window's keys on.
type keyEntry struct {
	widget.Entry
	global globalKeyHandler
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
	e.Entry.TypedKey(ev)
}

// keyTable is a Table whose Up and Down keys move the selection (Fyne's
// move only a focus highlight, and Space selects) and that passes the
// window's keys on.
type keyTable struct {
	widget.Table
	global globalKeyHandler
}

func newKeyTable(global globalKeyHandler, length func() (int, int), create func() fyne.CanvasObject,
	update func(widget.TableCellID, fyne.CanvasObject)) *keyTable {
	t := &keyTable{global: global}
	t.Length, t.CreateCell, t.UpdateCell = length, create, update
	t.ShowHeaderRow, t.ShowHeaderColumn = true, true
	t.ExtendBaseWidget(t)
	return t
}

// TypedKey implements fyne.Focusable.
func (t *keyTable) TypedKey(ev *fyne.KeyEvent) {
	if t.global != nil && t.global(ev) {
		return
	}
	t.Table.TypedKey(ev)
	switch ev.Name {
	case fyne.KeyUp, fyne.KeyDown:
		t.Table.TypedKey(&fyne.KeyEvent{Name: fyne.KeySpace}) // select the row the focus moved to
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
