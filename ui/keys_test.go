package ui

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"tensorscope/formats"
	"tensorscope/viewmodel"
)

// TestArrowKeysMoveTheTensorSelection focuses the tensor list and presses
// Down and Up: each selects a row and inspects its tensor.
func TestArrowKeysMoveTheTensorSelection(t *testing.T) {
	test.NewTempApp(t)
	q := viewmodel.NewQueue()
	d := openFixture(t, q, "fixture.tsr", tsrFixture(t))
	win := goldenWindow(t, nil, 1200, 720)
	p := newTensorPane(win, d)
	win.SetContent(p.content)
	p.table.Select(widget.TableCellID{Row: 0, Col: 0})
	settle(t, q, d)
	win.Canvas().Focus(p.table)
	p.table.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown})
	settle(t, q, d)
	if got := d.Inspector.Index(); got != p.list.Index(1) {
		t.Fatalf("after Down the inspector shows tensor %d, want %d", got, p.list.Index(1))
	}
	p.table.TypedKey(&fyne.KeyEvent{Name: fyne.KeyUp})
	settle(t, q, d)
	if got := d.Inspector.Index(); got != p.list.Index(0) {
		t.Fatalf("after Up the inspector shows tensor %d, want %d", got, p.list.Index(0))
	}
}

// TestWindowKeysReachTheWindowFromFocusedWidgets types F5 and Escape into
// the focused filter box and the tensor list: both reach the window's key
// handler, other keys stay with the widget.
func TestWindowKeysReachTheWindowFromFocusedWidgets(t *testing.T) {
	test.NewTempApp(t)
	q := viewmodel.NewQueue()
	d := openFixture(t, q, "fixture.tsr", tsrFixture(t))
	win := goldenWindow(t, nil, 1200, 720)
	p := newTensorPane(win, d)
	win.SetContent(p.content)
	var got []fyne.KeyName
	win.Canvas().SetOnTypedKey(func(ev *fyne.KeyEvent) { got = append(got, ev.Name) })
	for _, w := range []fyne.Focusable{p.filter, p.table} {
		win.Canvas().Focus(w)
		for _, k := range []fyne.KeyName{fyne.KeyF5, fyne.KeyEscape, fyne.KeyLeft} {
			w.TypedKey(&fyne.KeyEvent{Name: k})
		}
	}
	want := []fyne.KeyName{fyne.KeyF5, fyne.KeyEscape, fyne.KeyF5, fyne.KeyEscape}
	if len(got) != len(want) {
		t.Fatalf("the window got keys %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("the window got keys %v, want %v", got, want)
		}
	}
}

// TestErrorsShareOneDialogThatEscapeCloses reports three errors: one
// dialog lists them all, and Escape closes it.
func TestErrorsShareOneDialogThatEscapeCloses(t *testing.T) {
	test.NewTempApp(t)
	win := goldenWindow(t, widget.NewLabel("x"), 800, 600)
	for _, msg := range []string{"first", "second", "third"} {
		showError(errors.New(msg), win)
	}
	if n := len(win.Canvas().Overlays().List()); n != 1 {
		t.Fatalf("%d dialogs open after three errors, want 1", n)
	}
	text := dialogText(win)
	for _, want := range []string{"3 errors, the newest first:", "third\n\nsecond\n\nfirst"} {
		if !strings.Contains(text, want) {
			t.Errorf("the dialog lacks %q:\n%s", want, text)
		}
	}
	closeTopDialog(win)
	if n := len(win.Canvas().Overlays().List()); n != 0 {
		t.Fatalf("%d dialogs open after Escape", n)
	}
	showError(errors.New("later"), win)
	if text := dialogText(win); strings.Contains(text, "first") {
		t.Errorf("a new dialog repeats errors the user closed:\n%s", text)
	}
}

// dialogText is the text of the labels in the pop-up on top of win.
func dialogText(win fyne.Window) string {
	var b strings.Builder
	for _, o := range test.LaidOutObjects(win.Canvas().Overlays().Top()) {
		if l, ok := o.(*widget.Label); ok {
			b.WriteString(l.Text + "\n")
		}
	}
	return b.String()
}

// TestHexViewScrollsWithKeysAndWheel pages and wheels through the header
// pane's hex view of a file longer than the view.
func TestHexViewScrollsWithKeysAndWheel(t *testing.T) {
	test.NewTempApp(t)
	q := viewmodel.NewQueue()
	d := openFixture(t, q, "fixture.tsr", tsrFixture(t))
	pane := newHeaderPane(nil, d)
	goldenWindow(t, pane, 900, 620)
	var hex *hexView
	for _, o := range test.LaidOutObjects(pane) {
		if h, ok := o.(*hexView); ok {
			hex = h
		}
	}
	if hex == nil {
		t.Fatal("no hex view in the header pane")
	}
	rows := int64(d.Header.VisibleRows())
	hex.TypedKey(&fyne.KeyEvent{Name: fyne.KeyPageDown})
	if got := d.Header.Top(); got != rows-1 {
		t.Errorf("after PgDn the top row is %d, want %d", got, rows-1)
	}
	hex.Scrolled(&fyne.ScrollEvent{Scrolled: fyne.NewDelta(0, -3*hex.cellSize().Height)})
	if got := d.Header.Top(); got != rows+2 {
		t.Errorf("after a wheel step of three rows the top row is %d, want %d", got, rows+2)
	}
	first := hex.grid.Row(0)
	if !strings.HasPrefix(string(rowText(first)), fmt.Sprintf("%08x", (rows+2)*16)) {
		t.Errorf("the grid's first line %q does not show row %d", rowText(first), rows+2)
	}
	hex.TypedKey(&fyne.KeyEvent{Name: fyne.KeyHome})
	if d.Header.Top() != 0 {
		t.Errorf("Home left the top row at %d", d.Header.Top())
	}
}

func rowText(r widget.TextGridRow) []rune {
	out := make([]rune, len(r.Cells))
	for i, c := range r.Cells {
		out[i] = c.Rune
	}
	return out
}

// TestWarningsStripListsWarningsAndCanBeDismissed gives a document five
// warnings: the strip lists the first three, offers all five, and its
// close button hides it, leaving its place to what was below it.
func TestWarningsStripListsWarningsAndCanBeDismissed(t *testing.T) {
	test.NewTempApp(t)
	q := viewmodel.NewQueue()
	d := openFixture(t, q, "fixture.tsr", tsrFixture(t))
	for i := 0; i < 5; i++ {
		d.Doc.Warnings = append(d.Doc.Warnings, formats.Warning{Offset: int64(i), Message: fmt.Sprintf("odd byte %d", i)})
	}
	var content *fyne.Container
	strip := warningsStrip(nil, d, func() { content.Refresh() })
	below := widget.NewLabel("panes")
	content = container.NewBorder(strip, nil, nil, nil, below)
	goldenWindow(t, content, 900, 300)
	var text strings.Builder
	var closeButton, showAll *widget.Button
	for _, o := range test.LaidOutObjects(strip) {
		switch w := o.(type) {
		case *widget.Label:
			text.WriteString(w.Text + "\n")
		case *widget.Button:
			if w.Text == "" {
				closeButton = w
			} else {
				showAll = w
			}
		}
	}
	for i := 0; i < 3; i++ {
		if !strings.Contains(text.String(), fmt.Sprintf("odd byte %d", i)) {
			t.Errorf("the strip does not list warning %d:\n%s", i, text.String())
		}
	}
	if showAll == nil || showAll.Text != "Show all 5" {
		t.Errorf("no Show all 5 button: %v", showAll)
	}
	if closeButton == nil {
		t.Fatal("no close button")
	}
	test.Tap(closeButton)
	if strip.Visible() {
		t.Error("the strip is still shown after its close button")
	}
	if y := below.Position().Y; y != 0 {
		t.Errorf("after the strip closed, what was below it stays %.0f px down", y)
	}
}
