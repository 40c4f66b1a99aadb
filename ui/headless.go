package ui

import (
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

	"tensorscope/formats"
	"tensorscope/graphview"
	"tensorscope/viewmodel"
)

// The views Render draws.
const (
	ViewHeatmap   = "heatmap"   // the inspector's heatmap and colour bar
	ViewHistogram = "histogram" // the inspector's histogram plot
	ViewGraph     = "graph"     // the graph widget, the whole graph fitted
	ViewWindow    = "window"    // the main window showing the file's tab
)

// RenderViews lists the views in the order usage text gives them.
var RenderViews = []string{ViewHeatmap, ViewHistogram, ViewGraph, ViewWindow}

// RenderOptions is the state a headless render shows.
type RenderOptions struct {
	View          string
	Width, Height int  // pixels; the canvas scale is 1
	Dark          bool // the dark theme variant instead of the light one
	// Tensor is the document index of the tensor to inspect, or -1: the
	// heatmap and histogram then show the first tensor with numeric data,
	// and the window shows a model's Graph pane (a file without a graph:
	// the Tensors pane with that first tensor selected).
	Tensor   int
	Settings InspectorSettings
}

// InspectorSettings are the inspector's controls as a user would set them.
// Zero values keep the GUI's defaults.
type InspectorSettings struct {
	Axes       []int       // row and column axis, nil for the last two
	Index      map[int]int // axis → index for axes not plotted
	Colormap   string      // one of viewmodel.ColormapNames
	Range      viewmodel.RangeMode
	Lo, Hi     float64 // the manual range (heatmap colours, or the histogram's bins)
	Bins       int     // histogram bins, 1..4096
	Reduction  int     // index into viewmodel.Reductions
	Dequantise bool
	LogCounts  bool
	PlaneHist  bool // histogram of the heatmap's plane, not the whole tensor
}

// Render draws a view of doc off-screen with Fyne's software painter:
// the same widgets the GUI shows, brought to the requested state through
// the same viewmodel code and controls, captured once every background
// computation has finished. The views that need a document tab (heatmap,
// histogram, window) open doc.Path again through a viewmodel.Workspace, as
// the GUI does; doc itself is only read. Render makes a Fyne test app the
// current app: one render at a time per process.
func Render(ctx context.Context, doc *formats.Document, opt RenderOptions) (img image.Image, err error) {
	if opt.Width < 1 || opt.Height < 1 {
		return nil, fmt.Errorf("render size %d×%d is empty", opt.Width, opt.Height)
	}
	size := fyne.NewSize(float32(opt.Width), float32(opt.Height))
	onUIGoroutine(func() {
		h := newHeadless(opt.Dark)
		defer h.close()
		switch opt.View {
		case ViewGraph:
			img, err = h.renderGraph(doc, size)
		case ViewHeatmap, ViewHistogram:
			img, err = h.renderInspector(ctx, doc, opt, size)
		case ViewWindow:
			img, err = h.renderWindow(ctx, doc, opt, size)
		default:
			err = fmt.Errorf("unknown view %q (choose %s)", opt.View, strings.Join(RenderViews, ", "))
		}
	})
	return img, err
}

// onUIGoroutine runs f on a goroutine of its own that plays Fyne's UI
// goroutine. Fyne's test driver runs fyne.Do at once, except on the
// process's main goroutine, where it complains and runs it concurrently;
// the headless commands start on the main goroutine.
func onUIGoroutine(f func()) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	<-done
}

// GraphScene lays doc's graph out as the Graph tab first shows it
// (constants folded, top to bottom), measuring text with the theme's font
// as the GUI does, and returns it with the theme's palette for exports.
func GraphScene(doc *formats.Document, dark bool) (s *graphview.Scene, pal graphview.Palette, err error) {
	onUIGoroutine(func() {
		h := newHeadless(dark)
		defer h.close()
		s, err = h.graphScene(doc)
		pal = h.palette()
	})
	return s, pal, err
}

// headless is an off-screen Fyne app whose fyne.Do calls are queued and run
// by settle on the calling goroutine, which plays the UI goroutine: results
// of background work reach the widgets in the order the GUI would see them.
type headless struct {
	app *headlessApp
	win fyne.Window
	ws  *viewmodel.Workspace
}

func newHeadless(dark bool) *headless {
	inner := test.NewApp()
	variant := theme.VariantLight
	if dark {
		variant = theme.VariantDark
	}
	inner.Settings().SetTheme(&variantTheme{Theme: theme.DefaultTheme(), variant: variant})
	a := &headlessApp{App: inner, drv: &headlessDriver{Driver: inner.Driver(), queue: viewmodel.NewQueue()}}
	fyne.SetCurrentApp(a)
	h := &headless{app: a}
	h.ws = viewmodel.NewWorkspace(fyne.Do, a.Preferences())
	h.win = a.NewWindow("Tensorscope")
	return h
}

// close waits for cancelled work still reading mapped files, then releases
// the documents the render opened.
func (h *headless) close() {
	for viewmodel.RunningTasks() > 0 {
		time.Sleep(time.Millisecond)
	}
	h.ws.CloseAll()
	h.win.Close()
}

func (h *headless) palette() graphview.Palette {
	s := h.app.Settings()
	return graphview.ThemePalette(s.Theme(), s.ThemeVariant())
}

// settleTimeout bounds a render's wait for background work; ctx is the
// way to stop earlier.
const settleTimeout = 30 * time.Minute

// settle runs posted functions until no task is running, nothing is
// queued and ready (nil for always) holds. A task posts its result before
// it stops counting, so once none runs and the queue is empty, nothing
// more arrives unless the functions run here start new work.
func (h *headless) settle(ctx context.Context, ready func() bool) error {
	busy := func() bool {
		return ctx.Err() == nil && (viewmodel.RunningTasks() > 0 || (ready != nil && !ready()))
	}
	if !h.app.drv.queue.Drain(busy, settleTimeout) {
		return fmt.Errorf("background work did not finish in %v", settleTimeout)
	}
	return ctx.Err()
}

// capture draws win at size.
func (h *headless) capture(win fyne.Window, size fyne.Size) (image.Image, error) {
	if err := resize(win, size); err != nil {
		return nil, err
	}
	return win.Canvas().Capture(), nil
}

// resize sizes win, which must hold its content's minimum size: a real
// window cannot be made smaller, and Fyne's painter fails on the negative
// sizes layouts would hand out.
func resize(win fyne.Window, size fyne.Size) error {
	min := win.Content().MinSize()
	if win.Padded() {
		min = min.Add(fyne.NewSquareSize(2 * theme.Padding()))
	}
	if size.Width < min.Width || size.Height < min.Height {
		return fmt.Errorf("this view needs at least %.0fx%.0f pixels, not %.0fx%.0f",
			math.Ceil(float64(min.Width)), math.Ceil(float64(min.Height)), size.Width, size.Height)
	}
	win.Resize(size)
	return nil
}

func (h *headless) graphScene(doc *formats.Document) (*graphview.Scene, error) {
	if doc.Graph == nil {
		return nil, fmt.Errorf("this %s has no graph", doc.FormatName)
	}
	m := viewmodel.NewGraphModel(doc, false)
	return graphview.NewScene(m.View(), graphview.SceneOptions{Direction: graphview.TopToBottom})
}

func (h *headless) renderGraph(doc *formats.Document, size fyne.Size) (image.Image, error) {
	s, err := h.graphScene(doc)
	if err != nil {
		return nil, err
	}
	v := graphview.NewGraphView(s)
	h.win.SetPadded(false)
	h.win.SetContent(v)
	if err := resize(h.win, size); err != nil {
		return nil, err
	}
	v.Fit()
	return h.win.Canvas().Capture(), nil
}

// open opens doc's file again through the workspace, as the GUI does.
func (h *headless) open(ctx context.Context, doc *formats.Document, open func(done func(*viewmodel.Doc, error))) (*viewmodel.Doc, error) {
	var d *viewmodel.Doc
	var openErr error
	finished := false
	open(func(vd *viewmodel.Doc, err error) { d, openErr, finished = vd, err, true })
	if err := h.settle(ctx, func() bool { return finished }); err != nil {
		return nil, err
	}
	if openErr != nil {
		return nil, openErr
	}
	return d, nil
}

func (h *headless) openFunc(doc *formats.Document, ws *viewmodel.Workspace) func(done func(*viewmodel.Doc, error)) {
	return func(done func(*viewmodel.Doc, error)) {
		if doc.Path != "" {
			ws.Open(doc.Path, done)
		} else {
			ws.OpenBytes(docName(doc), doc.Bytes(), done)
		}
	}
}

func (h *headless) renderInspector(ctx context.Context, doc *formats.Document, opt RenderOptions, size fyne.Size) (image.Image, error) {
	d, err := h.open(ctx, doc, h.openFunc(doc, h.ws))
	if err != nil {
		return nil, err
	}
	i, err := pickTensor(d.Doc, opt.Tensor)
	if err != nil {
		return nil, err
	}
	v := newInspectorView(h.win, d)
	if err := h.inspect(ctx, v, i, opt.Settings, opt.View == ViewHistogram, func() { v.show(i) }); err != nil {
		return nil, err
	}
	in := v.in
	var content fyne.CanvasObject
	if opt.View == ViewHeatmap {
		if err := in.PlaneErr(); err != nil {
			return nil, err
		}
		if in.Heatmap() == nil {
			return nil, errors.New("no heatmap was computed")
		}
		content = newHeatmapArea(v.heat, v.bar)
	} else {
		hist, err := in.Histogram()
		if err != nil {
			return nil, err
		}
		if hist == nil {
			return nil, errors.New("no histogram was computed")
		}
		content = v.hist.raster
	}
	h.win.SetContent(content)
	return h.capture(h.win, size)
}

// inspect selects tensor i with show and sets the inspector's controls:
// those that survive a change of tensor first, the axes once the tensor's
// shape is known. The range applies to the histogram's bins when hist is
// set, else to the heatmap's colours. It returns when every computation
// has finished.
func (h *headless) inspect(ctx context.Context, v *inspectorView, i int, s InspectorSettings, hist bool, show func()) error {
	if err := s.setControls(v, hist); err != nil {
		return err
	}
	show()
	in := v.in
	if err := h.settle(ctx, func() bool { return in.Tensor() != nil || in.Err() != nil }); err != nil {
		return err
	}
	if err := in.Err(); err != nil {
		return fmt.Errorf("tensor %q: %w", in.Entry().Name, err)
	}
	if err := s.setAxes(v); err != nil {
		return fmt.Errorf("tensor %q: %w", in.Entry().Name, err)
	}
	if err := h.settle(ctx, nil); err != nil {
		return err
	}
	if err := in.Err(); err != nil {
		return fmt.Errorf("tensor %q: %w", in.Entry().Name, err)
	}
	return nil
}

func (h *headless) renderWindow(ctx context.Context, doc *formats.Document, opt RenderOptions, size fyne.Size) (image.Image, error) {
	mw := NewMainWindow(h.app, Options{AppID: "io.github.tensorscope"})
	h.ws = mw.ws // closed with the render
	dt := mw.beginOpen(docName(doc))
	_, err := h.open(ctx, doc, func(done func(*viewmodel.Doc, error)) {
		h.openFunc(doc, mw.ws)(func(d *viewmodel.Doc, err error) {
			if err != nil {
				mw.opening--
				mw.removeTab(dt)
			} else {
				mw.finishOpen(dt, d, nil)
			}
			done(d, err)
		})
	})
	if err != nil {
		return nil, err
	}
	// The graph is laid out first, so that the order in which results
	// arrive cannot differ between runs.
	graphReady := func() bool {
		return dt.graph == nil || !strings.HasPrefix(dt.graph.status.Text, "Laying out")
	}
	if err := h.settle(ctx, graphReady); err != nil {
		return nil, err
	}
	if opt.Tensor >= 0 || dt.graph == nil {
		i, err := pickTensor(dt.doc.Doc, opt.Tensor)
		if err != nil {
			return nil, err
		}
		if err := h.inspect(ctx, dt.tensors.inspector, i, opt.Settings, false, func() { dt.inspectTensor(i) }); err != nil {
			return nil, err
		}
	}
	return h.capture(mw.win, size)
}

func docName(doc *formats.Document) string {
	if doc.Path == "" {
		return "document"
	}
	return filepath.Base(doc.Path)
}

// pickTensor returns index, or for -1 the first tensor with numeric data.
func pickTensor(doc *formats.Document, index int) (int, error) {
	if index >= 0 {
		if index >= len(doc.Tensors) {
			return 0, fmt.Errorf("no tensor %d (the file has %d)", index, len(doc.Tensors))
		}
		return index, nil
	}
	for i, e := range doc.Tensors {
		if e.HasData() && e.DType.Numeric() {
			return i, nil
		}
	}
	return 0, errors.New("the file has no tensor with numeric data to show")
}

// setControls sets what does not depend on the tensor through the
// inspector's own widgets, whose callbacks update the viewmodel.
func (s InspectorSettings) setControls(v *inspectorView, hist bool) error {
	if s.Colormap != "" {
		if viewmodel.ColormapByName(s.Colormap) == nil {
			return fmt.Errorf("unknown colour map %q (choose %s)", s.Colormap, strings.Join(viewmodel.ColormapNames(), ", "))
		}
		v.cmapSel.SetSelected(s.Colormap)
	}
	if s.Reduction < 0 || s.Reduction >= len(viewmodel.Reductions) {
		return fmt.Errorf("no reduction %d", s.Reduction)
	}
	v.redSel.SetSelectedIndex(s.Reduction)
	if s.Range == viewmodel.RangeManual && !(s.Lo < s.Hi) {
		return fmt.Errorf("the range needs low < high (got %g, %g)", s.Lo, s.Hi)
	}
	lo, hi := strconv.FormatFloat(s.Lo, 'g', -1, 64), strconv.FormatFloat(s.Hi, 'g', -1, 64)
	switch {
	case hist && s.Range == viewmodel.RangeSymmetric:
		return errors.New("a histogram's range is automatic or manual, not symmetric")
	case hist && s.Range == viewmodel.RangeManual:
		v.histLo.SetText(lo)
		v.histHi.SetText(hi)
		v.histManual.SetChecked(true)
	case !hist && s.Range == viewmodel.RangeManual:
		v.rangeLo.SetText(lo)
		v.rangeHi.SetText(hi)
		v.rangeSel.SetSelectedIndex(int(s.Range))
	case !hist:
		v.rangeSel.SetSelectedIndex(int(s.Range))
	}
	if s.Bins != 0 {
		if s.Bins < 1 || s.Bins > 4096 {
			return fmt.Errorf("bins must be 1–4096, not %d", s.Bins)
		}
		text := strconv.Itoa(s.Bins)
		if !slices.Contains(v.binsSel.Options, text) {
			v.binsSel.Options = append(v.binsSel.Options, text)
		}
		v.binsSel.SetSelected(text)
	}
	v.histLog.SetChecked(s.LogCounts)
	if s.PlaneHist {
		v.histScope.SetSelected("Current plane")
	}
	v.dequant.SetChecked(s.Dequantise)
	return nil
}

// setAxes chooses the plotted axes and holds the others, as the axis
// selectors and sliders do.
func (s InspectorSettings) setAxes(v *inspectorView) error {
	in := v.in
	rank := in.Tensor().Rank()
	if s.Axes != nil {
		if len(s.Axes) != 2 {
			return fmt.Errorf("axes need a row and a column axis, not %v", s.Axes)
		}
		if rank < 2 {
			return fmt.Errorf("a tensor of rank %d has no axes to choose", rank)
		}
		if err := in.SetAxes(s.Axes[0], s.Axes[1]); err != nil {
			return err
		}
	}
	row, col := in.Axes()
	axes := make([]int, 0, len(s.Index))
	for a := range s.Index {
		axes = append(axes, a)
	}
	slices.Sort(axes)
	for _, a := range axes {
		if a == row || a == col {
			return fmt.Errorf("axis %d is plotted; an index applies to the other axes", a)
		}
		if a < 0 || a >= rank {
			return fmt.Errorf("no axis %d in a tensor of rank %d", a, rank)
		}
		if err := in.SetFixed(a, s.Index[a]); err != nil {
			return err
		}
	}
	v.rebuildAxes()
	return nil
}

// variantTheme is a theme fixed to one variant whatever the system
// prefers, so renders do not depend on the machine's settings.
type variantTheme struct {
	fyne.Theme
	variant fyne.ThemeVariant
}

func (t *variantTheme) Color(n fyne.ThemeColorName, _ fyne.ThemeVariant) color.Color {
	return t.Theme.Color(n, t.variant)
}

// headlessApp is Fyne's test app with a driver that queues fyne.Do.
type headlessApp struct {
	fyne.App
	drv *headlessDriver
}

func (a *headlessApp) Driver() fyne.Driver { return a.drv }

// headlessDriver queues functions posted with fyne.Do for settle to run;
// the test driver would run them at once on the posting goroutine. As in
// the GUI, fyne.DoAndWait must not be called on the UI goroutine itself.
type headlessDriver struct {
	fyne.Driver
	queue *viewmodel.Queue

	// measure serialises text measurement: graph scenes are laid out on
	// a goroutine of their own (GraphView.Load) with fyne.MeasureText,
	// and the font caches below it are not safe for concurrent use.
	measure sync.Mutex
}

func (d *headlessDriver) RenderedTextSize(text string, size float32, style fyne.TextStyle, source fyne.Resource) (fyne.Size, float32) {
	d.measure.Lock()
	defer d.measure.Unlock()
	return d.Driver.RenderedTextSize(text, size, style, source)
}

func (d *headlessDriver) DoFromGoroutine(f func(), wait bool) {
	if !wait {
		d.queue.Post(f)
		return
	}
	done := make(chan struct{})
	d.queue.Post(func() {
		defer close(done)
		f()
	})
	<-done
}
