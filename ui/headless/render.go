// Package headless draws the viewer's views off-screen with Fyne's software
// painter, for the render and export commands and for tests: the same
// widgets the GUI shows, built from a viewmodel brought to the requested
// settings and settled (every computation finished), never driven through
// their controls.
package headless

import (
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"math"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

	"tensorscope/formats"
	"tensorscope/graphview"
	"tensorscope/ui"
	"tensorscope/viewmodel"
	"tensorscope/viewmodel/compare"
	"tensorscope/viewmodel/summary"
)

// The views Render draws.
const (
	ViewHeatmap   = "heatmap"   // the inspector's heatmap and colour bar
	ViewHistogram = "histogram" // the inspector's histogram plot
	ViewPlot      = "plot"      // a vector's value against index (bars, line or min–max band)
	ViewGraph     = "graph"     // the graph widget, the whole graph fitted
	ViewWindow    = "window"    // the main window showing the file's tab
	ViewDiff      = "diff"      // A, B and A−B heatmaps of one tensor of two files (diff.go)
	ViewSummary   = "summary"   // the block fingerprint of the model summary (summary.go)
)

// MaxSide is the largest side of a rendered image in pixels: large enough
// for any screen, small enough that the software painter's canvas stays a
// few hundred megabytes.
const MaxSide = 8192

// Views lists the views in the order usage text gives them.
var Views = []string{ViewHeatmap, ViewPlot, ViewHistogram, ViewGraph, ViewWindow, ViewDiff, ViewSummary}

// Options is the state a headless render shows.
type Options struct {
	View          string
	Width, Height int // pixels; the canvas scale is 1
	// Grow says Width and Height are a default, not the user's choice: a
	// view whose content needs more (the fingerprint of 250 layers) is
	// drawn at the size it needs, up to MaxSide, instead of refused.
	Grow bool
	Dark bool // the dark theme variant instead of the light one
	// Tensor is the document index of the tensor to inspect, or -1: the
	// heatmap and histogram then show the first tensor with numeric data,
	// and the window shows a model's Graph pane (a file without a graph:
	// the Tensors pane with that first tensor selected).
	Tensor int
	// Settings are the inspector's, made with
	// viewmodel.DefaultInspectorSettings and its setters; the zero value
	// means the defaults.
	Settings viewmodel.InspectorSettings
	// Graph are the graph view's settings, made with
	// viewmodel.DefaultGraphSettings and its setters; nil means the
	// defaults. The graph view and a model's window show them.
	Graph *viewmodel.GraphSettings
	// With is file B of ViewDiff, and Compare its settings (the plane and
	// colours of A and B, and the difference), made with
	// compare.DefaultSettings and its setters.
	With    *formats.Document
	Compare compare.Settings
	// Metric colours ViewSummary's fingerprint.
	Metric summary.Metric
}

// Render draws a view of doc off-screen with Fyne's software painter:
// the same widgets the GUI shows, built from a viewmodel given the
// requested settings, captured once it reports itself ready. The views that need a document tab (heatmap,
// histogram, window) open doc.Path again through a viewmodel.Workspace, as
// the GUI does; doc itself is only read. Render makes a Fyne test app the
// current app: one render at a time per process.
func Render(ctx context.Context, doc *formats.Document, opt Options) (img image.Image, err error) {
	return Prepare(opt.Dark).Render(ctx, doc, opt)
}

// Prepared is a render's app, made ahead of the render: Prepare makes it
// and loads the fonts text is measured and drawn with (Fyne parses its
// fonts and scans the system's on the first text, about a fifth of a large
// graph's render) on a goroutine of its own, while the caller opens the
// file. A Prepared renders once.
type Prepared struct {
	dark  bool
	ready chan struct{}
	h     *headless // nil once rendered with or closed
}

// Prepare starts making the app of a render in the dark or light theme.
func Prepare(dark bool) *Prepared {
	p := &Prepared{dark: dark, ready: make(chan struct{})}
	go func() {
		defer close(p.ready)
		p.h = newHeadless(dark)
		for _, bold := range []bool{false, true} {
			fyne.MeasureText("M", theme.TextSize(), fyne.TextStyle{Bold: bold})
		}
	}()
	return p
}

// Render draws doc as opt says, with the prepared app when opt asks for
// its theme.
func (p *Prepared) Render(ctx context.Context, doc *formats.Document, opt Options) (img image.Image, err error) {
	<-p.ready
	if p.h == nil {
		return nil, fmt.Errorf("headless: a Prepared renders once")
	}
	if opt.Settings.Colormap == nil {
		opt.Settings = viewmodel.DefaultInspectorSettings()
	}
	if opt.Width < 1 || opt.Height < 1 {
		p.Close()
		return nil, fmt.Errorf("render size %d×%d is empty", opt.Width, opt.Height)
	}
	size := fyne.NewSize(float32(opt.Width), float32(opt.Height))
	onUIGoroutine(func() {
		h := p.h
		p.h = nil
		if opt.Dark != p.dark {
			h.close()
			h = newHeadless(opt.Dark)
		}
		defer h.close()
		h.grow = opt.Grow
		switch opt.View {
		case ViewGraph:
			gs := viewmodel.DefaultGraphSettings()
			if opt.Graph != nil {
				gs = *opt.Graph
			}
			img, err = h.renderGraph(ctx, doc, gs, size)
		case ViewHeatmap, ViewHistogram, ViewPlot:
			img, err = h.renderInspector(ctx, doc, opt, size)
		case ViewWindow:
			img, err = h.renderWindow(ctx, doc, opt, size)
		case ViewDiff:
			img, err = h.renderDiff(ctx, doc, opt, size)
		case ViewSummary:
			img, err = h.renderSummary(ctx, doc, opt, size)
		default:
			err = fmt.Errorf("unknown view %q (choose %s)", opt.View, strings.Join(Views, ", "))
		}
	})
	return img, err
}

// Close releases the prepared app when it was not rendered with (a
// command that stopped on an error).
func (p *Prepared) Close() {
	<-p.ready
	if p.h != nil {
		h := p.h
		p.h = nil
		onUIGoroutine(h.close)
	}
}

// onUIGoroutine runs f on a goroutine of its own that plays Fyne's UI
// goroutine. Fyne's test driver runs fyne.Do at once, except on the
// process's main goroutine, where it complains and runs it concurrently;
// the headless commands start on the main goroutine.
// A panic in f is raised again on the caller's goroutine, so that the
// caller's deferred clean-up (a temporary output file) runs before the
// process ends.
func onUIGoroutine(f func()) {
	done := make(chan struct{})
	var failure string
	go func() {
		defer close(done)
		defer func() {
			if r := recover(); r != nil {
				failure = fmt.Sprintf("%v\n\nin the render goroutine:\n%s", r, debug.Stack())
			}
		}()
		f()
	}()
	<-done
	if failure != "" {
		panic(failure)
	}
}

// GraphScene lays doc's graph out as the Graph tab first shows it
// (constants folded, top to bottom), measuring text with the theme's font
// as the GUI does, and returns it with the theme's palette for exports.
func GraphScene(doc *formats.Document, dark bool) (s *graphview.Scene, pal graphview.Palette, err error) {
	all := viewmodel.DefaultGraphSettings()
	all.Depth = viewmodel.DepthAll // an export is of the whole graph
	return GraphSceneWith(doc, all, dark)
}

// GraphSceneWith is GraphScene laid out as settings ask (the groups
// collapsed to a depth, constants shown, the direction).
func GraphSceneWith(doc *formats.Document, settings viewmodel.GraphSettings, dark bool) (s *graphview.Scene, pal graphview.Palette, err error) {
	onUIGoroutine(func() {
		h := newHeadless(dark)
		defer h.close()
		s, _, err = h.graphSceneWith(doc, settings)
		pal = h.palette()
	})
	return s, pal, err
}

// headless is an off-screen Fyne app whose fyne.Do calls are queued and run
// by settle on the calling goroutine, which plays the UI goroutine: results
// of background work reach the widgets in the order the GUI would see them.
type headless struct {
	app  *headlessApp
	win  fyne.Window
	ws   *viewmodel.Workspace
	grow bool // Options.Grow
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

// close releases the documents the render opened and waits until they are
// unmapped, that is until cancelled work still reading them has returned:
// a render leaves nothing running behind it.
func (h *headless) close() {
	docs := h.ws.Docs
	h.ws.CloseAll()
	for _, d := range docs {
		<-d.Doc.Unmapped()
	}
	h.win.Close()
}

func (h *headless) palette() graphview.Palette {
	s := h.app.Settings()
	return graphview.ThemePalette(s.Theme(), s.ThemeVariant())
}

// settleTimeout bounds a render's wait for background work; ctx is the
// way to stop earlier.
const settleTimeout = 30 * time.Minute

// settle runs posted functions on the calling goroutine (the UI one)
// until ready holds with nothing queued, or ctx is cancelled. ready is a
// viewmodel's own signal (Inspector.Ready, a layout's channel), read on
// this goroutine, so it cannot change while it is checked.
func (h *headless) settle(ctx context.Context, ready func() bool) error {
	busy := func() bool { return ctx.Err() == nil && !ready() }
	if !h.app.drv.queue.Drain(busy, settleTimeout) {
		return fmt.Errorf("background work did not finish in %v", settleTimeout)
	}
	return ctx.Err()
}

// capture draws win at size.
func (h *headless) capture(win fyne.Window, size fyne.Size) (image.Image, error) {
	if _, err := h.fit(win, size); err != nil {
		return nil, err
	}
	return win.Canvas().Capture(), nil
}

// captureInspector is capture for a window showing in: laying it out at
// size may start work sized to it (a plot gets one column per pixel of its
// width), which settles before the capture.
func (h *headless) captureInspector(ctx context.Context, win fyne.Window, size fyne.Size, in *viewmodel.Inspector) (image.Image, error) {
	size, err := h.fit(win, size)
	if err != nil {
		return nil, err
	}
	if err := h.settle(ctx, in.Ready); err != nil {
		return nil, err
	}
	// What settled (statistics in the toolbar) may change minimum sizes
	// after the layout above; whether it arrived before or after that
	// layout must not show in the picture, so lay the whole window out
	// again from its final state, and let work sized to it settle again.
	win.Resize(size.AddWidthHeight(1, 1))
	win.Resize(size)
	if err := h.settle(ctx, in.Ready); err != nil {
		return nil, err
	}
	return win.Canvas().Capture(), nil
}

// fit sizes win and returns the size it got. A window holds at least its
// content's minimum size: a real one cannot be made smaller, and Fyne's
// painter fails on the negative sizes layouts would hand out. A size the
// user chose is refused below that; the default one grows to it (Grow),
// up to MaxSide.
func (h *headless) fit(win fyne.Window, size fyne.Size) (fyne.Size, error) {
	min := win.Content().MinSize()
	if win.Padded() {
		min = min.Add(fyne.NewSquareSize(2 * theme.Padding()))
	}
	min = fyne.NewSize(float32(math.Ceil(float64(min.Width))), float32(math.Ceil(float64(min.Height))))
	if h.grow && min.Width <= MaxSide && min.Height <= MaxSide {
		size = size.Max(min)
	}
	if size.Width < min.Width || size.Height < min.Height {
		return size, fmt.Errorf("this view needs at least %.0fx%.0f pixels, not %.0fx%.0f%s",
			min.Width, min.Height, size.Width, size.Height, beyondMaxSide(min))
	}
	win.Resize(size)
	return size, nil
}

// beyondMaxSide finishes fit's refusal of a view larger than any render.
func beyondMaxSide(min fyne.Size) string {
	if min.Width > MaxSide || min.Height > MaxSide {
		return fmt.Sprintf(", and no side of a render may exceed %d", MaxSide)
	}
	return ""
}

// graphSceneWith lays doc's graph out as settings ask.
func (h *headless) graphSceneWith(doc *formats.Document, settings viewmodel.GraphSettings) (*graphview.Scene, *viewmodel.GraphModel, error) {
	if doc.Graph == nil {
		return nil, nil, fmt.Errorf("this %s has no graph", doc.FormatName)
	}
	m := viewmodel.NewGraphModel(doc, settings.ShowConstants)
	settings.ApplyHierarchy(m)
	m.Reveal(settings.Selected) // a selected node is drawn as itself
	s, err := graphview.NewScene(m.View(), graphview.SceneOptions{Direction: settings.Direction})
	return s, m, err
}

func (h *headless) renderGraph(ctx context.Context, doc *formats.Document, settings viewmodel.GraphSettings, size fyne.Size) (image.Image, error) {
	s, m, err := h.graphSceneWith(doc, settings)
	if err != nil {
		return nil, err
	}
	v := graphview.NewGraphView(s)
	var content fyne.CanvasObject = v
	if metric, ok := settings.ColourMetric(); ok {
		// Coloured as the pane colours it from the Overview's figures,
		// with its colour bar below.
		sm := summary.New(doc)
		if err := sm.Compute(ctx, doc, nil, nil); err != nil {
			return nil, err
		}
		c := viewmodel.ColourByMetric(m, sm, metric)
		v.SetNodeColours(c.Colours)
		// A scroller: a narrow render cuts the bar instead of refusing the size.
		content = container.NewBorder(nil, container.NewHScroll(container.NewHBox(ui.NewColourBar(&c))), nil, nil, v)
	}
	h.win.SetPadded(false)
	h.win.SetContent(content)
	if _, err := h.fit(h.win, size); err != nil {
		return nil, err
	}
	ui.ShowGraphSettings(v, m, settings)
	return h.win.Canvas().Capture(), nil
}

// open opens doc's file again through the workspace ws, as the GUI does.
func (h *headless) open(ctx context.Context, doc *formats.Document, ws *viewmodel.Workspace) (*viewmodel.Doc, error) {
	var d *viewmodel.Doc
	var openErr error
	finished := false
	done := func(vd *viewmodel.Doc, err error) { d, openErr, finished = vd, err, true }
	if doc.Path != "" {
		ws.Open(doc.Path, done)
	} else {
		ws.OpenBytes(docName(doc), doc.Bytes(), done)
	}
	if err := h.settle(ctx, func() bool { return finished }); err != nil {
		return nil, err
	}
	if openErr != nil {
		return nil, openErr
	}
	return d, nil
}

func (h *headless) renderInspector(ctx context.Context, doc *formats.Document, opt Options, size fyne.Size) (image.Image, error) {
	d, err := h.open(ctx, doc, h.ws)
	if err != nil {
		return nil, err
	}
	i, err := pickTensor(d.Doc, opt.Tensor)
	if err != nil {
		return nil, err
	}
	in := d.Inspector
	if opt.View == ViewPlot {
		opt.Settings.VectorAsHeatmap = false
		in.SetPlotColumns(opt.Width) // one column per pixel, computed once
	}
	in.Apply(opt.Settings)
	in.Show(i, d.Doc.Tensors[i])
	if err := h.settleInspector(ctx, in); err != nil {
		return nil, err
	}
	panel := ui.NewInspectorPanel(h.win, d)
	defer panel.Close()
	var content fyne.CanvasObject
	switch {
	case in.Empty(): // each view draws "empty"
		switch opt.View {
		case ViewPlot:
			content = panel.LinePlot()
		case ViewHeatmap:
			content = panel.Heatmap()
		default:
			content = panel.Histogram()
		}
	case opt.View == ViewPlot:
		if content, err = plotContent(panel, in); err != nil {
			return nil, err
		}
	case opt.View == ViewHeatmap:
		if err := in.PlaneErr(); err != nil {
			return nil, err
		}
		if in.Heatmap() == nil {
			return nil, errors.New("no heatmap was computed")
		}
		content = panel.Heatmap()
	default:
		hist, err := in.Histogram()
		if err != nil {
			return nil, err
		}
		if hist == nil {
			return nil, errors.New("no histogram was computed")
		}
		content = panel.Histogram()
	}
	h.win.SetContent(content)
	return h.captureInspector(ctx, h.win, size, in)
}

// settleInspector waits until the inspector is ready and reports why it
// cannot show its tensor, if it cannot.
func (h *headless) settleInspector(ctx context.Context, in *viewmodel.Inspector) error {
	if err := h.settle(ctx, in.Ready); err != nil {
		return err
	}
	name := in.Entry().Name
	if err := in.Err(); err != nil {
		return fmt.Errorf("tensor %q: %w", name, err)
	}
	if err := in.SettingsErr(); err != nil {
		return fmt.Errorf("tensor %q: %w", name, err)
	}
	return nil
}

func (h *headless) renderWindow(ctx context.Context, doc *formats.Document, opt Options, size fyne.Size) (image.Image, error) {
	mw := ui.NewMainWindow(h.app, ui.Options{AppID: "io.github.tensorscope"})
	h.ws = mw.Workspace() // closed with the render
	d, err := h.open(ctx, doc, h.ws)
	if err != nil {
		return nil, err
	}
	d.Inspector.Apply(opt.Settings)
	mw.AddTab(d)
	if opt.Graph != nil {
		mw.ApplyGraphSettings(*opt.Graph)
	}
	// The graph is laid out first, so that the order in which results
	// arrive cannot differ between runs.
	graph := mw.GraphReady()
	if err := h.settle(ctx, func() bool { return isClosed(graph) }); err != nil {
		return nil, err
	}
	if opt.Tensor >= 0 || d.Doc.Graph == nil {
		i, err := pickTensor(d.Doc, opt.Tensor)
		if err != nil {
			return nil, err
		}
		mw.Inspect(i)
		if err := h.settleInspector(ctx, d.Inspector); err != nil {
			return nil, err
		}
		return h.captureInspector(ctx, mw.Window(), size, d.Inspector)
	}
	return h.capture(mw.Window(), size)
}

// isClosed reports whether ch is closed, without waiting.
func isClosed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
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
