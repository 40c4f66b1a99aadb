package ui

import (
	"fyne.io/fyne/v2"

	"tensorscope/graphview"
	"tensorscope/viewmodel"
)

// The parts of the viewer that other front ends (headless rendering, the
// compare view) build from a settled viewmodel. They set state through the
// viewmodel, never through these widgets.

// InspectorPanel is the inspector of one document tab as widgets: the
// whole panel, or its heatmap and histogram alone.
type InspectorPanel struct{ v *inspectorView }

// NewInspectorPanel builds the inspector for d, showing the state of
// d.Inspector (its settings and the tensor it shows).
func NewInspectorPanel(win fyne.Window, d *viewmodel.Doc) *InspectorPanel {
	return &InspectorPanel{v: newInspectorView(win, d)}
}

// Content is the whole inspector.
func (p *InspectorPanel) Content() fyne.CanvasObject { return p.v.content }

// Heatmap is the heatmap beside its colour bar.
func (p *InspectorPanel) Heatmap() fyne.CanvasObject { return newHeatmapArea(p.v.heat, p.v.bar) }

// LinePlot is a vector's plot of value against index.
func (p *InspectorPanel) LinePlot() fyne.CanvasObject { return p.v.plot.content }

// Histogram is the histogram plot.
func (p *InspectorPanel) Histogram() fyne.CanvasObject { return p.v.hist.plot.raster }

// Close stops the panel following its inspector.
func (p *InspectorPanel) Close() { p.v.close() }

// Workspace is the window's set of open documents.
func (mw *MainWindow) Workspace() *viewmodel.Workspace { return mw.ws }

// AddTab shows d, opened through Workspace, in a new tab, as File ▸ Open
// does once a file is decoded.
func (mw *MainWindow) AddTab(d *viewmodel.Doc) {
	mw.finishOpen(mw.beginOpen(d.Title()), d, nil)
}

// Inspect shows document tensor i of the current tab in its Tensors pane.
func (mw *MainWindow) Inspect(i int) {
	if dt := mw.current(); dt != nil && dt.doc != nil {
		dt.inspectTensor(i)
	}
}

// ApplyGraphSettings gives the current tab's Graph pane settings s (see
// viewmodel.GraphSettings); it lays the graph out again. A tab without a
// graph ignores them.
func (mw *MainWindow) ApplyGraphSettings(s viewmodel.GraphSettings) {
	if dt := mw.current(); dt != nil && dt.graph != nil {
		dt.graph.Apply(s)
	}
}

// GraphReady returns a channel that is closed once the current tab's
// graph has been laid out and shown, or failed to; it is closed already
// for a tab without a graph.
func (mw *MainWindow) GraphReady() <-chan struct{} {
	if dt := mw.current(); dt != nil && dt.graph != nil {
		return dt.graph.ready
	}
	done := make(chan struct{})
	close(done)
	return done
}

// ShowGraphSettings selects settings' node in v (a view of m's graph) and
// brings v to settings' viewport; v must have its size. The Graph pane
// and headless rendering both show settings this way.
func ShowGraphSettings(v *graphview.GraphView, m *viewmodel.GraphModel, s viewmodel.GraphSettings) {
	if s.Selected >= 0 {
		v.Select(m.ViewNode(s.Selected))
	}
	vp := s.Viewport
	if vp.Fitted() {
		v.Home() // the opening view, as a new scene starts
		return
	}
	size := v.Size()
	v.SetView(vp.Zoom, fyne.NewPos(size.Width/2-float32(vp.CenterX)*vp.Zoom, size.Height/2-float32(vp.CenterY)*vp.Zoom))
}

// ViewportOf is v's current zoom and centre as a viewport.
func ViewportOf(v *graphview.GraphView) viewmodel.Viewport {
	size := v.Size()
	c := v.ToScene(fyne.NewPos(size.Width/2, size.Height/2))
	return viewmodel.Viewport{Zoom: v.Zoom(), CenterX: c.X, CenterY: c.Y}
}
