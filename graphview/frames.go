package graphview

import (
	"image/color"

	"fyne.io/fyne/v2"

	"tensorscope/graphview/layout"
)

// Frames (expanded groups) and the boxes of collapsed groups. A frame is
// laid out as a box holding its inside (nested.go), padded by framePad,
// its title on its top border.
const (
	framePad       = 10 // scene units between a frame and what it holds
	frameTitleSize = 10
	markSize       = 11 // the + of a collapsed group and the − of a frame
	stackOffset    = 3  // a collapsed group's box is drawn as a stack
)

// sceneFrame is a frame as placed.
type sceneFrame struct {
	rect   layout.Rect
	title  string // "− name", shortened to fit
	titleW float64
	depth  int
}

// placeFrames titles the frames, whose rectangles the nested layout
// made (layoutNested), each fitted to its frame's width.
func (s *Scene) placeFrames(measure MeasureFunc, rects []layout.Rect) {
	fr := s.graph.Frames
	s.frames = make([]sceneFrame, len(fr))
	for i, f := range fr {
		r := rects[i]
		if r == (layout.Rect{}) { // a frame round no node is not drawn
			continue
		}
		title := fitText(measure, "− "+f.Title, frameTitleSize, true, float32(max(r.Max.X-r.Min.X-2*padX, 24)))
		s.frames[i] = sceneFrame{rect: r, title: title, titleW: float64(measure(title, frameTitleSize, true)) + 2*labelPadX, depth: f.Depth}
	}
}

// Frames is the number of frames drawn.
func (s *Scene) Frames() int { return len(s.frames) }

// FrameRect is frame f's rectangle at zoom 1.
func (s *Scene) FrameRect(f int) layout.Rect { return s.frames[f].rect }

// frameTitleRect is where frame f's title sits: on its top border, at the
// left.
func (s *Scene) frameTitleRect(f int) layout.Rect {
	fr := &s.frames[f]
	h := frameTitleSize * lineHeight
	x := fr.rect.Min.X + padX
	return layout.Rect{Min: layout.Point{X: x, Y: fr.rect.Min.Y - h/2}, Max: layout.Point{X: x + fr.titleW, Y: fr.rect.Min.Y + h/2}}
}

// FrameTitleAt is the frame whose title (with its −) is under p, or -1;
// the innermost when titles overlap.
func (s *Scene) FrameTitleAt(p layout.Point) int {
	best := -1
	for f := range s.frames {
		if s.frameTitleRect(f).Contains(p) && (best < 0 || s.frames[f].depth > s.frames[best].depth) {
			best = f
		}
	}
	return best
}

// frameTitleAt is the frame whose title is under widget position p, or -1.
func (s *Scene) frameTitleAt(g *GraphView, p fyne.Position) int {
	if s == nil || g.onMinimap(p) {
		return -1
	}
	return s.FrameTitleAt(g.ToScene(p))
}

// expandMarkRect is the + at the right of a collapsed group's header.
func (s *Scene) expandMarkRect(v int) layout.Rect {
	h := s.headerRect(v)
	cy := (h.Min.Y + min(h.Max.Y, h.Min.Y+float64(headerHeight()))) / 2
	x1 := h.Max.X - padX/2
	return layout.Rect{Min: layout.Point{X: x1 - markSize, Y: cy - markSize/2}, Max: layout.Point{X: x1, Y: cy + markSize/2}}
}

// OnExpandMark reports whether p lies on the + of collapsed node v.
func (s *Scene) OnExpandMark(v int, p layout.Point) bool {
	if v < 0 || v >= len(s.graph.Nodes) || !s.graph.Nodes[v].Collapsed {
		return false
	}
	r := s.expandMarkRect(v)
	r.Min.X, r.Min.Y, r.Max.X, r.Max.Y = r.Min.X-2, r.Min.Y-2, r.Max.X+2, r.Max.Y+2
	return r.Contains(p)
}

// buildFrames draws the frames in view, outermost first, and the stacked
// outline behind each collapsed group's box.
func (r *renderer) buildFrames(s *Scene, z float64) {
	view := r.viewRect()
	zf := float32(z)
	for f := range s.frames {
		fr := &s.frames[f]
		if !fr.rect.Overlaps(view) {
			continue
		}
		// Clipped to the view: a painter allocates a frame's whole area,
		// and a frame round a model at 1:1 is hundreds of megapixels.
		c := fr.rect
		c.Min.X, c.Min.Y = max(c.Min.X, view.Min.X), max(c.Min.Y, view.Min.Y)
		c.Max.X, c.Max.Y = min(c.Max.X, view.Max.X), min(c.Max.Y, view.Max.Y)
		p0, p1 := r.pt(c.Min), r.pt(c.Max)
		b := r.rect()
		b.FillColor = frameFill(r.pal, fr.depth)
		b.StrokeColor = r.pal.Muted
		b.StrokeWidth = 1
		b.CornerRadius = 2 * cornerRadius * zf
		b.Move(p0)
		b.Resize(fyne.NewSize(p1.X-p0.X, p1.Y-p0.Y))
	}
	if z*frameTitleSize >= minTextPx {
		for f := range s.frames {
			fr := &s.frames[f]
			tr := s.frameTitleRect(f)
			if !tr.Overlaps(view) {
				continue
			}
			p0, p1 := r.pt(tr.Min), r.pt(tr.Max)
			bg := r.rect()
			bg.FillColor = r.pal.Background
			bg.StrokeColor = r.pal.Muted
			bg.StrokeWidth = 1
			bg.CornerRadius = 3 * zf
			bg.Move(p0)
			bg.Resize(fyne.NewSize(p1.X-p0.X, p1.Y-p0.Y))
			r.text(textLine{text: fr.title, x: tr.Min.X + labelPadX, top: tr.Min.Y, height: tr.Max.Y - tr.Min.Y,
				size: frameTitleSize, bold: true}, tr.Max.X-tr.Min.X, r.pal.Text, z)
		}
	}
	for _, n := range r.vis.nodes {
		v := int(n)
		if !s.graph.Nodes[v].Collapsed {
			continue
		}
		box := s.layout.Boxes[v]
		d := float64(stackOffset)
		p0, p1 := r.pt(layout.Point{X: box.Min.X + d, Y: box.Min.Y + d}), r.pt(layout.Point{X: box.Max.X + d, Y: box.Max.Y + d})
		b := r.rect()
		b.FillColor = r.pal.NodeBody
		b.StrokeColor = r.pal.Muted
		b.StrokeWidth = 1
		b.CornerRadius = cornerRadius * zf
		b.Move(p0)
		b.Resize(fyne.NewSize(p1.X-p0.X, p1.Y-p0.Y))
	}
}

// buildExpandMark draws the + on collapsed group v's header.
func (r *renderer) buildExpandMark(s *Scene, v int, col color.NRGBA, z float64) {
	if !s.graph.Nodes[v].Collapsed || z*markSize < 6 {
		return
	}
	m := s.expandMarkRect(v)
	p0, p1 := r.pt(m.Min), r.pt(m.Max)
	sq := r.rect()
	sq.StrokeColor = col
	sq.StrokeWidth = 1.2
	sq.CornerRadius = 2 * float32(z)
	sq.Move(p0)
	sq.Resize(fyne.NewSize(p1.X-p0.X, p1.Y-p0.Y))
	cx, cy := (p0.X+p1.X)/2, (p0.Y+p1.Y)/2
	arm := (p1.X - p0.X) * 0.3
	for _, seg := range [][2]fyne.Position{{{X: cx - arm, Y: cy}, {X: cx + arm, Y: cy}}, {{X: cx, Y: cy - arm}, {X: cx, Y: cy + arm}}} {
		l := r.line()
		l.Position1, l.Position2 = seg[0], seg[1]
		l.StrokeColor, l.StrokeWidth = col, 1.5
	}
}

// frameFill shades nested frames a little more each level.
func frameFill(p Palette, depth int) color.NRGBA {
	c := p.Muted
	c.A = uint8(min(14+8*depth, 60))
	return c
}

// viewRect is the part of the scene in view, with the build margin.
func (r *renderer) viewRect() layout.Rect {
	g := r.g
	size := g.Size()
	m := viewMarginPx / float64(g.zoom)
	tl := g.ToScene(fyne.Position{})
	br := g.ToScene(fyne.NewPos(size.Width, size.Height))
	return layout.Rect{Min: layout.Point{X: tl.X - m, Y: tl.Y - m}, Max: layout.Point{X: br.X + m, Y: br.Y + m}}
}

// PlacePoint shows scene point p at widget position at, at zoom: a group
// keeps its place on the screen when it is expanded or collapsed and the
// graph is laid out anew.
func (g *GraphView) PlacePoint(p layout.Point, zoom float32, at fyne.Position) {
	if g.scene == nil {
		return
	}
	g.zoom = g.clampZoom(zoom)
	g.offset = fyne.NewPos(at.X-float32(p.X)*g.zoom, at.Y-float32(p.Y)*g.zoom)
	g.home = false
	g.viewChanged()
}
