package ui

import (
	"sort"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"tensorscope/viewmodel"
)

// compareTab is a comparison of two files in a tab of its own: a summary,
// the matched pairs most different first (filterable) beside the selected
// pair's views, and for two models the graph changes.
type compareTab struct {
	mw   *MainWindow
	c    *viewmodel.Comparison
	item *container.TabItem

	content  fyne.CanvasObject
	summary  *widget.Label
	only     *widget.Label
	busy     *widget.Label
	progress *widget.ProgressBar
	filter   *widget.Entry
	list     *widget.List
	pair     *comparePairView
	panes    *container.AppTabs
	graph    *compareGraphView
}

// newCompareTab builds the tab for c and follows its changes.
func newCompareTab(mw *MainWindow, c *viewmodel.Comparison) *compareTab {
	t := &compareTab{mw: mw, c: c}
	t.content = t.build()
	t.item = container.NewTabItem(c.Title(), t.content)
	c.OnChange = t.update
	t.update(viewmodel.CompareChangedAll)
	return t
}

// ComparisonContent builds the widgets of a comparison tab for c (headless
// rendering and tests; the GUI makes them through File ▸ Compare With…).
func ComparisonContent(c *viewmodel.Comparison) fyne.CanvasObject {
	return newCompareTab(nil, c).content
}

func (t *compareTab) build() fyne.CanvasObject {
	t.summary = widget.NewLabel("")
	t.summary.Wrapping = fyne.TextWrapWord
	t.only = widget.NewLabel("")
	t.only.Wrapping = fyne.TextWrapWord
	t.only.Hide()
	t.busy = widget.NewLabel("")
	t.progress = widget.NewProgressBar()
	t.filter = widget.NewEntry()
	t.filter.SetPlaceHolder("Filter pairs by name")
	t.filter.OnChanged = t.c.SetFilter
	t.list = widget.NewList(t.c.Rows, func() fyne.CanvasObject {
		name := widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
		name.Truncation = fyne.TextTruncateEllipsis
		detail := widget.NewLabel("")
		detail.Truncation = fyne.TextTruncateEllipsis
		detail.TextStyle.Monospace = true
		return container.NewVBox(name, detail)
	}, func(id widget.ListItemID, o fyne.CanvasObject) {
		title, detail := t.c.RowText(id)
		box := o.(*fyne.Container)
		box.Objects[0].(*widget.Label).SetText(title)
		d := box.Objects[1].(*widget.Label)
		d.SetText(detail)
		d.Importance = widget.MediumImportance
		if f := t.c.Row(id); f != nil && !f.Within() {
			d.Importance = widget.WarningImportance
		}
		d.Refresh()
	})
	t.list.OnSelected = func(id widget.ListItemID) { t.c.Select(id) }
	t.pair = newComparePairView(t.c)
	left := container.NewBorder(t.filter, nil, nil, nil, t.list)
	split := container.NewHSplit(left, t.pair.content)
	split.Offset = 0.3
	t.panes = container.NewAppTabs(container.NewTabItem("Tensors", split))
	status := container.NewBorder(nil, nil, t.busy, nil, t.progress)
	return container.NewBorder(container.NewVBox(t.summary, t.only, status), nil, nil, nil, t.panes)
}

func (t *compareTab) update(ch viewmodel.CompareChange) {
	if ch&viewmodel.CompareChangedFigures != 0 {
		t.summary.SetText(t.c.Summary())
		t.updateOnly()
		if g := t.c.Graph(); g != nil && t.graph == nil {
			t.graph = newCompareGraphView(t.c)
			t.panes.Append(container.NewTabItem("Graph changes", t.graph.content))
		}
	}
	if ch&viewmodel.CompareChangedRows != 0 {
		t.list.UnselectAll()
		t.list.Refresh()
	}
	if ch&viewmodel.CompareChangedProgress != 0 {
		t.updateProgress()
	}
	t.pair.update(ch)
}

func (t *compareTab) updateOnly() {
	m := t.c.Matching()
	var lines []string
	if len(m.OnlyA) > 0 {
		lines = append(lines, "Only in A: "+strings.Join(m.OnlyA, ", "))
	}
	if len(m.OnlyB) > 0 {
		lines = append(lines, "Only in B: "+strings.Join(m.OnlyB, ", "))
	}
	if len(lines) == 0 {
		t.only.Hide()
		return
	}
	t.only.SetText(strings.Join(lines, "\n"))
	t.only.Show()
}

func (t *compareTab) updateProgress() {
	busy := t.c.Busy()
	if len(busy) == 0 {
		t.busy.Hide()
		t.progress.Hide()
		return
	}
	jobs := make([]string, 0, len(busy))
	for j := range busy {
		jobs = append(jobs, j)
	}
	sort.Strings(jobs)
	t.busy.SetText(strings.Join(jobs, ", ") + "…")
	t.progress.SetValue(busy[jobs[0]])
	t.busy.Show()
	t.progress.Show()
}

// close stops the comparison's work and closes its files.
func (t *compareTab) close() {
	t.c.OnChange = nil
	t.c.Close()
}
