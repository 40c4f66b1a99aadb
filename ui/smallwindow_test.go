package ui

import (
	"bytes"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"

	"tensorscope/formats/tsr"
	"tensorscope/tensor"
	"tensorscope/viewmodel"
)

// smallWindowTab opens the fixture in a document tab of a main window of
// the given size, with its 16×24 tensor ([1,1,16,24] in the file, with NaN
// and Inf, so the alert shows too) inspected.
func smallWindowTab(t *testing.T, w, h float32) (*docTab, *viewmodel.Queue) {
	t.Helper()
	dt, q := windowTab(t, w, h, tsrFixture(t))
	if rows, cols := dt.doc.Inspector.PlaneSize(); rows != 16 || cols != 24 {
		t.Fatalf("showing a %d×%d plane, want the 16×24 tensor", rows, cols)
	}
	return dt, q
}

// windowTab opens a TSR file in a document tab of a main window of the
// given size, with its first tensor inspected.
func windowTab(t *testing.T, w, h float32, file []byte) (*docTab, *viewmodel.Queue) {
	t.Helper()
	a := test.NewTempApp(t)
	q := viewmodel.NewQueue()
	d := openFixture(t, q, "fixture.tsr", file)
	mw := NewMainWindow(a, Options{})
	t.Cleanup(mw.win.Close)
	dt := newPendingTab(mw, "fixture.tsr")
	mw.docTabs = append(mw.docTabs, dt)
	mw.tabs.Append(dt.item)
	mw.showTabs()
	dt.setDoc(d)
	mw.win.Resize(fyne.NewSize(w, h))
	dt.inspectTensor(0)
	settle(t, q, d)
	return dt, q
}

// TestSmallWindowKeepsHalfTheInspectorForTheHeatmap lays a document tab
// out in a 1024×700 window: the heatmap gets at least half the
// inspector's height, and no control is pushed out of it.
func TestSmallWindowKeepsHalfTheInspectorForTheHeatmap(t *testing.T) {
	dt, _ := smallWindowTab(t, 1024, 700)
	v := dt.tensors.inspector
	inspector := v.content.Size().Height
	heat := v.heatArea.Size().Height
	t.Logf("inspector %.0f px high, heatmap %.0f px (%.0f%%)", inspector, heat, 100*heat/inspector)
	if heat < inspector/2 {
		t.Errorf("the heatmap is %.0f px high, less than half the inspector's %.0f px", heat, inspector)
	}
	assertInside(t, v.content, v.content)
}

// A 4-D weight seen as planes at 1024×700 has a slider for each of its
// other two axes, side by side on one row, nothing squeezed, and still
// half the inspector for the heatmap. The real window's menu bar, which
// the test driver does not draw, takes 28 of its 700 pixels: the test
// window is that much shorter.
func TestSmallWindowPutsTwoSlidersOnOneRow(t *testing.T) {
	w := float32Tensor(t, []int{32, 16, 3, 3}, func(i int) float32 { return float32(i%17) / 17 })
	var file bytes.Buffer
	if err := tsr.EncodeV4(&file, []*tensor.Tensor{w}, tsr.RAW); err != nil {
		t.Fatal(err)
	}
	dt, q := windowTab(t, 1024, 700-28, file.Bytes())
	v := dt.tensors.inspector
	if err := dt.doc.Inspector.SetExpr("w"); err != nil { // planes, not the mosaic
		t.Fatal(err)
	}
	settle(t, q, dt.doc)
	if n := len(v.sliders.Objects); n != 2 {
		t.Fatalf("%d sliders, want one for each of the two axes not drawn", n)
	}
	a, b := v.sliders.Objects[0], v.sliders.Objects[1]
	if a.Position().Y != b.Position().Y || a.Position().X+a.Size().Width > b.Position().X {
		t.Errorf("sliders at %v and %v, not side by side", a.Position(), b.Position())
	}
	inspector, heat := v.content.Size().Height, v.heatArea.Size().Height
	t.Logf("inspector %.0f px high, heatmap %.0f px (%.0f%%)", inspector, heat, 100*heat/inspector)
	if heat < inspector/2 {
		t.Errorf("the heatmap is %.0f px high, less than half the inspector's %.0f px", heat, inspector)
	}
	assertInside(t, v.content, v.content)
}

// A short inspector folds the name, the statistics and the choices into
// one row, the choices into a menu that acts as they do; a tall one
// unfolds them.
func TestTitleBarFoldsInAShortInspector(t *testing.T) {
	dt, q := smallWindowTab(t, 1024, 700)
	v := dt.tensors.inspector
	b := v.titleBar
	if !b.compact || shownIn(v.content, v.pin) || !shownIn(v.content, b.more) {
		t.Fatalf("at 1024×700: folded %v, Pin shown %v, menu shown %v", b.compact, shownIn(v.content, v.pin), shownIn(v.content, b.more))
	}
	if y0, y1 := v.title.Position().Y, v.stats.content.Position().Y; y0 != y1 {
		t.Errorf("name at y=%.0f, statistics at y=%.0f: not one row", y0, y1)
	}
	items := b.menuItems()
	var pin *fyne.MenuItem
	for _, it := range items {
		if it.Label == v.pin.Text {
			pin = it
		}
	}
	if pin == nil || pin.Checked {
		t.Fatalf("menu %v: want an unchecked %q", items, v.pin.Text)
	}
	pin.Action()
	settle(t, q, dt.doc)
	if !dt.doc.Inspector.Pinned() || !v.pin.Checked {
		t.Error("the menu's Pin settings did not pin them")
	}
	dt.mw.win.Resize(fyne.NewSize(1600, 1000))
	if b.compact || !shownIn(v.content, v.pin) || shownIn(v.content, b.more) {
		t.Errorf("at 1600×1000: folded %v, Pin shown %v, menu shown %v", b.compact, shownIn(v.content, v.pin), shownIn(v.content, b.more))
	}
}

// assertInside fails when outer does not lie within its window, which must
// be at most 1024×700, or o's visible descendants (through containers and
// the selected tab) do not lie within outer or are squeezed below their
// minimum size.
func assertInside(t *testing.T, outer, o fyne.CanvasObject) {
	t.Helper()
	d := fyne.CurrentApp().Driver()
	top := d.AbsolutePositionForObject(outer)
	bottom := top.Add(outer.Size())
	// A window does not get smaller than its content's minimum size: one
	// larger than asked for would run off a small screen.
	if window := d.CanvasForObject(outer).Size(); window.Width > 1024 || window.Height > 700 || bottom.X > window.Width+0.5 || bottom.Y > window.Height+0.5 {
		t.Errorf("the inspector ends at %v in a %v window", bottom, window)
	}
	var walk func(fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		if !o.Visible() {
			return
		}
		at := d.AbsolutePositionForObject(o)
		end := at.Add(o.Size())
		if at.X < top.X-0.5 || at.Y < top.Y-0.5 || end.X > bottom.X+0.5 || end.Y > bottom.Y+0.5 {
			t.Errorf("%T at %v–%v lies outside the inspector %v–%v", o, at, end, top, bottom)
			return
		}
		// Layouts squeeze what does not fit below its minimum size.
		if size, least := o.Size(), o.MinSize(); size.Width < least.Width-0.5 || size.Height < least.Height-0.5 {
			t.Errorf("%T at %v is %v, less than its minimum %v", o, at, size, least)
		}
		switch x := o.(type) {
		case *fyne.Container:
			for _, child := range x.Objects {
				walk(child)
			}
		case *container.AppTabs:
			if sel := x.Selected(); sel != nil {
				walk(sel.Content)
			}
		}
	}
	walk(o)
}

// TestToolbarsShowOnlyControlsForTheViewShown: the colour map and range
// and the plane's controls show with the heatmap only, not with a
// vector's plot or on the histogram's tab; the expression box shows on
// every tab of values.
func TestToolbarsShowOnlyControlsForTheViewShown(t *testing.T) {
	test.NewTempApp(t)
	q := viewmodel.NewQueue()
	d := openFixture(t, q, "fixture.nn", nnFixture(t))
	win := goldenWindow(t, nil, 1024, 700)
	p := newTensorPane(win, d)
	win.SetContent(p.content)
	v := p.inspector
	heatmapControls := map[string]fyne.CanvasObject{"Colours": v.cmapSel, "Range": v.rangeSel,
		"Rows": v.rowSel, "Reduce": v.redSel}
	expect := func(view string, shown bool, controls map[string]fyne.CanvasObject) {
		t.Helper()
		for name, c := range controls {
			if got := shownIn(v.content, c); got != shown {
				t.Errorf("%s: %s shown %v, want %v", view, name, got, shown)
			}
		}
	}
	entry := map[string]fyne.CanvasObject{"the expression box": v.expr.entry}

	p.inspector.show(0) // layer0.weight, 4×8
	settle(t, q, d)
	expect("a matrix's heatmap", true, heatmapControls)
	expect("a matrix's heatmap", true, entry)

	v.tabs.SelectIndex(1)
	settle(t, q, d)
	expect("the histogram", false, heatmapControls)
	expect("the histogram", true, map[string]fyne.CanvasObject{"Bins": v.binsSel})
	expect("the histogram", true, entry)
	v.tabs.SelectIndex(2)
	expect("the values", true, entry)
	v.tabs.SelectIndex(3)
	expect("the facts", false, entry)

	v.tabs.SelectIndex(0)
	p.inspector.show(1) // layer0.bias, a vector
	settle(t, q, d)
	if !d.Inspector.ShowsLinePlot() {
		t.Fatal("the vector is not shown as a plot")
	}
	expect("a vector's plot", false, heatmapControls)
	expect("a vector's plot", true, entry)

	test.Tap(v.vectorAsMap)
	settle(t, q, d)
	expect("a vector's heatmap", true, heatmapControls)
}

// shownIn reports whether o is drawn within root: it and every container
// and selected tab on the way to it are visible.
func shownIn(root, o fyne.CanvasObject) bool {
	if !root.Visible() {
		return false
	}
	if root == o {
		return true
	}
	switch x := root.(type) {
	case *fyne.Container:
		for _, c := range x.Objects {
			if shownIn(c, o) {
				return true
			}
		}
	case *container.AppTabs:
		if sel := x.Selected(); sel != nil {
			return shownIn(sel.Content, o)
		}
	}
	return false
}

// The statistics take one line; the details button shows them in full,
// and hides them again.
func TestStatsLineShowsDetailsOnRequest(t *testing.T) {
	dt, _ := smallWindowTab(t, 1024, 700)
	s := dt.tensors.inspector.stats
	if !s.line.Visible() || s.full.Visible() {
		t.Fatal("the statistics do not open on one line")
	}
	if !strings.Contains(s.line.Text, s.summary.Text) || !strings.Contains(s.line.Text, s.pcts.Text) ||
		s.summary.Text == "" || s.pcts.Text == "" {
		t.Errorf("the line %q lacks the summary %q or the percentiles %q", s.line.Text, s.summary.Text, s.pcts.Text)
	}
	if !s.alert.Visible() || !strings.Contains(s.alert.Text, "NaN") {
		t.Errorf("alert %q (shown %v), want the NaN count", s.alert.Text, s.alert.Visible())
	}
	before := s.content.Size().Height
	test.Tap(s.details)
	if s.line.Visible() || !s.full.Visible() {
		t.Fatal("details do not show the statistics in full")
	}
	if after := s.content.Size().Height; after <= before {
		t.Errorf("with details the statistics are %.0f px high, on one line %.0f", after, before)
	}
	test.Tap(s.details)
	if !s.line.Visible() || s.full.Visible() {
		t.Fatal("details do not close")
	}
}

// An integer histogram of one bin per value has no bin count to choose;
// binned again (the current plane's histogram), it has.
func TestBinCountShowsOnlyWhenItApplies(t *testing.T) {
	test.NewTempApp(t)
	q := viewmodel.NewQueue()
	d := openFixture(t, q, "labels.tsr", labelsFixture(t))
	win := goldenWindow(t, nil, 1024, 700)
	p := newTensorPane(win, d)
	win.SetContent(p.content)
	v := p.inspector
	v.tabs.SelectIndex(1)
	settle(t, q, d)
	if !d.Inspector.OneBinPerValue() {
		t.Fatal("the labels' histogram does not have one bin per value")
	}
	if shownIn(v.content, v.binsSel) {
		t.Error("the bin count shows for a histogram of one bin per value")
	}
	v.histScope.SetSelected(histScopeLabels[viewmodel.HistPlane])
	settle(t, q, d)
	if d.Inspector.OneBinPerValue() || !shownIn(v.content, v.binsSel) {
		t.Errorf("binned histogram (one bin per value %v): the bin count is not shown", d.Inspector.OneBinPerValue())
	}
}

// A tall inspector shows the statistics in full, a short one on one line;
// once the user chooses, resizing keeps the choice.
func TestStatsInFullWhenTheInspectorIsTall(t *testing.T) {
	dt, _ := smallWindowTab(t, 1600, 1000)
	v := dt.tensors.inspector
	s := v.stats
	if !s.full.Visible() || s.line.Visible() {
		t.Fatalf("in a %.0f px high inspector the statistics are not in full", v.content.Size().Height)
	}
	if heat, inspector := v.heatArea.Size().Height, v.content.Size().Height; heat < inspector/2 {
		t.Errorf("with the statistics in full the heatmap is %.0f px high, less than half of %.0f", heat, inspector)
	}
	win := dt.mw.win
	win.Resize(fyne.NewSize(1024, 700))
	if s.full.Visible() {
		t.Fatalf("in a %.0f px high inspector the statistics are in full", v.content.Size().Height)
	}
	test.Tap(s.details)
	win.Resize(fyne.NewSize(1100, 720))
	if !s.full.Visible() {
		t.Error("resizing the window undid the user's choice of details")
	}
}
