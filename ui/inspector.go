package ui

import (
	"fmt"
	"image"
	"slices"
	"sort"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"tensorscope/viewmodel"
	"tensorscope/viewmodel/textfmt"
)

// inspectorView shows the selected tensor: a summary line, its facts, and
// heatmap, histogram and values tabs.
type inspectorView struct {
	win     fyne.Window
	doc     *viewmodel.Doc
	in      *viewmodel.Inspector
	content fyne.CanvasObject
	// onShowInGraph, set for models, goes to the graph node using the
	// named tensor (the way back from Inspect).
	onShowInGraph func(name string)

	title    *widget.Label
	toGraph  *widget.Button // "Show in graph", for tensors of a model
	stats    *statsLine
	titleBar *titleBar
	busy     *widget.Label
	progress *widget.ProgressBar
	message  *widget.Label
	dequant  *widget.Check
	facts    *widget.Table
	factRows [][2]string
	tabs     *container.AppTabs
	expr     *exprBar // the expression the tensor is seen through
	// exprSlots hold the expression box on the toolbar of each tab that
	// shows values (nil for Facts): it covers them all, and moves to the
	// tab shown rather than take a row of its own above the tabs.
	exprSlots []*fyne.Container

	heat     *heatmapView
	bar      *colorBar
	heatArea *fyne.Container
	heatNote *widget.Label
	status   *fyne.Container // the note, the value under the pointer and the zoom buttons
	hover    *widget.Label
	rowSel   *widget.Select
	colSel   *widget.Select
	sliders  *fyne.Container

	plot        *linePlotView       // a vector's value against index, in the heatmap's place
	vectorAsMap *widget.Check       // "Heatmap" instead of the plot, for vectors
	heatOnly    []fyne.CanvasObject // the heatmap's plane, reduction, colour and zoom controls, hidden with the plot
	rangeBounds []fyne.CanvasObject // the manual colour range's boxes

	hist     *histogramView
	binsBox  fyne.CanvasObject // the bin count, hidden while each value has its own bin
	values   *widget.Table
	valuesOK bool

	complexSel *fyne.Container // real part, imaginary part or magnitude of a complex tensor

	// The settings controls, brought in line with the viewmodel's settings
	// by syncControls; syncing is set meanwhile so that their callbacks do
	// not send the values back.
	cmapSel, rangeSel, redSel, binsSel *widget.Select
	rangeLo, rangeHi, histLo, histHi   *widget.Entry
	histLog, histManual, pin           *widget.Check
	histScope                          *widget.RadioGroup
	syncing                            bool
}

func newInspectorView(win fyne.Window, d *viewmodel.Doc) *inspectorView {
	v := &inspectorView{win: win, doc: d, in: d.Inspector}
	v.title = widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	v.title.Truncation = fyne.TextTruncateEllipsis
	v.stats = newStatsLine(func() { v.content.Refresh() })
	v.busy = widget.NewLabel("")
	v.progress = widget.NewProgressBar()
	v.message = widget.NewLabel("Select a tensor to see its values.")
	v.message.Wrapping = fyne.TextWrapWord
	v.dequant = widget.NewCheck("Dequantised", func(on bool) {
		if !v.syncing {
			v.in.SetDequantised(on)
		}
	})
	v.complexSel = newComplexPartSelect(v.in)
	v.facts = widget.NewTable(
		func() (int, int) { return len(v.factRows), 2 },
		func() fyne.CanvasObject {
			l := widget.NewLabel("")
			l.Truncation = fyne.TextTruncateEllipsis
			return l
		},
		func(id widget.TableCellID, o fyne.CanvasObject) {
			if id.Row < len(v.factRows) {
				o.(*widget.Label).SetText(v.factRows[id.Row][id.Col])
			}
		})
	v.facts.SetColumnWidth(0, 130)
	v.facts.SetColumnWidth(1, 520)

	v.expr = newExprBar(v.in)
	v.tabs = container.NewAppTabs(
		container.NewTabItem("Heatmap", v.heatmapTab()),
		container.NewTabItem("Histogram", v.histogramTab()),
		container.NewTabItem("Values", v.valuesTab()),
		container.NewTabItem("Facts", v.facts),
	)
	v.exprSlots = append(v.exprSlots, nil) // Facts: of the entry, not the view
	// Hidden tabs may skip redraws; bring the shown one up to date.
	v.tabs.OnSelected = func(*container.TabItem) {
		v.placeExprBar()
		v.heat.Refresh()
		v.bar.Refresh()
		v.hist.plot.raster.Refresh()
		v.values.Refresh()
	}
	status := container.NewBorder(nil, nil, v.busy, nil, v.progress)
	v.toGraph = widget.NewButtonWithIcon("Show in graph", theme.NavigateBackIcon(), func() {
		if e := v.in.Entry(); e != nil && v.onShowInGraph != nil {
			v.onShowInGraph(e.Name)
		}
	})
	v.toGraph.Hide()
	// Settings belong to the tensor they are made on; pinned, they carry
	// over to every tensor shown next. Beside the title, as they cover
	// every tab.
	v.pin = widget.NewCheck("Pin settings", func(on bool) {
		if !v.syncing {
			v.in.SetPinned(on)
		}
	})
	// How the values are seen (dequantised, as a mosaic) and whether the
	// settings carry over stand beside the title (in a short inspector, in
	// its menu), taking no row of their own from the heatmap.
	v.titleBar = newTitleBar(v.title, v.stats, v.dequant, v.expr.mosaic, v.pin, v.toGraph)
	top := container.NewVBox(v.titleBar.content, v.complexSel, status, v.message)
	v.content = container.New(&heightLayout{onHeight: v.fitHeight}, container.NewBorder(top, nil, nil, nil, v.tabs))
	v.placeExprBar()
	v.in.OnChange = v.update
	v.update(viewmodel.ChangedAll) // syncs the controls too
	return v
}

// fitHeight suits the top of the inspector to its height h: statistics
// in full and the title bar in two rows when it is tall, both folded when
// it is short, so that the heatmap keeps at least half of it.
func (v *inspectorView) fitHeight(h float32) {
	v.stats.fitHeight(h)
	v.titleBar.setCompact(h < statsDetailsHeight)
}

// placeExprBar puts the expression box on the toolbar of the tab shown.
func (v *inspectorView) placeExprBar() {
	for _, slot := range v.exprSlots {
		if slot != nil {
			slot.RemoveAll()
		}
	}
	if i := v.tabs.SelectedIndex(); i >= 0 && i < len(v.exprSlots) && v.exprSlots[i] != nil {
		v.exprSlots[i].Add(v.expr.content)
	}
	if v.content != nil {
		v.content.Refresh()
	}
}

// newExprSlot makes the place of the expression box on a tab's toolbar.
func (v *inspectorView) newExprSlot() *fyne.Container {
	slot := container.NewStack()
	v.exprSlots = append(v.exprSlots, slot)
	return slot
}

// histScopeLabels name the histogram's scopes, in HistScope order.
var histScopeLabels = []string{"Whole tensor", "Current plane"}

// syncControls shows the viewmodel's settings in the controls (when the
// view is built, and after the settings were applied as a whole).
func (v *inspectorView) syncControls() {
	v.syncing = true
	defer func() { v.syncing = false }()
	s := v.in.Settings()
	v.cmapSel.SetSelected(s.Colormap.Name)
	v.rangeSel.SetSelectedIndex(int(s.Range.Mode))
	manualRange := s.Range.Mode == viewmodel.RangeManual
	setRangeEntries(v.rangeLo, v.rangeHi, manualRange, s.Range)
	v.showRangeBounds(manualRange)
	v.redSel.SetSelected(s.Reduction.String())
	bins := strconv.Itoa(s.HistBins)
	if !slices.Contains(v.binsSel.Options, bins) {
		v.binsSel.Options = append(v.binsSel.Options, bins)
	}
	v.binsSel.SetSelected(bins)
	v.histLog.SetChecked(s.HistLog)
	v.histScope.SetSelected(histScopeLabels[s.HistScope])
	manualHist := s.HistRange.Mode == viewmodel.RangeManual
	v.histManual.SetChecked(manualHist)
	if manualHist {
		setRangeEntries(v.histLo, v.histHi, true, s.HistRange)
	}
	v.dequant.SetChecked(s.Dequantise)
	v.vectorAsMap.SetChecked(s.VectorAsHeatmap)
	v.pin.SetChecked(v.in.Pinned())
}

// setRangeEntries shows a manual range's bounds, enabled only for a manual
// range.
// showRangeBounds shows the colour range's low and high boxes only for a
// manual range, which keeps the toolbar a row shorter in a narrow window.
func (v *inspectorView) showRangeBounds(on bool) {
	for _, b := range v.rangeBounds {
		if on {
			b.Show()
		} else {
			b.Hide()
		}
	}
}

func setRangeEntries(lo, hi *widget.Entry, manual bool, r viewmodel.RangeSetting) {
	if !manual {
		lo.Disable()
		hi.Disable()
		return
	}
	lo.Enable()
	hi.Enable()
	lo.SetText(strconv.FormatFloat(r.Lo, 'g', -1, 64))
	hi.SetText(strconv.FormatFloat(r.Hi, 'g', -1, 64))
}

// show inspects document tensor i.
func (v *inspectorView) show(i int) { v.in.Show(i, v.doc.Doc.Tensors[i]) }

func (v *inspectorView) close() { v.in.OnChange = nil }

func (v *inspectorView) update(c viewmodel.Change) {
	if c&viewmodel.ChangedTensor != 0 {
		v.expr.sync(true) // before updateTensor lays the inspector out
		v.updateTensor()
	}
	if c&(viewmodel.ChangedSummary|viewmodel.ChangedTensor) != 0 {
		v.updateSummary()
	}
	if c&viewmodel.ChangedHeatmap != 0 {
		v.heatArea.Refresh() // the image's aspect may move the colour bar
		v.heat.Refresh()
		v.bar.Refresh()
		v.setHeatNote(v.in.HeatmapNote())
		if err := v.in.PlaneErr(); err != nil {
			v.setHeatNote(err.Error())
		}
		v.refreshValues()
	}
	if c&(viewmodel.ChangedHeatmap|viewmodel.ChangedTensor) != 0 {
		v.showPlotOrHeatmap()
	}
	if c&viewmodel.ChangedHistogram != 0 {
		v.hist.update()
		v.showBinCount()
	}
	if c&viewmodel.ChangedProgress != 0 {
		v.updateProgress()
	}
	if c&viewmodel.ChangedSettings != 0 && v.cmapSel != nil {
		v.syncControls()
	}
	v.titleBar.sync() // the choices shown may have changed
}

func (v *inspectorView) updateTensor() {
	e := v.in.Entry()
	if e == nil {
		v.title.SetText("")
		v.toGraph.Hide()
		v.pin.Hide()
		v.factRows = nil
		v.message.SetText("Select a tensor to see its values.")
		v.message.Show()
		v.dequant.Hide()
		v.complexSel.Hide()
		v.tabs.Hide()
		v.facts.Refresh()
		if v.content != nil {
			v.content.Refresh()
		}
		return
	}
	v.title.SetText(e.Name)
	v.pin.Show()
	if v.onShowInGraph != nil {
		v.toGraph.Show()
	}
	v.factRows = viewmodel.EntryFacts(e)
	v.facts.Refresh()
	if v.in.Quantised() {
		v.dequant.SetChecked(v.in.Dequantised())
		v.dequant.Show()
	} else {
		v.dequant.Hide()
	}
	updateComplexPartSelect(v.complexSel, v.in)
	if err := v.in.Err(); err != nil {
		v.message.SetText("Cannot show values: " + err.Error())
		v.message.Show()
		v.tabs.SelectIndex(3)
	} else {
		v.message.Hide()
	}
	v.sizeValueColumns()
	v.tabs.Show()
	v.rebuildAxes()
	// Showing and hiding parts changes the layout; lay it out again now
	// rather than on the next resize.
	v.content.Refresh()
}

func (v *inspectorView) updateSummary() {
	v.stats.set(v.in.SummaryText(), v.in.PercentileLine(), v.in.AlertText())
	// The alert, or a summary in full, may change height: lay the column
	// out again.
	v.content.Refresh()
}

func (v *inspectorView) updateProgress() {
	busy := v.in.Busy()
	if len(busy) == 0 {
		v.busy.SetText("")
		if v.progress.Visible() {
			v.progress.Hide()
			v.busy.Hide()
			if v.content != nil {
				v.content.Refresh()
			}
		}
		return
	}
	jobs := make([]string, 0, len(busy))
	for j := range busy {
		jobs = append(jobs, j)
	}
	sort.Strings(jobs)
	v.busy.SetText(strings.Join(jobs, ", ") + "…")
	v.progress.SetValue(busy[jobs[0]])
	if !v.progress.Visible() {
		v.busy.Show()
		v.progress.Show()
		v.content.Refresh()
	}
}

// heatmapTab builds the heatmap controls, the heatmap and its colour bar.
func (v *inspectorView) heatmapTab() fyne.CanvasObject {
	v.hover = widget.NewLabel("")
	v.hover.Truncation = fyne.TextTruncateEllipsis
	v.heatNote = widget.NewLabel("")
	v.heat = newHeatmapView(v.in, func(s string) { v.hover.SetText(s) })
	v.bar = newColorBar(v.in)
	v.rowSel = widget.NewSelect(nil, nil)
	v.colSel = widget.NewSelect(nil, nil)
	v.sliders = container.New(sliderGrid{})

	cmap := widget.NewSelect(viewmodel.ColormapNames(), func(name string) {
		if !v.syncing {
			v.in.SetColormap(name)
		}
	})
	lo, hi := widget.NewEntry(), widget.NewEntry()
	lo.SetPlaceHolder("low")
	hi.SetPlaceHolder("high")
	rangeSel := widget.NewSelect(viewmodel.RangeModeNames, nil)
	applyRange := func() {
		if v.syncing {
			return
		}
		mode := viewmodel.RangeMode(rangeSel.SelectedIndex())
		v.showRangeBounds(mode == viewmodel.RangeManual)
		if mode != viewmodel.RangeManual {
			lo.Disable()
			hi.Disable()
			v.in.SetRange(mode, 0, 0)
			return
		}
		lo.Enable()
		hi.Enable()
		l, err1 := strconv.ParseFloat(strings.TrimSpace(lo.Text), 64)
		h, err2 := strconv.ParseFloat(strings.TrimSpace(hi.Text), 64)
		if err1 != nil || err2 != nil {
			if r := v.in.Heatmap(); r != nil && lo.Text == "" && hi.Text == "" {
				lo.SetText(textfmt.Float(r.Lo, 6))
				hi.SetText(textfmt.Float(r.Hi, 6))
			}
			return
		}
		if err := v.in.SetRange(mode, l, h); err != nil {
			v.setHeatNote(err.Error())
		}
	}
	rangeSel.OnChanged = func(string) { applyRange() }
	lo.OnSubmitted = func(string) { applyRange() }
	hi.OnSubmitted = func(string) { applyRange() }
	red := widget.NewSelect(viewmodel.ReductionNames, func(string) {})
	red.OnChanged = func(string) {
		if !v.syncing {
			v.in.SetReduction(red.SelectedIndex())
		}
	}

	fit := widget.NewButtonWithIcon("", theme.ZoomFitIcon(), func() { v.in.ResetView() })
	zoomIn := widget.NewButtonWithIcon("", theme.ZoomInIcon(), func() { v.heat.zoomCentre(2) })
	zoomOut := widget.NewButtonWithIcon("", theme.ZoomOutIcon(), func() { v.heat.zoomCentre(0.5) })

	v.plot = newLinePlotView(v.in, func(s string) { v.hover.SetText(s) })
	v.vectorAsMap = widget.NewCheck("Heatmap", func(on bool) {
		if !v.syncing {
			v.in.SetVectorAsHeatmap(on)
		}
	})
	v.vectorAsMap.Hide()
	v.rangeBounds = []fyne.CanvasObject{
		container.NewGridWrap(fyne.NewSize(themePx(76), lo.MinSize().Height), lo),
		container.NewGridWrap(fyne.NewSize(themePx(76), hi.MinSize().Height), hi)}
	heatTools := []fyne.CanvasObject{
		container.NewHBox(widget.NewLabel("Rows"), v.rowSel),
		container.NewHBox(widget.NewLabel("Cols"), v.colSel),
		container.NewHBox(widget.NewLabel("Reduce"), red),
		container.NewHBox(widget.NewLabel("Colours"), cmap),
		container.NewHBox(append([]fyne.CanvasObject{widget.NewLabel("Range"), rangeSel}, v.rangeBounds...)...)}
	// The zoom buttons stand on the status line under the heatmap, which
	// is there anyway, rather than take toolbar room from the heatmap.
	zoom := container.NewHBox(zoomOut, zoomIn, fit)
	v.heatOnly = append(heatTools, zoom)
	// One toolbar that wraps in a narrow window instead of being cut off,
	// in as few rows as the width allows, the expression box last.
	tools := newFlowStretchingLast(append(append([]fyne.CanvasObject{v.vectorAsMap}, heatTools...), v.newExprSlot())...)
	controls := container.NewVBox(tools, v.sliders)
	// The note and the value under the pointer share one line: a second
	// line, empty until the pointer moves, would come off the heatmap.
	v.status = container.NewBorder(nil, nil, v.heatNote, zoom, v.hover)
	v.cmapSel, v.rangeSel, v.redSel, v.rangeLo, v.rangeHi = cmap, rangeSel, red, lo, hi
	v.heatArea = newHeatmapArea(v.heat, v.bar)
	return container.NewBorder(controls, v.status, nil, nil, container.NewStack(v.heatArea, v.plot.content))
}

// setHeatNote shows a note under the heatmap, laying its line out again:
// the note's width takes from the value under the pointer.
func (v *inspectorView) setHeatNote(text string) {
	if text == v.heatNote.Text {
		return
	}
	v.heatNote.SetText(text)
	v.status.Refresh()
}

// showPlotOrHeatmap shows a vector's plot, or the heatmap, in the first
// tab, and names the tab after it.
func (v *inspectorView) showPlotOrHeatmap() {
	if v.in.IsVector() {
		v.vectorAsMap.Show()
	} else {
		v.vectorAsMap.Hide()
	}
	title := "Heatmap"
	if v.in.ShowsLinePlot() {
		title = "Plot"
		for _, o := range v.heatOnly {
			o.Hide()
		}
		v.heatArea.Hide()
		v.plot.content.Show()
		v.plot.update()
		note := v.in.LinePlotNote()
		if _, err := v.in.LinePlot(); err != nil {
			note = err.Error()
		}
		v.setHeatNote(note)
	} else {
		v.plot.content.Hide()
		for _, o := range v.heatOnly {
			o.Show()
		}
		v.heatArea.Show()
	}
	if tab := v.tabs.Items[0]; tab.Text != title {
		tab.Text = title
		v.tabs.Refresh()
	}
}

// rebuildAxes refreshes the axis choices and the sliders for the other axes.
func (v *inspectorView) rebuildAxes() {
	t := v.in.Tensor()
	v.sliders.RemoveAll()
	if t == nil {
		v.rowSel.Options, v.colSel.Options = nil, nil
		v.rowSel.Refresh()
		v.colSel.Refresh()
		return
	}
	row, col := v.in.Axes()
	showAxes(v.rowSel, v.colSel, v.sliders, t.Shape(), row, col, v.in.Fixed(), v.changeAxes,
		func(axis, i int) { v.in.SetFixed(axis, i) })
}

// changeAxes sets a new row or column axis, swapping when both would be
// the same axis.
func (v *inspectorView) changeAxes(row, col int) {
	r0, c0 := v.in.Axes()
	r, c := pickAxes(r0, c0, row, col)
	if err := v.in.SetAxes(r, c); err != nil {
		v.setHeatNote(err.Error())
	}
	v.rebuildAxes()
}

// newAxisSlider holds one non-plotted axis at an index: a slider and a
// number entry kept in step.
func newAxisSlider(axis, n, value int, set func(int)) fyne.CanvasObject {
	s := widget.NewSlider(0, float64(n-1))
	s.Step = 1
	s.SetValue(float64(value))
	e := widget.NewEntry()
	e.SetText(strconv.Itoa(value))
	s.OnChanged = func(f float64) {
		i := int(f)
		if e.Text != strconv.Itoa(i) {
			e.SetText(strconv.Itoa(i))
		}
		set(i)
	}
	e.OnSubmitted = func(text string) {
		i, err := strconv.Atoi(strings.TrimSpace(text))
		if err != nil || i < 0 || i >= n {
			e.SetText(strconv.Itoa(int(s.Value)))
			return
		}
		s.SetValue(float64(i))
	}
	label := widget.NewLabel(fmt.Sprintf("axis %d", axis))
	right := container.NewHBox(container.NewGridWrap(fyne.NewSize(themePx(70), e.MinSize().Height), e),
		widget.NewLabel(fmt.Sprintf("/ %d", n-1)))
	return container.NewBorder(nil, nil, label, right, s)
}

// valuesTab is a virtualised table of the current plane's exact values.
func (v *inspectorView) valuesTab() fyne.CanvasObject {
	v.values = widget.NewTableWithHeaders(
		func() (int, int) {
			// A table not laid out yet (its tab hidden, or a render of
			// another view) takes every row and column as visible and
			// makes a separator for each: 134M of them for a vector of
			// 134M values. It has none until it has a size.
			if s := v.values.Size(); s.Width < 1 || s.Height < 1 {
				return 0, 0
			}
			return v.in.PlaneSize()
		},
		func() fyne.CanvasObject {
			// The template is as wide as the widest value of the dtype:
			// the table sizes its columns by it, so no number overflows.
			l := widget.NewLabel(strings.Repeat("0", v.in.ValueCellChars()))
			l.Alignment = fyne.TextAlignTrailing
			l.TextStyle.Monospace = true
			return l
		},
		func(id widget.TableCellID, o fyne.CanvasObject) {
			l := o.(*widget.Label)
			l.Alignment = fyne.TextAlignTrailing // numbers line up on the right, text on the left
			if v.in.ShowsText() {
				l.Alignment = fyne.TextAlignLeading
			}
			l.SetText(v.in.ValueCellText(id.Row, id.Col))
		})
	v.values.CreateHeader = func() fyne.CanvasObject {
		l := widget.NewLabel("")
		l.TextStyle.Bold = true
		return l
	}
	v.values.UpdateHeader = func(id widget.TableCellID, o fyne.CanvasObject) {
		l := o.(*widget.Label)
		switch {
		case id.Row < 0 && id.Col >= 0:
			l.SetText(strconv.Itoa(id.Col))
		case id.Col < 0 && id.Row >= 0:
			l.SetText(strconv.Itoa(id.Row))
		default:
			l.SetText("")
		}
	}
	return container.NewBorder(v.newExprSlot(), nil, nil, nil, v.values)
}

// sizeValueColumns gives text (strings, records) wide columns, and shows
// the Values tab for it: text has no heatmap or histogram.
func (v *inspectorView) sizeValueColumns() {
	width := themePx(120)
	if v.in.ShowsText() {
		width = themePx(240)
		if _, cols := v.in.PlaneSize(); cols == 1 {
			width = themePx(900)
		}
		v.tabs.SelectIndex(2)
	}
	for c := 0; c < 64; c++ {
		v.values.SetColumnWidth(c, width)
	}
	v.values.Refresh()
}

func (v *inspectorView) refreshValues() {
	v.values.Refresh()
}

// histogramTab builds the histogram controls and plot.
func (v *inspectorView) histogramTab() fyne.CanvasObject {
	v.hist = newHistogramView(v.in)
	scope := widget.NewRadioGroup(histScopeLabels, nil)
	scope.Horizontal = true
	scope.OnChanged = func(label string) {
		if i := slices.Index(histScopeLabels, label); i >= 0 && !v.syncing {
			v.in.SetHistScope(viewmodel.HistScope(i))
		}
	}
	var binOpts []string
	for _, b := range viewmodel.HistBinChoices {
		binOpts = append(binOpts, strconv.Itoa(b))
	}
	bins := widget.NewSelect(binOpts, func(s string) {
		if n, err := strconv.Atoi(s); err == nil && !v.syncing {
			v.in.SetHistBins(n)
		}
	})
	logc := widget.NewCheck("Log counts", func(on bool) {
		if !v.syncing {
			v.in.SetHistLog(on)
		}
	})
	lo, hi := widget.NewEntry(), widget.NewEntry()
	lo.SetPlaceHolder("low")
	hi.SetPlaceHolder("high")
	manual := widget.NewCheck("Range", nil)
	apply := func() {
		if v.syncing {
			return
		}
		if !manual.Checked {
			v.in.SetHistRange(viewmodel.RangeAuto, 0, 0)
			return
		}
		l, err1 := strconv.ParseFloat(strings.TrimSpace(lo.Text), 64)
		h, err2 := strconv.ParseFloat(strings.TrimSpace(hi.Text), 64)
		if err1 == nil && err2 == nil {
			if err := v.in.SetHistRange(viewmodel.RangeManual, l, h); err != nil {
				v.hist.note.SetText(err.Error())
			}
		}
	}
	manual.OnChanged = func(bool) { apply() }
	lo.OnSubmitted = func(string) { apply() }
	hi.OnSubmitted = func(string) { apply() }
	v.binsSel, v.histLog, v.histManual, v.histScope, v.histLo, v.histHi = bins, logc, manual, scope, lo, hi
	v.binsBox = container.NewHBox(widget.NewLabel("Bins"), bins)
	controls := newFlowStretchingLast(scope, v.binsBox, logc,
		container.NewHBox(manual,
			container.NewGridWrap(fyne.NewSize(themePx(90), lo.MinSize().Height), lo),
			container.NewGridWrap(fyne.NewSize(themePx(90), hi.MinSize().Height), hi)),
		v.newExprSlot())
	v.hist.area = newHoverRaster(v.hist.plot.raster, v.hist.hoverAt)
	return container.NewBorder(controls, container.NewVBox(v.hist.note, v.hist.hover), nil, nil,
		v.hist.area)
}

// showBinCount shows the bin count only when it applies: an integer
// histogram of one bin per value ignores it.
func (v *inspectorView) showBinCount() {
	show := !v.in.OneBinPerValue()
	if show == v.binsBox.Visible() {
		return
	}
	if show {
		v.binsBox.Show()
	} else {
		v.binsBox.Hide()
	}
	v.content.Refresh()
}

// histogramView draws the inspector's histogram at the size it is given.
type histogramView struct {
	in    *viewmodel.Inspector
	plot  *plotRaster
	note  *widget.Label
	hover *widget.Label // the bar under the pointer: its range and count
	area  *hoverRaster  // the raster, reporting the pointer
}

func newHistogramView(in *viewmodel.Inspector) *histogramView {
	h := &histogramView{in: in, note: widget.NewLabel(""), hover: widget.NewLabel("")}
	h.plot = newPlotRaster(func(w, ht int) image.Image { return in.RenderHistogram(w, ht, plotStyle()) }, themeSize(240, 120))
	return h
}

// hoverAt shows the bar under pixel column x of the drawn histogram.
func (h *histogramView) hoverAt(x float64) {
	h.hover.SetText(h.in.HistogramInfoAt(x, h.plot.key[0], h.plot.key[1]))
}

func (h *histogramView) update() {
	_, err := h.in.Histogram()
	if err != nil {
		h.note.SetText(err.Error())
	} else {
		h.note.SetText(h.in.HistogramNote())
	}
	h.plot.update()
}
