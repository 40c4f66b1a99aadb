package ui

import (
	"errors"
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"

	"tensorscope/viewmodel"
	"tensorscope/viewmodel/compare"
)

// Opening comparisons: File ▸ Compare With… (the current tab against a
// file), File ▸ Compare Tabs… (two open tabs), and a file dropped on a
// document tab with Shift held.

// Compare opens a comparison tab of a against b; the comparison opens
// both files again for itself, so closing either file's tab leaves it
// working.
func (mw *MainWindow) Compare(a, b viewmodel.Source) {
	c := compare.NewComparison(mw.post, a, b, compare.DefaultTolerance)
	t := newCompareTab(mw, c)
	mw.compares = append(mw.compares, t)
	mw.tabs.Append(t.item)
	mw.tabs.Select(t.item)
	mw.showTabs()
	mw.updateTitle()
}

// compareWithDialog asks for a file to compare the current tab with.
func (mw *MainWindow) compareWithDialog() {
	dt := mw.current()
	if dt == nil || dt.doc == nil {
		showError(errors.New("Open a file first: Compare With… compares the current tab with another file."), mw.win)
		return
	}
	a := dt.doc.Source
	mw.chooseFile("Compare "+dt.doc.Title()+" with", func(path string) {
		mw.Compare(a, viewmodel.Source{Path: path})
	})
}

// compareTabsDialog asks which two open tabs to compare.
func (mw *MainWindow) compareTabsDialog() {
	var docs []*viewmodel.Doc
	var names []string
	for _, dt := range mw.docTabs {
		if dt.doc != nil {
			docs = append(docs, dt.doc)
			names = append(names, dt.doc.Title())
		}
	}
	if len(docs) < 2 {
		showError(errors.New("Compare Tabs needs two open files."), mw.win)
		return
	}
	// A defaults to the first file (the reference, usually opened first),
	// B to the current tab, or the second file when the first is current.
	selA, selB := widget.NewSelect(names, nil), widget.NewSelect(names, nil)
	selA.SetSelectedIndex(0)
	b := 1
	if cur := mw.current(); cur != nil && cur.doc != nil && cur.doc != docs[0] {
		for i, d := range docs {
			if d == cur.doc {
				b = i
			}
		}
	}
	selB.SetSelectedIndex(b)
	form := widget.NewForm(widget.NewFormItem("A", selA), widget.NewFormItem("B", selB))
	d := dialog.NewCustomConfirm("Compare Tabs", "Compare", "Cancel", form, func(ok bool) {
		if !ok || selA.SelectedIndex() < 0 || selB.SelectedIndex() < 0 {
			return
		}
		mw.Compare(docs[selA.SelectedIndex()].Source, docs[selB.SelectedIndex()].Source)
	}, mw.win)
	d.Resize(fyne.NewSize(themePx(520), d.MinSize().Height))
	d.Show()
}

// compareOf returns the comparison tab showing item, or nil.
func (mw *MainWindow) compareOf(item *container.TabItem) *compareTab {
	for _, t := range mw.compares {
		if t.item == item {
			return t
		}
	}
	return nil
}

func (mw *MainWindow) closeCompare(t *compareTab) {
	t.close()
	mw.tabs.Remove(t.item)
	for i, x := range mw.compares {
		if x == t {
			mw.compares = slices.Delete(mw.compares, i, i+1)
			break
		}
	}
	mw.showTabs()
	mw.updateTitle()
}

// shiftHeld tracks the Shift keys from the window's key events, for
// Shift-drop. The window sees keys only while it has the focus, so a drop
// from another application counts as Shift-drop only if Shift was pressed
// while this window was focused.
type shiftHeld struct{ left, right bool }

func (s *shiftHeld) held() bool { return s.left || s.right }

// trackShift follows the Shift keys on the window's canvas.
func (mw *MainWindow) trackShift() {
	dc, ok := mw.win.Canvas().(desktop.Canvas)
	if !ok {
		return
	}
	set := func(ev *fyne.KeyEvent, down bool) {
		switch ev.Name {
		case desktop.KeyShiftLeft:
			mw.shift.left = down
		case desktop.KeyShiftRight:
			mw.shift.right = down
		}
	}
	dc.SetOnKeyDown(func(ev *fyne.KeyEvent) { set(ev, true) })
	dc.SetOnKeyUp(func(ev *fyne.KeyEvent) { set(ev, false) })
}

// dropped opens dropped files as tabs, or with Shift held over a document
// tab compares that tab with the first dropped file.
func (mw *MainWindow) dropped(uris []fyne.URI) {
	var paths []string
	for _, u := range uris {
		if u.Scheme() == "file" {
			paths = append(paths, u.Path())
		}
	}
	if dt := mw.current(); mw.shift.held() && dt != nil && dt.doc != nil && len(paths) > 0 {
		mw.Compare(dt.doc.Source, viewmodel.Source{Path: paths[0]})
		paths = paths[1:]
	}
	for _, p := range paths {
		mw.Open(p)
	}
}
