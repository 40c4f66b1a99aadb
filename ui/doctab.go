package ui

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"tensorscope/formats"
	"tensorscope/viewmodel"
)

// docTab is the content of one document tab: a warnings strip above the
// panes (Tensors, Header, Metadata, and Graph for models).
type docTab struct {
	mw        *MainWindow
	doc       *viewmodel.Doc // nil while the file is opening
	path      string         // the file on disk; "" for in-memory documents
	item      *container.TabItem
	panes     *container.AppTabs
	tensors   *tensorPane
	graph     *graphPane         // nil for formats without a graph
	overview  *overviewPane      // nil for files of one tensor
	tensorsAt *container.TabItem // the Tensors pane's tab
	cancelled bool               // closed before the file finished opening

	// opening animates the tab while its file decodes. Its animation runs
	// until stopped, even after the tab's content is replaced: a bar left
	// running redraws the window 20 times a second for good.
	opening *widget.ProgressBarInfinite
	// failed is set when the file could not be decoded: the tab shows the
	// error and the file's bytes.
	failed *viewmodel.FailedFile
	// watcher notices when the file changes on disk, and changed says so
	// above the panes (nil for in-memory documents).
	watcher *viewmodel.FileWatcher
	changed *changedStrip
	follow  *followStrip // the followed folder's bar, for the tab that follows one
}

// newPendingTab is the tab of a file still being decoded.
func newPendingTab(mw *MainWindow, name string) *docTab {
	content, bar := pendingContent(name)
	return &docTab{mw: mw, item: container.NewTabItem(name, content), opening: bar}
}

// pendingContent says the file is opening, with an animated bar (which
// must be stopped when the content goes: see docTab.opening).
func pendingContent(name string) (fyne.CanvasObject, *widget.ProgressBarInfinite) {
	bar := widget.NewProgressBarInfinite()
	msg := widget.NewLabelWithStyle("Opening "+name+"…", fyne.TextAlignCenter, fyne.TextStyle{})
	return container.NewCenter(container.NewVBox(msg, container.NewGridWrap(fyne.NewSize(themePx(300), bar.MinSize().Height), bar))), bar
}

// setDoc fills a pending tab with its opened document.
func (dt *docTab) setDoc(d *viewmodel.Doc) {
	dt.stopOpening()
	dt.doc = d
	d.ShowOpening()
	dt.watchFile()
	dt.rebuild()
}

// watchFile starts noticing changes of the tab's file on disk (nothing for
// in-memory documents, or when it already does).
func (dt *docTab) watchFile() {
	if dt.path == "" || dt.watcher != nil || dt.doc == nil {
		return
	}
	if dt.changed == nil {
		dt.changed = newChangedStrip(func() {
			dt.mw.tabs.Select(dt.item)
			dt.mw.reload()
		})
	}
	dt.watcher = viewmodel.WatchFile(dt.path, dt.doc.Doc.Size, fyne.Do, func(c viewmodel.FileChange) {
		dt.changed.show(c)
		if content, ok := dt.item.Content.(*fyne.Container); ok {
			content.Refresh()
		}
	})
}

// stopWatching ends the file watcher of a tab that is closed for good.
func (dt *docTab) stopWatching() {
	if dt.watcher != nil {
		dt.watcher.Close()
		dt.watcher = nil
	}
}

// stopOpening ends the "Opening…" animation once it is no longer shown.
func (dt *docTab) stopOpening() {
	if dt.opening != nil {
		dt.opening.Stop()
		dt.opening = nil
	}
}

// rebuild makes the panes anew for the current document. After a reload
// the user keeps their place: the pane and inspector tab shown, the
// inspected tensor (the viewmodel keeps it), and the graph's settings,
// selection and viewport.
func (dt *docTab) rebuild() {
	d := dt.doc
	oldPanes, oldTensors, oldGraph := dt.panes, dt.tensors, dt.graph
	dt.tensors = newTensorPane(dt.mw.win, d)
	dt.tensorsAt = container.NewTabItem("Tensors", dt.tensors.content)
	metaAt := container.NewTabItem("Metadata", newMetaPane(dt.mw.win, d, dt.inspectTensor))
	dt.panes = container.NewAppTabs(
		dt.tensorsAt,
		container.NewTabItem("Header", newHeaderPane(dt.mw.win, d)),
		metaAt,
	)
	if len(d.Doc.Tensors) == 0 && !d.Meta.Empty() {
		dt.panes.Select(metaAt) // a file of metadata alone (a GGUF vocabulary) opens on it
	}
	if dt.overview != nil {
		dt.overview.close()
		dt.overview = nil
	}
	if d.HasOverview() {
		dt.overview = newOverviewPane(d.Overview(), dt.inspectTensor)
		dt.panes.Items = append([]*container.TabItem{container.NewTabItem("Overview", dt.overview.content)}, dt.panes.Items...)
		dt.panes.SelectIndex(0)
	}
	dt.graph = nil
	if d.Doc.Graph != nil {
		dt.graph = newGraphPane(dt, oldGraph)
		graphAt := container.NewTabItem("Graph", dt.graph.content)
		dt.panes.Append(graphAt)
		dt.tensors.inspector.onShowInGraph = dt.showInGraph
		dt.panes.Select(graphAt) // a model's graph is what people open it for
	}
	if oldPanes != nil {
		dt.keepPlace(oldPanes, oldTensors)
	}
	var content *fyne.Container
	top := container.NewVBox()
	if dt.follow != nil {
		top.Add(dt.follow.box)
	}
	if dt.changed != nil {
		dt.changed.hide() // a reload shows the file as it is now
		top.Add(dt.changed.box)
	}
	if w := warningsStrip(dt.mw.win, d, func() { content.Refresh() }); w != nil {
		top.Add(w)
	}
	content = container.NewBorder(top, nil, nil, nil, dt.panes)
	dt.item.Content = content
	dt.item.Text = d.Title()
	dt.mw.tabs.Refresh()
	// Selected once laid out, so that the list scrolls to the row for the
	// height it has.
	if i := d.Inspector.Index(); i >= 0 {
		dt.tensors.selectTensor(i) // the tensor a file opens on; a reload keeps it
	}
}

// keepPlace shows the same pane and inspector tab as the panes being
// replaced.
func (dt *docTab) keepPlace(oldPanes *container.AppTabs, oldTensors *tensorPane) {
	if i := oldPanes.SelectedIndex(); i >= 0 && i < len(dt.panes.Items) {
		dt.panes.SelectIndex(i)
	}
	dt.tensors.inspector.tabs.SelectIndex(oldTensors.inspector.tabs.SelectedIndex())
}

// close stops background work of the tab.
func (dt *docTab) close() {
	if dt.overview != nil {
		dt.overview.close()
	}
	if dt.tensors != nil {
		dt.tensors.close()
	}
	if dt.failed != nil {
		dt.failed.Close()
		dt.failed = nil
	}
}

// focusFilter puts the cursor in the graph's find box when the graph is
// shown, else in the tensor filter.
func (dt *docTab) focusFilter() {
	if dt.doc == nil {
		return
	}
	if dt.graph != nil && dt.panes.Selected().Content == dt.graph.content {
		dt.graph.focusFind()
		return
	}
	if dt.overview != nil && dt.panes.Selected().Content == dt.overview.content {
		dt.overview.focusFilter(dt.mw.win.Canvas())
		return
	}
	dt.panes.Select(dt.tensorsAt)
	dt.mw.win.Canvas().Focus(dt.tensors.filter)
}

// inspectTensor shows document tensor i in the Tensors pane's inspector.
func (dt *docTab) inspectTensor(i int) {
	dt.panes.Select(dt.tensorsAt)
	dt.tensors.selectTensor(i)
}

// exportTensor saves the inspected tensor in any format with an encoder,
// or as .csv (its current plane).
func (dt *docTab) exportTensor() {
	win := dt.mw.win
	e := dt.doc.Inspector.Entry()
	if e == nil || dt.doc.Inspector.Tensor() == nil {
		dialog.ShowInformation("Export tensor", "Select a tensor with values in the Tensors pane first.", win)
		return
	}
	name := strings.NewReplacer("/", "_", " ", "_", "#", "t").Replace(e.Name) + ".npy"
	filters := tensorExportFilters()
	title := "Export tensor"
	if dt.doc.Inspector.Quantised() {
		title = "Export tensor: stored integers"
		if dt.doc.Inspector.Dequantised() {
			title = "Export tensor: dequantised values"
		}
	}
	dt.mw.saveFile(title, name, filters, func(path string) {
		dt.mw.setStatus("Exporting " + e.Name + "…")
		_, err := dt.doc.ExportShown(path, func(note string, err error) {
			dt.mw.setStatus("")
			showExported(win, "Tensor exported", path, note, err)
		})
		if err != nil {
			dt.mw.setStatus("")
			showError(err, win)
		}
	})
}

// tensorExportFilters are the Export Tensor dialog's choices: every type
// viewmodel.ExportTensor writes (the registered encoders' and .csv),
// together and one by one.
func tensorExportFilters() []fileFilter {
	exts := formats.TensorExportExtensions()
	filters := []fileFilter{endingsFilter(exts)}
	for _, e := range exts {
		filters = append(filters, endingsFilter([]string{e}))
	}
	return filters
}

// showInGraph shows the Graph pane with the first node that uses the named
// tensor selected and centred: the way back from Inspect.
func (dt *docTab) showInGraph(name string) {
	if dt.graph == nil {
		return
	}
	for _, item := range dt.panes.Items {
		if item.Content == dt.graph.content {
			dt.panes.Select(item)
		}
	}
	dt.graph.find.SetText(name)
	dt.graph.next(1)
}
