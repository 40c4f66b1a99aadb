package ui

import (
	"fmt"
	"sort"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"tensorscope/viewmodel"
	"tensorscope/viewmodel/compare"
)

// compareTab is a comparison of two files in a tab of its own: a summary,
// the matched pairs most different first (filterable) beside the selected
// pair's views, and for two models the graph changes.
type compareTab struct {
	mw   *MainWindow
	c    *compare.Comparison
	item *container.TabItem

	content  fyne.CanvasObject
	summary  *widget.Label
	only     *widget.Label
	busy     *widget.Label
	progress *widget.ProgressBar
	filter   *keyEntry
	table    *pairTable
	pair     *comparePairView
	panes    *container.AppTabs
	graph    *compareGraphView
}

// window is the main window the tab is in, nil in tests that build the
// tab alone.
func (t *compareTab) window() fyne.Window {
	if t.mw == nil {
		return nil
	}
	return t.mw.win
}

// newCompareTab builds the tab for c and follows its changes.
func newCompareTab(mw *MainWindow, c *compare.Comparison) *compareTab {
	t := &compareTab{mw: mw, c: c}
	t.content = t.build()
	t.item = container.NewTabItem(c.Title(), t.content)
	c.OnChange = t.update
	t.update(compare.ChangedAll)
	return t
}

func (t *compareTab) build() fyne.CanvasObject {
	t.summary = widget.NewLabel("")
	t.summary.Truncation = fyne.TextTruncateEllipsis
	t.only = widget.NewLabel("")
	t.busy = widget.NewLabel("")
	t.progress = widget.NewProgressBar()
	t.filter = newKeyEntry(windowKeys(t.window()))
	t.filter.SetPlaceHolder("Filter pairs by name")
	t.filter.OnChanged = t.c.SetFilter
	t.table = newPairTable(t.mw, t.c)
	t.filter.nav = t.table.table.navigate
	t.pair = newComparePairView(t.c)
	left := container.NewBorder(t.filter, nil, nil, nil, t.table.content)
	// The table above the pair's views, across the whole width, so that
	// every column of diff fits a 1024-pixel window; the divider drags.
	// The pair's views scroll when the divider leaves them less than
	// their least height, so that it drags both ways.
	split := container.NewVSplit(left, container.NewVScroll(t.pair.content))
	split.Offset = 0.4
	t.panes = container.NewAppTabs(container.NewTabItem("Tensors", split))
	status := container.NewBorder(nil, nil, t.busy, nil, t.progress)
	return container.NewBorder(container.NewVBox(t.summary, status), nil, nil, nil, t.panes)
}

func (t *compareTab) update(ch compare.Change) {
	if ch&compare.ChangedFigures != 0 {
		t.summary.SetText(t.c.Summary())
		if t.c.Ready() {
			t.addOnlyTab()
		}
		if g := t.c.Graph(); g != nil && t.graph == nil {
			t.graph = newCompareGraphView(t.c)
			t.panes.Append(container.NewTabItem("Graph changes", t.graph.content))
		}
	}
	if ch&compare.ChangedRows != 0 {
		t.table.rowsChanged()
	}
	if ch&compare.ChangedProgress != 0 {
		t.updateProgress()
	}
	t.pair.update(ch)
}

// addOnlyTab lists the tensors found in only one file, when there are any.
func (t *compareTab) addOnlyTab() {
	m := t.c.Matching()
	if len(m.OnlyA)+len(m.OnlyB) == 0 || t.only.Text != "" {
		return
	}
	var b strings.Builder
	for _, side := range []struct {
		name  string
		names []string
	}{{"A", m.OnlyA}, {"B", m.OnlyB}} {
		if len(side.names) > 0 {
			fmt.Fprintf(&b, "Only in %s (%d):\n  %s\n\n", side.name, len(side.names), strings.Join(side.names, "\n  "))
		}
	}
	t.only.SetText(strings.TrimSpace(b.String()))
	t.panes.Append(container.NewTabItem("Only in one file", container.NewScroll(t.only)))
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

// reload compares the two files again as they now are on disk, keeping
// the filter.
func (t *compareTab) reload() {
	a, b := t.c.Sources()
	filter := t.c.Filter()
	t.close()
	post := viewmodel.Poster(fyne.Do)
	if t.mw != nil {
		post = t.mw.post
	}
	t.c = compare.NewComparison(post, a, b, t.c.Tolerance())
	t.c.SetFilter(filter)
	t.content = t.build()
	t.filter.SetText(filter)
	t.item.Content = t.content
	t.c.OnChange = t.update
	t.update(compare.ChangedAll)
	if t.mw != nil {
		t.mw.tabs.Refresh()
	}
}

// close stops the comparison's work and closes its files.
func (t *compareTab) close() {
	t.c.OnChange = nil
	if t.graph != nil {
		t.graph.close()
	}
	t.c.Close()
}
