package ui

import (
	"fmt"
	"image/color"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"tensorscope/viewmodel"
	"tensorscope/viewmodel/summary"
	"tensorscope/viewmodel/textfmt"
)

// overviewPane is the Overview tab: the model's totals and headline, a
// table of every tensor's figures and flags, the block fingerprint and the
// metric across layers. Its state is the document's viewmodel.Overview,
// computed once in the background.
type overviewPane struct {
	ov       *viewmodel.Overview
	content  fyne.CanvasObject
	filter   *keyEntry
	table    *keyTable
	totals   *fyne.Container
	status   *widget.Label
	bar      *widget.ProgressBar
	cancel   *widget.Button
	fp       *Fingerprint
	fpScroll *container.Scroll // a model of many layers scrolls its fingerprint
	hover    *widget.Label
	layers   *layersPlot
	block    *widget.Select
	// progressRow holds the status, the bar and the button, laid out
	// again when the button's text changes width.
	progressRow *fyne.Container
	barBox      *fyne.Container    // the progress bar, shown while the summary runs
	inspect     func(docIndex int) // shows a tensor in the inspector
}

// flagColours mark the flags in the table and the plots.
var flagColours = map[string]color.NRGBA{
	summary.FlagNaN:          {0xd0, 0x20, 0x20, 0xff},
	summary.FlagInf:          {0xd0, 0x20, 0x90, 0xff},
	summary.FlagAllZero:      {0x80, 0x80, 0x80, 0xff},
	summary.FlagConstant:     {0x30, 0x70, 0xc0, 0xff},
	summary.FlagDeadRows:     {0xc0, 0x70, 0x10, 0xff},
	summary.FlagLayerAnomaly: {0xe0, 0x40, 0x00, 0xff},
}

func newOverviewPane(ov *viewmodel.Overview, inspect func(docIndex int)) *overviewPane {
	p := &overviewPane{ov: ov, inspect: inspect}
	p.filter = newKeyEntry(nil)
	p.filter.SetPlaceHolder("Filter tensors by name or flag (Ctrl+F)")
	p.filter.OnChanged = func(s string) { ov.SetFilter(s) }
	p.status = widget.NewLabel("")
	p.bar = widget.NewProgressBar()
	p.cancel = widget.NewButton("Cancel", func() {
		if ov.Running {
			ov.Cancel()
		} else {
			ov.Start()
		}
	})
	p.totals = container.NewVBox()
	p.makeTable()

	p.fp = NewFingerprint()
	p.fpScroll = container.NewScroll(p.fp)
	p.hover = widget.NewLabel("Hover a cell for its tensor; click to inspect it.")
	p.hover.Truncation = fyne.TextTruncateEllipsis
	p.fp.OnHover = func(s string) {
		if s == "" {
			s = "Hover a cell for its tensor; click to inspect it."
		}
		p.hover.SetText(s)
	}
	p.fp.OnTapped = p.inspectTensor
	metric := widget.NewSelect(summary.MetricNames, func(s string) {
		if m, err := summary.ParseMetric(s); err == nil {
			ov.SetMetric(m)
		}
	})
	metric.SetSelected(ov.Metric.String())
	var blocks []string
	for _, b := range ov.Model.Blocks {
		blocks = append(blocks, fmt.Sprintf("%s (%d × %d)", b.Prefix, len(b.Indices), len(b.Roles)))
	}
	p.block = widget.NewSelect(blocks, func(string) { ov.SetBlock(p.block.SelectedIndex()) })
	if ov.Block >= 0 {
		p.block.SetSelectedIndex(ov.Block)
	}
	p.layers = newLayersPlot()
	p.layers.onTapped = p.inspectTensor

	controls := container.NewHBox(widget.NewLabel("Metric"), metric, widget.NewLabel("Layers"), p.block)
	right := container.NewVSplit(
		container.NewBorder(controls, p.hover, nil, nil, p.fpScroll),
		p.layers)
	right.Offset = 0.55
	left := container.NewBorder(p.filter, nil, nil, nil, p.table)
	split := container.NewHSplit(left, right)
	split.Offset = 0.55
	p.barBox = container.NewGridWrap(fyne.NewSize(260, p.bar.MinSize().Height), p.bar)
	p.progressRow = container.NewBorder(nil, nil, nil, container.NewHBox(p.barBox, p.cancel), p.status)
	if len(ov.Model.Blocks) == 0 {
		p.hover.Hide() // nothing to hover or choose: the fingerprint says why
		p.block.Disable()
	}
	top := container.NewVBox(p.totals, p.progressRow)
	// The pane gives up space before the window's other panes do: its
	// minimum is small, and a short window scrolls nothing but squeezes
	// the fingerprint and the plot.
	p.content = container.New(&smallMin{}, container.NewBorder(top, nil, nil, nil, split))
	ov.OnChange = p.refresh
	p.refreshTotals()
	p.refresh()
	return p
}

func (p *overviewPane) inspectTensor(t *summary.Tensor) {
	if i := p.ov.IndexOf(t); i >= 0 {
		if k := p.ov.DocIndex(i); k >= 0 && p.inspect != nil {
			p.inspect(k)
		}
	}
}

func (p *overviewPane) close() { p.ov.OnChange = nil }

// refresh shows the Overview's current state.
func (p *overviewPane) refresh() {
	ov := p.ov
	n, done := len(ov.Model.Tensors), ov.Done()
	flagged := 0
	for _, t := range ov.Model.Tensors {
		if len(t.Flags) > 0 {
			flagged++
		}
	}
	switch {
	case ov.Deferred != "": // a remote document's: started by the button
		p.status.SetText(ov.Deferred)
	case ov.Err != nil:
		p.status.SetText("Summary failed: " + ov.Err.Error())
	case ov.Cancelled:
		p.status.SetText(fmt.Sprintf("Cancelled after %d of %d tensors", done, n))
	case ov.Running:
		p.status.SetText(fmt.Sprintf("Summarising: %d of %d tensors", done, n))
	default:
		p.status.SetText(fmt.Sprintf("%d tensors summarised, %d flagged", n, flagged))
	}
	p.bar.SetValue(ov.Progress)
	text := "Recompute"
	if ov.Running {
		text = "Cancel"
	} else if ov.Deferred != "" {
		text = "Summarise"
	}
	if p.cancel.Text != text || p.barBox.Visible() != ov.Running {
		// The bar shows only while the summary runs.
		p.cancel.SetText(text)
		p.barBox.Hidden = !ov.Running
		p.progressRow.Refresh()
	}
	p.table.Refresh()
	p.fp.SetData(ov.Fingerprint())
	p.fpScroll.Refresh() // the fingerprint's minimum follows its layers
	p.layers.setData(ov.Layers(), ov.Metric)
}

// refreshTotals draws the headline and the totals by dtype as bars.
func (p *overviewPane) refreshTotals() {
	ov := p.ov
	tot := ov.Model.Totals
	head := fmt.Sprintf("%d tensors · %s parameters · %s", tot.Tensors, textfmt.Count(tot.Params), textfmt.Bytes(tot.Bytes))
	if ov.Headline != "" {
		head = ov.Headline + "  —  " + head
	}
	title := widget.NewLabelWithStyle(head, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	title.Truncation = fyne.TextTruncateEllipsis
	p.totals.Objects = []fyne.CanvasObject{title}
	for i, d := range tot.DTypes {
		if i == 6 {
			break // the rest are in the table
		}
		s := tot.ByDType[d]
		frac := float32(0)
		if tot.Bytes > 0 {
			frac = float32(s.Bytes) / float32(tot.Bytes)
		}
		label := fmt.Sprintf("%-9s %d tensors, %s parameters, %s", d, s.Tensors, textfmt.Count(s.Params), textfmt.Bytes(s.Bytes))
		p.totals.Objects = append(p.totals.Objects, newShareBar(frac, label))
	}
	p.totals.Refresh()
}

// shareBar is a bar as long as a share of the width, with a label.
type shareBar struct {
	widget.BaseWidget
	frac  float32
	label string
}

func newShareBar(frac float32, label string) *shareBar {
	b := &shareBar{frac: frac, label: label}
	b.ExtendBaseWidget(b)
	return b
}

func (b *shareBar) CreateRenderer() fyne.WidgetRenderer {
	rect := canvas.NewRectangle(theme.Color(theme.ColorNamePrimary))
	text := canvas.NewText(b.label, theme.Color(theme.ColorNameForeground))
	text.TextSize = theme.TextSize() * 0.85
	r := &shareBarRenderer{b: b, rect: rect, text: text}
	return r
}

type shareBarRenderer struct {
	b    *shareBar
	rect *canvas.Rectangle
	text *canvas.Text
}

const shareBarWidth = 220

func (r *shareBarRenderer) Layout(size fyne.Size) {
	h := r.text.MinSize().Height
	r.rect.Move(fyne.NewPos(0, 3))
	r.rect.Resize(fyne.NewSize(max(1, shareBarWidth*r.b.frac), h-6))
	r.text.Move(fyne.NewPos(shareBarWidth+8, 0))
	r.text.Resize(r.text.MinSize())
}
func (r *shareBarRenderer) MinSize() fyne.Size {
	return fyne.NewSize(shareBarWidth+8+r.text.MinSize().Width, r.text.MinSize().Height)
}
func (r *shareBarRenderer) Refresh()                     { r.Layout(r.b.Size()) }
func (r *shareBarRenderer) Objects() []fyne.CanvasObject { return []fyne.CanvasObject{r.rect, r.text} }
func (r *shareBarRenderer) Destroy()                     {}

var overviewWidths = []float32{260, 70, 100, 80, 80, 80, 80, 70, 70, 70, 200}

// cellText is column c of tensor t in the table.
func cellText(t *summary.Tensor, c viewmodel.OverviewColumn) string {
	num := func(m summary.Metric) string {
		if !t.Done {
			return "…"
		}
		v := t.Value(m)
		if v != v {
			return "–"
		}
		return textfmt.Float(v, 4)
	}
	switch c {
	case viewmodel.OverviewName:
		return t.Name
	case viewmodel.OverviewDType:
		return t.DType
	case viewmodel.OverviewShape:
		return textfmt.Dims(t.Shape)
	case viewmodel.OverviewParams:
		return textfmt.Count(t.Params)
	case viewmodel.OverviewStd:
		return num(summary.MetricStd)
	case viewmodel.OverviewAbsMax:
		return num(summary.MetricAbsMax)
	case viewmodel.OverviewKurtosis:
		return num(summary.MetricKurtosis)
	case viewmodel.OverviewOutlier:
		return num(summary.MetricOutlierRatio)
	case viewmodel.OverviewZeros:
		if !t.Done {
			return "…"
		}
		return textfmt.Count(t.Zeros)
	case viewmodel.OverviewDeadRows:
		if !t.Done {
			return "…"
		}
		return textfmt.Count(t.DeadRows)
	}
	return ""
}

func (p *overviewPane) makeTable() {
	ov := p.ov
	p.table = newKeyTable(nil,
		func() (int, int) { return len(ov.Rows()), len(viewmodel.OverviewColumns) },
		func() fyne.CanvasObject {
			l := widget.NewLabel("")
			l.Truncation = fyne.TextTruncateEllipsis
			return container.NewStack(l, container.NewHBox())
		},
		func(id widget.TableCellID, o fyne.CanvasObject) {
			rows := ov.Rows()
			if id.Row >= len(rows) {
				return
			}
			t := ov.Model.Tensors[rows[id.Row]]
			st := o.(*fyne.Container)
			label, marks := st.Objects[0].(*widget.Label), st.Objects[1].(*fyne.Container)
			c := viewmodel.OverviewColumn(id.Col)
			if c != viewmodel.OverviewFlags {
				label.SetText(cellText(t, c))
				label.Show()
				marks.Hide()
				return
			}
			label.Hide()
			marks.Objects = marks.Objects[:0]
			for _, f := range t.Flags {
				txt := canvas.NewText("● "+f, flagColours[f])
				txt.TextStyle.Bold = true
				marks.Objects = append(marks.Objects, container.NewCenter(txt))
			}
			if !t.Done {
				marks.Objects = append(marks.Objects, container.NewCenter(canvas.NewText("…", theme.Color(theme.ColorNameDisabled))))
			}
			marks.Show()
			marks.Refresh()
		})
	p.table.ShowHeaderColumn = false
	p.table.CreateHeader = func() fyne.CanvasObject {
		return widget.NewButton("", nil)
	}
	p.table.UpdateHeader = func(id widget.TableCellID, o fyne.CanvasObject) {
		if id.Col < 0 {
			return
		}
		b := o.(*widget.Button)
		c := viewmodel.OverviewColumn(id.Col)
		col, desc := ov.Sort()
		b.SetText(sortedTitle(viewmodel.OverviewColumns[id.Col], col == c, desc))
		b.Importance = widget.LowImportance
		b.OnTapped = func() { ov.SortBy(c) }
	}
	for i, w := range overviewWidths {
		p.table.SetColumnWidth(i, w)
	}
	// A click inspects its row at once; Up, Down, PgUp, PgDn, Home and
	// End (in the table or its filter) move a selection, which Enter
	// inspects.
	p.table.OnRowSelected = func(row int, byKey bool) {
		if !byKey {
			p.inspectRow(row)
		}
	}
	p.filter.nav = func(ev *fyne.KeyEvent) bool {
		if ev.Name == fyne.KeyReturn || ev.Name == fyne.KeyEnter {
			return p.inspectRow(p.table.row)
		}
		return p.table.navigate(ev)
	}
}

// inspectRow opens row of the table in the inspector, reporting whether
// there was such a row.
func (p *overviewPane) inspectRow(row int) bool {
	rows := p.ov.Rows()
	if row < 0 || row >= len(rows) {
		return false
	}
	p.table.UnselectAll()
	if k := p.ov.DocIndex(rows[row]); k >= 0 && p.inspect != nil {
		p.inspect(k)
	}
	return true
}

// focusFilter puts the cursor in the table's filter.
func (p *overviewPane) focusFilter(c fyne.Canvas) { c.Focus(p.filter) }

// roleColours are the line colours of the layer plot, in turn.
var roleColours = []color.NRGBA{
	{0x1f, 0x77, 0xb4, 0xff}, {0xff, 0x7f, 0x0e, 0xff}, {0x2c, 0xa0, 0x2c, 0xff}, {0x94, 0x67, 0xbd, 0xff},
	{0x8c, 0x56, 0x4b, 0xff}, {0xe3, 0x77, 0xc2, 0xff}, {0x7f, 0x7f, 0x7f, 0xff}, {0xbc, 0xbd, 0x22, 0xff},
	{0x17, 0xbe, 0xcf, 0xff},
}

func roleLabel(s string) string { return strings.TrimSuffix(s, ".weight") }

// smallMin lays its objects out over the whole space but asks for little,
// so that a pane full of plots does not set the window's minimum size.
type smallMin struct{}

func (*smallMin) MinSize([]fyne.CanvasObject) fyne.Size { return fyne.NewSize(200, 200) }

func (*smallMin) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objects {
		o.Move(fyne.Position{})
		o.Resize(size)
	}
}
