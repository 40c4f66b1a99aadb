package ui

import (
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"

	"tensorscope/viewmodel"
)

// TestComparisonTabsAreTabs opens a document tab, a comparison and a second
// document: Ctrl+Tab reaches the comparison and the tab after it, the
// window's title follows, F5 on the comparison says it reloaded, and
// Ctrl+W closes the comparison.
func TestComparisonTabsAreTabs(t *testing.T) {
	dt, q := openTab(t, 1280, 820, "fixture.nn", nnFixture(t))
	mw := dt.mw
	mw.post = q.Post // the comparison's work and the status timer report through q
	mw.Compare(viewmodel.Source{Name: "v1.tmfile", Data: compareModel(t, 1)}, viewmodel.Source{Name: "v2.tmfile", Data: compareModel(t, 2)})
	second := newPendingTab(mw, "fixture.tsr")
	mw.docTabs = append(mw.docTabs, second)
	mw.tabs.Append(second.item)
	second.setDoc(openFixture(t, q, "fixture.tsr", tsrFixture(t)))
	mw.tabs.SelectIndex(0)
	mw.updateTitle()
	c := mw.win.Canvas()
	var titles []string
	for i := 0; i < 3; i++ {
		c.(interface {
			TypedShortcut(fyne.Shortcut)
		}).TypedShortcut(shortcutNextTab)
		titles = append(titles, mw.win.Title())
	}
	want := []string{"v1.tmfile vs v2.tmfile — Tensorscope", "fixture.tsr — Tensorscope", "fixture.nn — Tensorscope"}
	if strings.Join(titles, "|") != strings.Join(want, "|") {
		t.Errorf("the titles after each Ctrl+Tab are %q, want %q", titles, want)
	}
	mw.cycleTab(1) // the comparison
	if mw.compareOf(mw.tabs.Selected()) == nil {
		t.Fatalf("the comparison is not selected: %q", mw.win.Title())
	}
	statusFlash = 50 * time.Millisecond
	mw.typedKey(&fyne.KeyEvent{Name: fyne.KeyF5})
	if !mw.status.Visible() || !strings.HasPrefix(mw.status.Text, "Reloaded ") {
		t.Errorf("after F5 on the comparison the status line reads %q (shown %v)", mw.status.Text, mw.status.Visible())
	}
	deadline := time.Now().Add(5 * time.Second)
	for mw.status.Visible() && time.Now().Before(deadline) {
		q.Drain(func() bool { return false }, 20*time.Millisecond)
		time.Sleep(10 * time.Millisecond)
	}
	if mw.status.Visible() {
		t.Errorf("the status line still reads %q", mw.status.Text)
	}
	c.(interface {
		TypedShortcut(fyne.Shortcut)
	}).TypedShortcut(shortcutClose)
	if len(mw.compares) != 0 || len(mw.tabs.Items) != 2 {
		t.Errorf("after Ctrl+W on the comparison %d comparisons and %d tabs are left", len(mw.compares), len(mw.tabs.Items))
	}
}

// Ctrl+PgDn and Ctrl+PgUp go round a document's panes, Ctrl+Shift+PgDn
// and Ctrl+Shift+PgUp round the inspector's views (from another pane they
// show the Tensors pane first): Fyne's tab bars take no keyboard focus.
func TestPanesAndViewsByKeyboard(t *testing.T) {
	dt, _ := openTab(t, 1280, 820, "fixture.nn", nnFixture(t))
	mw := dt.mw
	press := func(s fyne.Shortcut) {
		mw.win.Canvas().(interface{ TypedShortcut(fyne.Shortcut) }).TypedShortcut(s)
	}
	n := len(dt.panes.Items)
	start := dt.panes.Selected()
	var panes []string
	for range n {
		press(shortcutNextPane)
		panes = append(panes, dt.panes.Selected().Text)
	}
	if dt.panes.Selected() != start || n < 3 || len(slices.Compact(slices.Clone(panes))) != n {
		t.Errorf("Ctrl+PgDn %d times went %q, not round the %d panes back to %q", n, panes, n, start.Text)
	}
	press(shortcutPrevPane)
	if want := dt.panes.Items[(slices.Index(dt.panes.Items, start)+n-1)%n]; dt.panes.Selected() != want {
		t.Errorf("Ctrl+PgUp selected %q, want %q", dt.panes.Selected().Text, want.Text)
	}
	if dt.panes.Selected() == dt.tensorsAt {
		press(shortcutNextPane)
	}
	press(shortcutNextView)
	if dt.panes.Selected() != dt.tensorsAt {
		t.Fatalf("Ctrl+Shift+PgDn from %q did not show the Tensors pane", dt.panes.Selected().Text)
	}
	views := dt.tensors.inspector.tabs
	m, first := len(views.Items), views.SelectedIndex()
	press(shortcutNextView)
	if got := views.SelectedIndex(); got != (first+1)%m {
		t.Errorf("Ctrl+Shift+PgDn: view %d, want %d", got, (first+1)%m)
	}
	press(shortcutPrevView)
	press(shortcutPrevView)
	if got, want := views.SelectedIndex(), (first-1+m)%m; got != want {
		t.Errorf("Ctrl+Shift+PgUp twice: view %d, want %d", got, want)
	}
}
