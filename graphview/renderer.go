package graphview

import (
	"image/color"
	"math"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"

	"tensorscope/graphview/layout"
)

// Zoom thresholds for what is worth drawing (sizes in widget units).
//
// Below overviewBelow, boxes are too small for text and the frame is one
// raster image; so it is when a view holds so much that thousands of
// canvas objects would make every frame slow to paint, whatever it costs
// to build them.
const (
	minTextPx      = 5.5 // smaller text is not drawn
	minArrowPx     = 2.5 // smaller arrowheads are not drawn
	overviewBelow  = 0.3
	overviewNodes  = 1500
	overviewSegs   = 4000
	viewMarginPx   = 12 // build a little beyond the edges so strokes are not cut
	highlightWidth = 2.5
)

// renderer builds the frame: canvas objects for the nodes and edge segments
// in view, drawn from pools reused frame after frame so panning allocates
// nothing once the pools have grown.
type renderer struct {
	g       *GraphView
	bg      *canvas.Rectangle
	objects []fyne.CanvasObject

	rects                      []*canvas.Rectangle
	texts                      []*canvas.Text
	lines                      []*canvas.Line
	polys                      []*canvas.Polygon
	nRect, nText, nLine, nPoly int

	raster   *canvas.Raster
	overview overview
	minimap  *minimap

	vis       visible
	edgeStamp []uint32
	epoch     uint32
	textBuf   []textLine
	pal       Palette
}

func newRenderer(g *GraphView) *renderer {
	r := &renderer{g: g, bg: canvas.NewRectangle(color.Transparent)}
	r.raster = canvas.NewRaster(r.overview.generate)
	r.minimap = newMinimap()
	g.minimap = r.minimap
	r.build()
	return r
}

func (r *renderer) Destroy() {}

func (r *renderer) Layout(size fyne.Size) {
	if r.g.home {
		r.g.goHome(size)
	}
	r.build()
}

func (r *renderer) MinSize() fyne.Size { return fyne.NewSize(60, 60) }

func (r *renderer) Objects() []fyne.CanvasObject { return r.objects }

func (r *renderer) Refresh() {
	r.build()
	canvas.Refresh(r.g)
}

// build makes the frame for the current view.
func (r *renderer) build() {
	g := r.g
	size := g.Size()
	r.pal = ThemePalette(g.Theme(), fyne.CurrentApp().Settings().ThemeVariant())
	r.nRect, r.nText, r.nLine, r.nPoly = 0, 0, 0, 0
	r.bg.FillColor = r.pal.Background
	r.bg.Resize(size)
	r.objects = append(r.objects[:0], r.bg)
	s := g.scene
	if s == nil || size.Width <= 0 || size.Height <= 0 {
		return
	}
	z := float64(g.zoom)
	m := viewMarginPx / z
	tl := g.ToScene(fyne.Position{})
	br := g.ToScene(fyne.NewPos(size.Width, size.Height))
	view := layout.Rect{Min: layout.Point{X: tl.X - m, Y: tl.Y - m}, Max: layout.Point{X: br.X + m, Y: br.Y + m}}
	s.index.query(s, view, &r.vis)
	if z < overviewBelow || len(r.vis.nodes) > overviewNodes || len(r.vis.segs) > overviewSegs {
		r.overview.set(g, s, &r.vis, r.pal)
		r.raster.Resize(size)
		r.raster.Move(fyne.Position{})
		r.objects = append(r.objects, r.raster)
		canvas.Refresh(r.raster)
		r.minimap.build(r)
		r.tooltip(s, false)
		return
	}
	r.buildFrames(s, z)
	r.buildEdges(s, z)
	r.buildNodes(s, z)
	r.minimap.build(r)
	r.tooltip(s, z*titleSize >= minTextPx && z*subtitleSize >= minTextPx)
}

func (r *renderer) pt(p layout.Point) fyne.Position { return r.g.ToWidget(p) }

func (r *renderer) edgeColour(e int) (color.NRGBA, float32) {
	g := r.g
	ed := r.g.scene.graph.Edges[e]
	w := float32(edgeWidth)
	switch {
	case e == g.hoveredEdge || e == g.selectedEdge:
		return r.pal.Accent, w * 1.8
	case g.selected >= 0 && (ed.From == g.selected || ed.To == g.selected):
		return r.pal.Accent, w * 1.4
	case g.lineEdges != nil && g.lineEdges[e]:
		return r.pal.Accent, w
	case g.lineEdges != nil:
		return r.pal.dim(r.pal.Edge), w
	}
	return r.pal.Edge, w
}

func (r *renderer) buildEdges(s *Scene, z float64) {
	if len(r.edgeStamp) != len(s.graph.Edges) {
		r.edgeStamp = make([]uint32, len(s.graph.Edges))
		r.epoch = 0
	}
	r.epoch++
	if r.epoch == 0 {
		clear(r.edgeStamp)
		r.epoch = 1
	}
	arrows := z*arrowSize >= minArrowPx
	labels := z*labelSize >= minTextPx
	for _, sg := range r.vis.segs {
		e := int(s.index.segEdge[sg])
		k := int(s.index.segAt[sg])
		pts := s.layout.Edges[e].Points
		a, b := pts[k], pts[k+1]
		col, width := r.edgeColour(e)
		width = max(1, width*float32(min(z, 1.5)))
		if k > 0 {
			if _, out, ok := corner(pts, k, edgeCorner); ok {
				a = out
			}
		}
		if k+2 < len(pts) {
			// This segment draws the corner at its end, as three chords.
			if in, out, ok := corner(pts, k+1, edgeCorner); ok {
				b = in
				prev := in
				for _, t := range [3]float64{1. / 3, 2. / 3, 1} {
					q := quadAt(in, pts[k+1], out, t)
					r.segment(prev, q, col, width)
					prev = q
				}
			}
		}
		if k+2 == len(pts) && arrows {
			tip, _, _, base := arrowHead(pts, arrowSize)
			b = base
			r.arrow(tip, base, col, z)
		}
		r.segment(a, b, col, width)
		if labels && s.labels[e] != "" && r.edgeStamp[e] != r.epoch {
			r.edgeStamp[e] = r.epoch
			at := s.labelAt[e]
			lc := r.pal.Muted
			if r.g.lineEdges != nil && !r.g.lineEdges[e] {
				lc = r.pal.dim(lc)
			}
			r.text(textLine{x: at.X + labelPadX, top: at.Y + labelPadY, height: labelSize * lineHeight,
				text: s.labels[e], size: labelSize}, s.labelW[e]-2*labelPadX, lc, z)
		}
	}
}

func (r *renderer) segment(a, b layout.Point, col color.NRGBA, width float32) {
	p, q, ok := clipSegment(r.pt(a), r.pt(b), r.g.Size())
	if !ok {
		return
	}
	// A painter rasterises a line into an image as large as its bounding
	// box, so a long diagonal costs its width times its height; as pieces
	// of at most segmentSpan on their shorter side it costs its length.
	n := int(min(math.Abs(float64(q.X-p.X)), math.Abs(float64(q.Y-p.Y))) / segmentSpan)
	for i := 0; i <= n; i++ {
		l := r.line()
		l.Position1 = lerpPos(p, q, float32(i)/float32(n+1))
		l.Position2 = lerpPos(p, q, float32(i+1)/float32(n+1))
		l.StrokeColor = col
		l.StrokeWidth = width
	}
}

// segmentSpan is the longest shorter side of a drawn piece of an edge,
// and clipMargin how far beyond the widget an edge is still drawn whole
// (widget units): within it, a segment is drawn as the layout made it.
const (
	segmentSpan = 256
	clipMargin  = 256
)

func lerpPos(p, q fyne.Position, t float32) fyne.Position {
	if t >= 1 {
		return q
	}
	return fyne.NewPos(p.X+(q.X-p.X)*t, p.Y+(q.Y-p.Y)*t)
}

// clipSegment is the part of p–q within clipMargin of a widget of the
// given size (Liang–Barsky), or false when none of it is.
func clipSegment(p, q fyne.Position, size fyne.Size) (fyne.Position, fyne.Position, bool) {
	x0, y0 := float32(-clipMargin), float32(-clipMargin)
	x1, y1 := size.Width+clipMargin, size.Height+clipMargin
	if p.X >= x0 && p.X <= x1 && p.Y >= y0 && p.Y <= y1 && q.X >= x0 && q.X <= x1 && q.Y >= y0 && q.Y <= y1 {
		return p, q, true
	}
	dx, dy := q.X-p.X, q.Y-p.Y
	t0, t1 := float32(0), float32(1)
	for _, c := range [4][2]float32{{-dx, p.X - x0}, {dx, x1 - p.X}, {-dy, p.Y - y0}, {dy, y1 - p.Y}} {
		den, num := c[0], c[1]
		if den == 0 {
			if num < 0 {
				return p, q, false
			}
			continue
		}
		t := num / den
		if den < 0 {
			t0 = max(t0, t)
		} else {
			t1 = min(t1, t)
		}
		if t0 > t1 {
			return p, q, false
		}
	}
	return lerpPos(p, q, t0), lerpPos(p, q, t1), true
}

// arrow adds an arrowhead from base to tip. Fyne's polygon is regular, so
// the head is an equilateral triangle whose circumradius makes tip-to-base
// the arrow length.
func (r *renderer) arrow(tip, base layout.Point, col color.NRGBA, z float64) {
	length := math.Hypot(tip.X-base.X, tip.Y-base.Y)
	if length == 0 {
		return
	}
	radius := length / 1.5
	dx, dy := (tip.X-base.X)/length, (tip.Y-base.Y)/length
	c := layout.Point{X: tip.X - dx*radius, Y: tip.Y - dy*radius}
	p := r.poly()
	p.FillColor = col
	p.Angle = float32(math.Atan2(dy, dx)*180/math.Pi + 90)
	rz := float32(radius * z)
	p.Resize(fyne.NewSize(2*rz, 2*rz))
	cw := r.pt(c)
	p.Move(fyne.NewPos(cw.X-rz, cw.Y-rz))
}

func (r *renderer) buildNodes(s *Scene, z float64) {
	g := r.g
	titles := z*titleSize >= minTextPx
	body := z*detailSize >= minTextPx
	zf := float32(z)
	for _, n := range r.vis.nodes {
		v := int(n)
		cat := s.graph.Nodes[v].Category
		if cat >= numCategories {
			cat = CategoryOther
		}
		col, bodyCol, textCol, mutedCol, headCol := r.pal.Category[cat], r.pal.NodeBody, r.pal.Text, r.pal.Muted, r.pal.HeaderText
		if v < len(g.nodeColours) && g.nodeColours[v] != nil {
			col, headCol = toNRGBA(g.nodeColours[v]), toNRGBA(textOn(g.nodeColours[v]))
		}
		if g.lineNodes != nil && !g.lineNodes[v] {
			col, bodyCol, textCol, mutedCol, headCol = r.pal.dim(col), r.pal.dim(bodyCol), r.pal.dim(textCol), r.pal.dim(mutedCol), r.pal.dim(headCol)
		}
		box := s.layout.Boxes[v]
		p0, p1 := r.pt(box.Min), r.pt(box.Max)
		size := fyne.NewSize(p1.X-p0.X, p1.Y-p0.Y)
		if v == g.selected || v == g.hovered {
			grow := float32(selectGrow)
			h := r.rect()
			h.StrokeColor = r.pal.Accent
			h.StrokeWidth = highlightWidth
			if v != g.selected {
				h.StrokeWidth = 1.5
			}
			h.CornerRadius = cornerRadius*zf + grow
			h.Move(fyne.NewPos(p0.X-grow, p0.Y-grow))
			h.Resize(fyne.NewSize(size.Width+2*grow, size.Height+2*grow))
		}
		hasBody := s.hasBody(v)
		b := r.rect()
		b.FillColor = bodyCol
		if !hasBody {
			b.FillColor = col
		}
		b.StrokeColor = col
		b.StrokeWidth = 1
		b.CornerRadius = cornerRadius * zf
		b.Move(p0)
		b.Resize(size)
		if hasBody {
			hr := s.headerRect(v)
			h := r.rect()
			h.FillColor = col
			h.TopLeftCornerRadius, h.TopRightCornerRadius = cornerRadius*zf, cornerRadius*zf
			h.Move(p0)
			h.Resize(fyne.NewSize(size.Width, float32(hr.Max.Y-hr.Min.Y)*zf))
		}
		r.buildExpandMark(s, v, headCol, z)
		if !titles {
			continue
		}
		r.textBuf = s.nodeLines(v, r.textBuf)
		maxW := box.Max.X - box.Min.X - 2*padX
		for _, l := range r.textBuf {
			switch {
			case l.role == roleTitle:
				r.text(l, maxW, headCol, z)
			case !body:
			case l.role == roleSubtitle:
				r.text(l, maxW, textCol, z)
			default:
				r.text(l, maxW, mutedCol, z)
			}
		}
	}
}

// Pools. Every field a frame sets is reset when an object is reused.

func (r *renderer) rect() *canvas.Rectangle {
	if r.nRect == len(r.rects) {
		r.rects = append(r.rects, &canvas.Rectangle{})
	}
	o := r.rects[r.nRect]
	r.nRect++
	*o = canvas.Rectangle{}
	r.objects = append(r.objects, o)
	return o
}

func (r *renderer) line() *canvas.Line {
	if r.nLine == len(r.lines) {
		r.lines = append(r.lines, &canvas.Line{})
	}
	o := r.lines[r.nLine]
	r.nLine++
	r.objects = append(r.objects, o)
	return o
}

func (r *renderer) poly() *canvas.Polygon {
	if r.nPoly == len(r.polys) {
		r.polys = append(r.polys, &canvas.Polygon{Sides: 3})
	}
	o := r.polys[r.nPoly]
	r.nPoly++
	*o = canvas.Polygon{Sides: 3}
	r.objects = append(r.objects, o)
	return o
}

// text adds one line of text in its line box (scene units), scaled by z.
func (r *renderer) text(l textLine, maxW float64, col color.NRGBA, z float64) {
	o := r.textObject()
	style := fyne.TextStyle{Bold: l.bold}
	room := float32(maxW * z)
	*o = canvas.Text{Text: l.text, Color: col, TextSize: fittedTextSize(l.text, float32(l.size*z), style, room), TextStyle: style}
	o.Move(r.pt(layout.Point{X: l.x, Y: l.top}))
	o.Resize(fyne.NewSize(room, float32(l.height*z)))
}

// textObject is a cleared text from the pool, added to the frame.
func (r *renderer) textObject() *canvas.Text {
	if r.nText == len(r.texts) {
		r.texts = append(r.texts, &canvas.Text{})
	}
	o := r.texts[r.nText]
	r.nText++
	*o = canvas.Text{}
	r.objects = append(r.objects, o)
	return o
}

// fittedTextSize is size, or less when text set at size would be wider
// than room. Boxes are sized by text measured at zoom 1, but glyph
// advances are rounded to whole pixels, so the same text set small is
// relatively wider (by 16% at zoom 0.55) and would run past its box.
func fittedTextSize(text string, size float32, style fyne.TextStyle, room float32) float32 {
	for range 6 { // shrinking by the overflow's ratio can round up again
		w := fyne.MeasureText(text, size, style).Width
		if w <= room || w <= 0 {
			return size
		}
		size *= room / w * 0.97
	}
	return size
}

// textOn is black or white, whichever contrasts more with the fill c.
func textOn(c color.Color) color.Color {
	r, g, b, _ := c.RGBA()
	if 0.2126*float64(r)+0.7152*float64(g)+0.0722*float64(b) > 0.5*0xffff {
		return color.Black
	}
	return color.White
}
