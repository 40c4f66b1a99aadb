package ui

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"tensorscope/viewmodel"
)

// openTab opens file in a document tab of a main window of the given size,
// as the viewer does, without choosing a tensor for it.
func openTab(t testing.TB, w, h float32, name string, file []byte) (*docTab, *viewmodel.Queue) {
	t.Helper()
	a := test.NewTempApp(t)
	q := viewmodel.NewQueue()
	d := openFixture(t, q, name, file)
	mw := NewMainWindow(a, Options{})
	t.Cleanup(mw.win.Close)
	dt := newPendingTab(mw, name)
	mw.docTabs = append(mw.docTabs, dt)
	mw.tabs.Append(dt.item)
	mw.showTabs()
	dt.setDoc(d)
	mw.win.Resize(fyne.NewSize(w, h))
	for _, item := range dt.panes.Items { // the Tensors pane (a model opens on its graph)
		if item.Text == "Tensors" {
			dt.panes.Select(item)
		}
	}
	settle(t, q, d)
	return dt, q
}

// inspectedName is the name of the tensor the inspector shows, and whether
// its row is the one selected in the list.
func inspectedName(dt *docTab) (string, bool) {
	in := dt.doc.Inspector
	if in.Entry() == nil {
		return "", false
	}
	p := dt.tensors
	return in.Entry().Name, p.table.row >= 0 && p.list.Index(p.table.row) == in.Index()
}

// TestManyTensorFileOpensOnItsFirstWeight opens a model of four tensors:
// its largest 2-D weight is shown, drawn and selected at once; a filter
// that hides it moves to the first weight of what is left.
func TestManyTensorFileOpensOnItsFirstWeight(t *testing.T) {
	dt, q := openTab(t, 1280, 820, "fixture.nn", nnFixture(t))
	name, selected := inspectedName(dt)
	if name != "layer0.weight" || !selected {
		t.Fatalf("opens on %q (row selected %v), want layer0.weight selected", name, selected)
	}
	if dt.doc.Inspector.Heatmap() == nil {
		t.Error("the first weight is not drawn")
	}
	dt.tensors.filter.SetText("layer1")
	settle(t, q, dt.doc)
	if name, selected := inspectedName(dt); name != "layer1.weight" || !selected {
		t.Errorf("filtered to layer1, shows %q (row selected %v), want layer1.weight selected", name, selected)
	}
	dt.tensors.filter.SetText("weight")
	settle(t, q, dt.doc)
	if name, selected := inspectedName(dt); name != "layer1.weight" || !selected {
		t.Errorf("a filter that still shows the inspected tensor moved to %q (row selected %v)", name, selected)
	}
}

// TestListKeysMoveTheSelectionFromTheFilterAndTheList presses Down, End,
// Home, PgDn and Up with the focus in the filter box and then in the list:
// each moves the selection, and the inspector follows.
func TestListKeysMoveTheSelectionFromTheFilterAndTheList(t *testing.T) {
	dt, q := openTab(t, 1280, 820, "fixture.nn", nnFixture(t))
	p := dt.tensors
	c := dt.mw.win.Canvas()
	steps := []struct {
		key  fyne.KeyName
		want string
	}{
		{fyne.KeyDown, "layer0.bias"},
		{fyne.KeyEnd, "layer1.bias"},
		{fyne.KeyHome, "layer0.weight"},
		{fyne.KeyPageDown, "layer1.bias"}, // four rows fit in a page many times
		{fyne.KeyUp, "layer1.weight"},
	}
	for _, focus := range []fyne.Focusable{p.filter, p.table} {
		p.table.Select(widget.TableCellID{Row: 0, Col: 0})
		settle(t, q, dt.doc)
		c.Focus(focus)
		for _, s := range steps {
			focus.TypedKey(&fyne.KeyEvent{Name: s.key})
			settle(t, q, dt.doc)
			if name, selected := inspectedName(dt); name != s.want || !selected {
				t.Errorf("focus in %T, after %s: shows %q (row selected %v), want %s", focus, s.key, name, selected, s.want)
			}
		}
	}
	if p.filter.Text != "" {
		t.Errorf("the keys typed %q into the filter", p.filter.Text)
	}
}

// TestTabGoesFromTheFilterToTheList: Tab from the filter box reaches the
// tensor list after the Tree box, not the inspector's controls.
func TestTabGoesFromTheFilterToTheList(t *testing.T) {
	dt, _ := openTab(t, 1280, 820, "fixture.nn", nnFixture(t))
	c := dt.mw.win.Canvas()
	c.Focus(dt.tensors.filter)
	for i := 0; i < 2; i++ {
		c.FocusNext()
		if c.Focused() == dt.tensors.table {
			return
		}
	}
	t.Errorf("two Tabs from the filter box focus a %T, not the tensor list", c.Focused())
}

// TestClickingARowFocusesTheList clicks a row with the focus in the filter:
// the list takes the focus (of its own window), so the arrow keys then
// step through it. A second window is opened after the viewer's, as Fyne's
// test driver hands the newest window's canvas to widgets that ask the
// driver for theirs, as Table does, and the real driver hands them none.
func TestClickingARowFocusesTheList(t *testing.T) {
	dt, _ := openTab(t, 1280, 820, "fixture.nn", nnFixture(t))
	c := dt.mw.win.Canvas()
	c.Focus(dt.tensors.filter)
	test.NewTempWindow(t, widget.NewLabel("another window"))
	table := dt.tensors.table
	rowHeight := table.CreateCell().MinSize().Height
	test.TapAt(table, fyne.NewPos(20, 2.5*rowHeight)) // below the header: the second row
	if c.Focused() != table {
		t.Fatalf("after a click on a row the focus is in a %T, not the list", c.Focused())
	}
	if name, _ := inspectedName(dt); name != "layer0.bias" {
		t.Errorf("the click inspected %q, want layer0.bias", name)
	}
}
