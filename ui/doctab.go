package ui

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

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
	graph     *graphPane // nil for formats without a graph
	cancelled bool       // closed before the file finished opening

	// opening animates the tab while its file decodes. Its animation runs
	// until stopped, even after the tab's content is replaced: a bar left
	// running redraws the window 20 times a second for good.
	opening *widget.ProgressBarInfinite
	// failed is set when the file could not be decoded: the tab shows the
	// error and the file's bytes.
	failed *viewmodel.FailedFile
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
	return container.NewCenter(container.NewVBox(msg, container.NewGridWrap(fyne.NewSize(300, bar.MinSize().Height), bar))), bar
}

// setDoc fills a pending tab with its opened document.
func (dt *docTab) setDoc(d *viewmodel.Doc) {
	dt.stopOpening()
	dt.doc = d
	d.ShowOpening()
	dt.rebuild()
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
	dt.panes = container.NewAppTabs(
		container.NewTabItem("Tensors", dt.tensors.content),
		container.NewTabItem("Header", newHeaderPane(dt.mw.win, d)),
		container.NewTabItem("Metadata", newMetaPane(dt.mw.win, d)),
	)
	dt.graph = nil
	if d.Doc.Graph != nil {
		dt.graph = newGraphPane(dt, oldGraph)
		dt.panes.Append(container.NewTabItem("Graph", dt.graph.content))
		dt.tensors.inspector.onShowInGraph = dt.showInGraph
		dt.panes.SelectIndex(3) // a model's graph is what people open it for
	}
	if oldPanes != nil {
		dt.keepPlace(oldPanes, oldTensors)
	}
	var content *fyne.Container
	content = container.NewBorder(warningsStrip(dt.mw.win, d, func() { content.Refresh() }), nil, nil, nil, dt.panes)
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
	dt.panes.SelectIndex(0)
	dt.mw.win.Canvas().Focus(dt.tensors.filter)
}

// inspectTensor shows document tensor i in the Tensors pane's inspector.
func (dt *docTab) inspectTensor(i int) {
	dt.panes.SelectIndex(0)
	dt.tensors.selectTensor(i)
}

// exportTensor saves the inspected tensor as .npy, .csv (its current plane)
// or .tsr.
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
// viewmodel.ExportTensor writes, together and one by one.
func tensorExportFilters() []fileFilter {
	names := map[string]string{".npy": "NumPy", ".csv": "CSV (current plane)", ".tsr": "TSR", ".safetensors": "safetensors"}
	var all []string
	var titles []string
	var each []fileFilter
	for _, ext := range viewmodel.TensorExportExtensions {
		name := names[ext]
		if name == "" {
			name = ext
		}
		e := strings.TrimPrefix(ext, ".")
		all = append(all, e)
		titles = append(titles, name)
		each = append(each, fileFilter{Name: name, Extensions: []string{e}})
	}
	list := strings.Join(titles[:len(titles)-1], ", ") + " or " + titles[len(titles)-1]
	return append([]fileFilter{{Name: list, Extensions: all}}, each...)
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
