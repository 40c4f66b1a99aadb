package ui

import (
	"image"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"tensorscope/viewmodel/compare"
)

// comparePairView shows the selected pair of a comparison: axis and slider
// controls shared by the A, B and A−B heatmaps (zoom and pan on any of
// them move all three), the difference mode, and the A/B and A−B
// histograms side by side.
type comparePairView struct {
	c       *compare.Comparison
	content fyne.CanvasObject

	title    *widget.Label
	message  *widget.Label
	body     *container.AppTabs
	rowSel   *widget.Select
	colSel   *widget.Select
	sliders  *fyne.Container
	mode     *widget.RadioGroup
	heats    [3]*heatmapView
	bars     [3]*colorBar
	areas    [3]*fyne.Container
	hover    *widget.Label
	heatNote *widget.Label
	row      *fyne.Container // the three heatmaps side by side

	overlay, diffHist *plotRaster
	histNote          *widget.Label

	shown   *compare.PairView // the pair the controls were built for
	syncing bool
}

// headings name the three heatmaps after the files.
func (v *comparePairView) headings() [3]string {
	a, b := v.c.Names()
	return [3]string{"A: " + a, "B: " + b, "A − B"}
}

func newComparePairView(c *compare.Comparison) *comparePairView {
	v := &comparePairView{c: c}
	v.title = widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	v.title.Truncation = fyne.TextTruncateEllipsis
	v.message = widget.NewLabel("Select a pair to see A, B and A − B.")
	v.message.Wrapping = fyne.TextWrapWord
	v.hover = widget.NewLabel("")
	v.hover.Truncation = fyne.TextTruncateEllipsis
	v.heatNote = widget.NewLabel("")
	v.heatNote.Wrapping = fyne.TextWrapWord
	v.histNote = widget.NewLabel("")
	v.histNote.Wrapping = fyne.TextWrapWord
	v.body = container.NewAppTabs(
		container.NewTabItem("Heatmaps", v.heatmapsTab()),
		container.NewTabItem("Histograms", v.histogramsTab()),
	)
	v.body.OnSelected = func(*container.TabItem) { v.refreshAll() }
	v.content = container.NewBorder(container.NewVBox(v.title, v.message), nil, nil, nil, v.body)
	v.update(compare.ChangedAll)
	return v
}

func (v *comparePairView) heatmapsTab() fyne.CanvasObject {
	v.rowSel = widget.NewSelect(nil, nil)
	v.colSel = widget.NewSelect(nil, nil)
	v.sliders = container.NewVBox()
	v.mode = widget.NewRadioGroup([]string{"a − b", "(a − b)/|a|"}, func(s string) {
		if v.syncing || v.c.Pair() == nil {
			return
		}
		mode := compare.DiffAbsolute
		if s == v.mode.Options[1] {
			mode = compare.DiffRelative
		}
		v.c.Pair().SetMode(mode)
	})
	v.mode.Horizontal = true
	v.mode.Required = true
	whole := widget.NewButton("Whole plane", func() {
		if p := v.c.Pair(); p != nil {
			p.ResetView()
		}
	})
	controls := container.NewHBox(widget.NewLabel("Rows"), v.rowSel, widget.NewLabel("Columns"), v.colSel,
		widget.NewLabel("A − B:"), v.mode, whole)
	var cols []fyne.CanvasObject
	headings := v.headings()
	for i := range v.heats {
		v.heats[i] = newHeatmapView(v.c.Panel(compare.Panel(i)), func(s string) { v.hover.SetText(s) })
		v.bars[i] = newColorBar(v.c.Panel(compare.Panel(i)))
		v.areas[i] = newHeatmapArea(v.heats[i], v.bars[i])
		head := widget.NewLabelWithStyle(headings[i], fyne.TextAlignCenter, fyne.TextStyle{Bold: true})
		head.Truncation = fyne.TextTruncateEllipsis
		cols = append(cols, container.NewBorder(head, nil, nil, nil, v.areas[i]))
	}
	v.row = container.NewGridWithColumns(3, cols...)
	top := container.NewVBox(container.NewHScroll(controls), v.sliders)
	bottom := container.NewVBox(v.hover, v.heatNote)
	return container.NewBorder(top, bottom, nil, nil, v.row)
}

func (v *comparePairView) histogramsTab() fyne.CanvasObject {
	v.overlay = newPlotRaster(func(w, h int) image.Image {
		if p := v.c.Pair(); p != nil {
			return p.RenderOverlay(w, h, plotStyle())
		}
		return nil
	}, themeSize(240, 160))
	v.diffHist = newPlotRaster(func(w, h int) image.Image {
		if p := v.c.Pair(); p != nil {
			return p.RenderDiffHistogram(w, h, plotStyle())
		}
		return nil
	}, themeSize(240, 160))
	heads := func(text string, o fyne.CanvasObject) fyne.CanvasObject {
		return container.NewBorder(widget.NewLabelWithStyle(text, fyne.TextAlignCenter, fyne.TextStyle{Bold: true}), nil, nil, nil, o)
	}
	return container.NewBorder(nil, v.histNote, nil, nil, container.NewGridWithColumns(2,
		heads("A and B", v.overlay.raster), heads("A − B", v.diffHist.raster)))
}

// update follows the comparison's changes that concern the selected pair.
func (v *comparePairView) update(ch compare.Change) {
	p := v.c.Pair()
	if ch&compare.ChangedPair != 0 || p != v.shown {
		v.shown = p
		v.updatePair()
	}
	if ch&compare.ChangedHeatmaps != 0 {
		for i := range v.heats {
			v.areas[i].Refresh()
			v.heats[i].Refresh()
			v.bars[i].Refresh()
		}
		if p != nil {
			v.heatNote.SetText(p.HeatmapNote())
			if err := p.Err(); err != nil {
				v.heatNote.SetText(err.Error())
			}
		}
	}
	if ch&compare.ChangedHistograms != 0 {
		v.overlay.update()
		v.diffHist.update()
		if p != nil {
			v.histNote.SetText(p.HistogramNote())
		}
	}
}

func (v *comparePairView) updatePair() {
	p := v.shown
	if p == nil {
		v.title.SetText("")
		v.message.SetText("Select a pair to see A, B and A − B.")
		v.message.Show()
		v.body.Hide()
		v.content.Refresh()
		return
	}
	v.title.SetText(p.Name())
	switch err := p.Err(); {
	case err != nil:
		v.message.SetText("Cannot show this pair: " + err.Error())
		v.message.Show()
		v.body.Hide()
	case !p.Loaded():
		v.message.SetText("Loading both tensors…")
		v.message.Show()
		v.body.Hide()
	default:
		v.message.Hide()
		v.body.Show()
	}
	v.syncing = true
	v.mode.SetSelected(v.mode.Options[p.Mode()])
	v.syncing = false
	v.rebuildAxes()
	v.content.Refresh()
}

// rebuildAxes offers the pair's axes and a slider per axis not plotted.
func (v *comparePairView) rebuildAxes() {
	p := v.shown
	v.sliders.RemoveAll()
	if p == nil {
		v.rowSel.OnChanged, v.colSel.OnChanged = nil, nil
		v.rowSel.Options, v.colSel.Options = nil, nil
		v.rowSel.ClearSelected()
		v.colSel.ClearSelected()
		return
	}
	row, col := p.Axes()
	showAxes(v.rowSel, v.colSel, v.sliders, p.Shape(), row, col, p.Fixed(), v.changeAxes,
		func(axis, i int) { p.SetFixed(axis, i) })
}

// changeAxes sets a new row or column axis, swapping when both would be
// the same axis.
func (v *comparePairView) changeAxes(row, col int) {
	p := v.shown
	if p == nil {
		return
	}
	r0, c0 := p.Axes()
	r, c := pickAxes(r0, c0, row, col)
	if err := p.SetAxes(r, c); err != nil {
		v.heatNote.SetText(err.Error())
	}
	v.rebuildAxes()
}

func (v *comparePairView) refreshAll() {
	for i := range v.heats {
		v.heats[i].Refresh()
		v.bars[i].Refresh()
	}
	v.overlay.raster.Refresh()
	v.diffHist.raster.Refresh()
}

// ComparisonHeatmaps is the selected pair of c as `render --view diff`
// draws it: its name, the A, B and A−B heatmaps side by side with their
// colour bars, and the note saying what they show.
func ComparisonHeatmaps(c *compare.Comparison) fyne.CanvasObject {
	v := newComparePairView(c)
	return container.NewBorder(v.title, v.heatNote, nil, nil, v.row)
}
