package graphview

import (
	"image"
	"image/color"
	"math"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"

	"tensorscope/graphview/layout"
)

// The minimap sits in the bottom-right corner while the graph does not fit
// the view: the whole graph in small, with the part in view outlined. A tap
// or a drag in it moves the view there. A button in its corner folds it to
// a small button of its own (GraphView.SetMinimapCollapsed), which opens
// it again.
const (
	minimapMaxW      = 200 // widget units, at most this share of the view:
	minimapMaxShareW = 0.22
	minimapMaxShareH = 0.6
	minimapMinSide   = 48 // narrower (flatter) drawings are centred in this width (height)
	minimapMargin    = 10 // from the view's edges
	minimapPad       = 4  // round the drawing inside the panel
	minimapMinViewW  = 320
	minimapMinViewH  = 240
	minimapMinPort   = 8 // the outline of the part in view is at least this big

	// A view narrower or lower than this (the graph pane of a 1024×700
	// window) gets a smaller minimap: these shares of its sides, and at
	// most minimapSmallArea of its area.
	minimapSmallViewW  = 900
	minimapSmallViewH  = 600
	minimapSmallShareW = 0.14
	minimapSmallShareH = 0.32
	minimapSmallArea   = 0.04

	minimapToggle = 16 // the fold button in the panel's corner
	minimapButton = 24 // the folded minimap
)

// minimap is the panel's geometry for the current frame and the drawing of
// the whole graph, made once per scene, palette and pixel size: between
// those changes a frame costs one texture upload of a small image.
type minimap struct {
	shown  bool          // the panel is drawn
	folded bool          // the minimap is folded to its button, which is drawn
	panel  fyne.Position // the panel's top-left in the view
	size   fyne.Size
	inner  fyne.Position // where scene (0, 0) appears in the view
	scale  float32       // widget units per scene unit

	raster      *canvas.Raster
	frame, port *canvas.Rectangle
	// toggle is the fold button (on the panel) or the folded minimap's
	// button; glyph and glyphPort are drawn on it: a bar to fold, a small
	// map to open.
	toggle, glyph, glyphPort *canvas.Rectangle

	drawing overview
	all     visible
	img     image.Image
	key     minimapKey
}

type minimapKey struct {
	s    *Scene
	pal  Palette
	w, h int
}

func newMinimap() *minimap {
	m := &minimap{frame: canvas.NewRectangle(color.Transparent), port: canvas.NewRectangle(color.Transparent),
		toggle: canvas.NewRectangle(color.Transparent), glyph: canvas.NewRectangle(color.Transparent),
		glyphPort: canvas.NewRectangle(color.Transparent)}
	m.raster = canvas.NewRaster(m.generate)
	return m
}

// minimapRect is a rectangle in the view.
type minimapRect struct {
	Min  fyne.Position
	Size fyne.Size
}

func (r minimapRect) contains(p fyne.Position) bool {
	return p.X >= r.Min.X && p.Y >= r.Min.Y && p.X <= r.Min.X+r.Size.Width && p.Y <= r.Min.Y+r.Size.Height
}

// minimapCorner is the part of a view of size view that the minimap of s
// covers at zoom: its panel, or its button when folded; ok is false when
// neither is drawn (the graph fits, or the view is too small).
func minimapCorner(s *Scene, view fyne.Size, zoom float32, folded bool) (r minimapRect, scale float32, ok bool) {
	size, scale, ok := minimapSize(s, view)
	if !ok {
		return minimapRect{}, 0, false
	}
	w, h := s.Size()
	if float32(w)*zoom <= view.Width && float32(h)*zoom <= view.Height {
		return minimapRect{}, 0, false
	}
	if folded {
		size = fyne.NewSize(minimapButton, minimapButton)
	}
	return minimapRect{Min: fyne.NewPos(view.Width-minimapMargin-size.Width, view.Height-minimapMargin-size.Height), Size: size}, scale, true
}

// place decides whether the minimap (or its button) shows for g's view
// and where.
func (m *minimap) place(g *GraphView) {
	m.shown, m.folded = false, false
	r, scale, ok := minimapCorner(g.scene, g.Size(), g.zoom, g.minimapFolded)
	if !ok {
		return
	}
	m.panel, m.size, m.scale = r.Min, r.Size, scale
	if g.minimapFolded {
		m.folded = true
		return
	}
	w, h := g.scene.Size()
	dw, dh := float32(w)*m.scale, float32(h)*m.scale
	m.inner = m.panel.Add(fyne.NewPos((m.size.Width-dw)/2, (m.size.Height-dh)/2))
	m.shown = true
}

// toggleRect is where the fold button is (in the panel's top-right
// corner), or the folded minimap's button.
func (m *minimap) toggleRect() minimapRect {
	if m.folded {
		return minimapRect{Min: m.panel, Size: m.size}
	}
	return minimapRect{Min: fyne.NewPos(m.panel.X+m.size.Width-minimapToggle-2, m.panel.Y+2), Size: fyne.NewSize(minimapToggle, minimapToggle)}
}

// onToggle reports whether widget position p is on the fold button or
// the folded minimap's button.
func (m *minimap) onToggle(p fyne.Position) bool {
	return (m.shown || m.folded) && m.toggleRect().contains(p)
}

// minimapSize is the size of the minimap panel of s in a view of size
// view, and its scale (widget units per scene unit); ok is false when the
// view is too small to spare the room.
func minimapSize(s *Scene, view fyne.Size) (size fyne.Size, scale float32, ok bool) {
	if s == nil || view.Width < minimapMinViewW || view.Height < minimapMinViewH {
		return fyne.Size{}, 0, false
	}
	w, h := s.Size()
	if w <= 0 || h <= 0 {
		return fyne.Size{}, 0, false
	}
	maxW := min(minimapMaxW, view.Width*minimapMaxShareW) - 2*minimapPad
	maxH := view.Height*minimapMaxShareH - 2*minimapPad
	small := view.Width < minimapSmallViewW || view.Height < minimapSmallViewH
	if small {
		maxW = view.Width*minimapSmallShareW - 2*minimapPad
		maxH = view.Height*minimapSmallShareH - 2*minimapPad
	}
	scale = min(maxW/float32(w), maxH/float32(h))
	if small { // the drawing's area within its share (its pad and least side aside)
		scale = min(scale, float32(math.Sqrt(minimapSmallArea*float64(view.Width*view.Height)/(w*h)))*0.8)
	}
	return fyne.NewSize(max(float32(w)*scale, minimapMinSide)+2*minimapPad, max(float32(h)*scale, minimapMinSide)+2*minimapPad), scale, true
}

// minimapReserve is how much of a view's breadth across the flow the
// minimap of s takes (its width top to bottom, its height left to right),
// margin included: the opening view keeps the graph's start clear of it.
func minimapReserve(s *Scene, view fyne.Size) float32 {
	size, _, ok := minimapSize(s, view)
	switch {
	case !ok:
		return 0
	case s.layout.Direction == LeftToRight:
		return size.Height + minimapMargin
	}
	return size.Width + minimapMargin
}

// freeCentre is the centre of the largest part of g's view, at zoom, that
// the minimap leaves free (left of it or above it): CenterOn puts a node
// there, never under the minimap.
func (g *GraphView) freeCentre(zoom float32) fyne.Position {
	size := g.Size()
	r, _, ok := minimapCorner(g.scene, size, zoom, g.minimapFolded)
	if !ok {
		return fyne.NewPos(size.Width/2, size.Height/2)
	}
	left := max(r.Min.X-minimapMargin, 0) * size.Height
	above := max(r.Min.Y-minimapMargin, 0) * size.Width
	if left >= above {
		return fyne.NewPos(max(r.Min.X-minimapMargin, 0)/2, size.Height/2)
	}
	return fyne.NewPos(size.Width/2, max(r.Min.Y-minimapMargin, 0)/2)
}

// MinimapCollapsed reports whether the minimap is folded to its button.
func (g *GraphView) MinimapCollapsed() bool { return g.minimapFolded }

// SetMinimapCollapsed folds the minimap to a small button (true) or
// opens it; OnMinimapToggled is not called.
func (g *GraphView) SetMinimapCollapsed(folded bool) {
	if g.minimapFolded != folded {
		g.minimapFolded = folded
		g.Refresh()
	}
}

// toggleMinimap folds or opens the minimap at the user's tap and reports it.
func (g *GraphView) toggleMinimap() {
	g.SetMinimapCollapsed(!g.minimapFolded)
	if g.OnMinimapToggled != nil {
		g.OnMinimapToggled(g.minimapFolded)
	}
}

// contains reports whether widget position p is on the minimap or its
// button.
func (m *minimap) contains(p fyne.Position) bool {
	return (m.shown || m.folded) && p.X >= m.panel.X && p.Y >= m.panel.Y && p.X <= m.panel.X+m.size.Width && p.Y <= m.panel.Y+m.size.Height
}

// toScene is the scene point drawn at widget position p on the minimap.
func (m *minimap) toScene(p fyne.Position) layout.Point {
	return layout.Point{X: float64((p.X - m.inner.X) / m.scale), Y: float64((p.Y - m.inner.Y) / m.scale)}
}

// build adds the panel, the drawing and the outline of the part in view
// to the frame r is building.
func (m *minimap) build(r *renderer) {
	g := r.g
	m.place(g)
	if m.folded {
		m.buildToggle(r)
		return
	}
	if !m.shown {
		return
	}
	m.frame.FillColor = r.pal.Background
	m.frame.StrokeColor = r.pal.Muted
	m.frame.StrokeWidth = 1
	m.frame.CornerRadius = 3
	m.frame.Move(m.panel)
	m.frame.Resize(m.size)
	m.drawing.s, m.drawing.pal = g.scene, r.pal
	m.drawing.nodeDim, m.drawing.edgeDim, m.drawing.sel = nil, nil, -1
	dw, dh := g.scene.Size()
	m.raster.Move(m.inner)
	m.raster.Resize(fyne.NewSize(float32(dw)*m.scale, float32(dh)*m.scale))

	size := g.Size()
	tl, br := g.ToScene(fyne.Position{}), g.ToScene(fyne.NewPos(size.Width, size.Height))
	p0 := m.clampToPanel(m.fromScene(tl))
	p1 := m.clampToPanel(m.fromScene(br))
	m.port.FillColor = color.NRGBA{R: r.pal.Accent.R, G: r.pal.Accent.G, B: r.pal.Accent.B, A: 0x30}
	m.port.StrokeColor = r.pal.Accent
	m.port.StrokeWidth = 1.5
	// A view of a tiny part of a huge graph still gets a mark to find.
	grow := fyne.NewDelta(max(minimapMinPort-(p1.X-p0.X), 0)/2, max(minimapMinPort-(p1.Y-p0.Y), 0)/2)
	m.port.Move(p0.Subtract(grow))
	m.port.Resize(fyne.NewSize(p1.X-p0.X+2*grow.DX, p1.Y-p0.Y+2*grow.DY))
	r.objects = append(r.objects, m.frame, m.raster, m.port)
	m.buildToggle(r)
}

// buildToggle adds the fold button (a bar) on the panel, or the folded
// minimap's button (a small map with its outlined part).
func (m *minimap) buildToggle(r *renderer) {
	t := m.toggleRect()
	m.toggle.FillColor = r.pal.Background
	m.toggle.StrokeColor = r.pal.Muted
	m.toggle.StrokeWidth = 1
	m.toggle.CornerRadius = 3
	m.toggle.Move(t.Min)
	m.toggle.Resize(t.Size)
	m.glyph.StrokeColor, m.glyph.StrokeWidth = r.pal.Muted, 0
	m.glyph.FillColor = r.pal.Muted
	r.objects = append(r.objects, m.toggle, m.glyph)
	if !m.folded {
		m.glyph.Move(t.Min.Add(fyne.NewPos(4, t.Size.Height/2-1)))
		m.glyph.Resize(fyne.NewSize(t.Size.Width-8, 2))
		return
	}
	m.glyph.FillColor = color.Transparent
	m.glyph.StrokeWidth = 1.2
	m.glyph.Move(t.Min.Add(fyne.NewPos(6, 5)))
	m.glyph.Resize(fyne.NewSize(t.Size.Width-12, t.Size.Height-10))
	m.glyphPort.FillColor = r.pal.Accent
	m.glyphPort.Move(t.Min.Add(fyne.NewPos(8, 8)))
	m.glyphPort.Resize(fyne.NewSize(t.Size.Width-16, 5))
	r.objects = append(r.objects, m.glyphPort)
}

func (m *minimap) fromScene(p layout.Point) fyne.Position {
	return fyne.NewPos(float32(p.X)*m.scale+m.inner.X, float32(p.Y)*m.scale+m.inner.Y)
}

func (m *minimap) clampToPanel(p fyne.Position) fyne.Position {
	return fyne.NewPos(max(m.panel.X, min(p.X, m.panel.X+m.size.Width)), max(m.panel.Y, min(p.Y, m.panel.Y+m.size.Height)))
}

// generate is the raster's generator: the cached drawing unless the
// scene, the palette or the pixel size changed since it was made.
func (m *minimap) generate(w, h int) image.Image {
	key := minimapKey{m.drawing.s, m.drawing.pal, w, h}
	if m.img != nil && key == m.key {
		return m.img
	}
	d := &m.drawing
	if d.s != nil {
		dw, dh := d.s.Size()
		d.s.index.query(d.s, layout.Rect{Min: layout.Point{X: -1, Y: -1}, Max: layout.Point{X: dw + 1, Y: dh + 1}}, &m.all)
		d.vis = &m.all
		d.zoom = float64(m.scale)
		d.offset = layout.Point{}
		d.widthPx = dw * float64(m.scale)
	}
	d.img = nil // the frame's image is kept; the next one is drawn anew
	m.img, m.key = d.generate(w, h), key
	return m.img
}

// onMinimap reports whether widget position p is on the minimap or its
// button.
func (g *GraphView) onMinimap(p fyne.Position) bool {
	return g.minimap != nil && g.minimap.contains(p)
}

// MinimapShown reports whether the minimap is drawn, and where.
func (g *GraphView) MinimapShown() (shown bool, pos fyne.Position, size fyne.Size) {
	if g.minimap == nil || !g.minimap.shown {
		return false, fyne.Position{}, fyne.Size{}
	}
	return true, g.minimap.panel, g.minimap.size
}

// showMinimapPoint centres the view, at its zoom, on the scene point
// drawn at widget position p on the minimap.
func (g *GraphView) showMinimapPoint(p fyne.Position) {
	q := g.minimap.toScene(p)
	w, h := g.scene.Size()
	q.X, q.Y = max(0, min(q.X, w)), max(0, min(q.Y, h))
	c := g.centre()
	g.offset = fyne.NewPos(c.X-float32(q.X)*g.zoom, c.Y-float32(q.Y)*g.zoom)
	g.home = false
	g.viewChanged()
}
