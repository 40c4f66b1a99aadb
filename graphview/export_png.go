package graphview

import (
	"context"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"io"
	"math"
	"runtime"
	"slices"
	"sync"

	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/font/liberation"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/vgimg"

	"tensorscope/graphview/layout"
)

// PNG size caps. An RGBA image of DefaultMaxPixels takes 128 MiB while
// drawing; MaxPNGSide keeps both sides within what common tools open
// (ImageMagick's default policy on Debian refuses sides over 16K pixels;
// browsers cap canvases at 32767).
const (
	DefaultMaxPixels = 32 << 20
	MaxPNGSide       = 16384
)

// ReadablePNGScale is the smallest scale at which a PNG of a graph keeps
// its labels about as large as the view draws them when a graph opens
// (openingZoom): every line of a box readable.
const ReadablePNGScale = openingZoom

// PNGTooLargeError says that a graph does not fit a PNG's size caps at the
// smallest scale asked for (ExportOptions.MinScale).
type PNGTooLargeError struct {
	Width, Height int     // the image at that scale
	Scale         float64 // the scale
	MaxPixels     int     // the cap on pixels; MaxPNGSide caps each side
}

func (e *PNGTooLargeError) Error() string {
	return fmt.Sprintf("at a readable size the graph is %s×%s pixels, more than a PNG can hold "+
		"(at most %s pixels a side and %d megapixels): export it as SVG instead, or draw fewer boxes (collapse groups)",
		groupDigits(e.Width), groupDigits(e.Height), groupDigits(MaxPNGSide), e.MaxPixels>>20)
}

// groupDigits writes n with commas between groups of three digits.
func groupDigits(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// PNGScale is the scale ExportPNG uses for s: opt.Scale (default 1) reduced
// as needed so the image has at most maxPixels pixels (DefaultMaxPixels
// when maxPixels ≤ 0) and neither side exceeds MaxPNGSide. It also returns
// the image size.
func PNGScale(s *Scene, opt ExportOptions, maxPixels int) (scale float64, width, height int) {
	if maxPixels <= 0 {
		maxPixels = DefaultMaxPixels
	}
	m := opt.margin()
	sw, sh := s.Size()
	W, H := sw+2*m, sh+2*m
	scale = opt.Scale
	if !(scale > 0) || math.IsInf(scale, 0) {
		scale = 1
	}
	scale = math.Min(scale, math.Sqrt(float64(maxPixels)/(W*H)))
	scale = math.Min(scale, MaxPNGSide/W)
	scale = math.Min(scale, MaxPNGSide/H)
	width = max(1, int(math.Floor(W*scale)))
	height = max(1, int(math.Floor(H*scale)))
	return scale, width, height
}

// ExportPNG draws the whole scene into a PNG, at the scale PNGScale gives
// (returned, so callers can say "exported at 25%"). Text too small to read
// at that scale is left out, as are arrowheads smaller than a few pixels;
// opt.MinScale refuses such a scale instead (a *PNGTooLargeError).
//
// The image is drawn in tiles of pngTile pixels, each holding only what the
// spatial index finds there: the rasterizer's cost per shape grows with the
// canvas height, so one tall canvas would make a long chain quadratic.
// Both cores draw tiles.
func ExportPNG(w io.Writer, s *Scene, opt ExportOptions, maxPixels int) (float64, error) {
	return ExportPNGContext(context.Background(), w, s, opt, maxPixels)
}

// ExportPNGContext is ExportPNG that stops drawing tiles when ctx is
// cancelled and returns its error (a large graph takes seconds to draw).
func ExportPNGContext(ctx context.Context, w io.Writer, s *Scene, opt ExportOptions, maxPixels int) (float64, error) {
	scale, pw, ph := PNGScale(s, opt, maxPixels)
	if opt.MinScale > 0 && scale < opt.MinScale*0.999 {
		if maxPixels <= 0 {
			maxPixels = DefaultMaxPixels
		}
		m := opt.margin()
		sw, sh := s.Size()
		return scale, &PNGTooLargeError{Width: int((sw + 2*m) * opt.MinScale), Height: int((sh + 2*m) * opt.MinScale),
			Scale: opt.MinScale, MaxPixels: maxPixels}
	}
	pal := opt.palette()
	img := image.NewRGBA(image.Rect(0, 0, pw, ph))
	var tiles []image.Rectangle
	for y := 0; y < ph; y += pngTile {
		for x := 0; x < pw; x += pngTile {
			tiles = append(tiles, image.Rect(x, y, min(x+pngTile, pw), min(y+pngTile, ph)))
		}
	}
	workers := min(runtime.GOMAXPROCS(0), len(tiles), 4)
	next := make(chan image.Rectangle)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t := newTileDrawer(s, pal, scale, opt.margin())
			for r := range next {
				t.draw(img, r)
			}
		}()
	}
	for _, r := range tiles {
		if ctx.Err() != nil {
			break
		}
		next <- r
	}
	close(next)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return scale, err
	}
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(w, img); err != nil {
		return scale, fmt.Errorf("graphview: writing PNG: %w", err)
	}
	return scale, nil
}

const pngTile = 512

// tileDrawer draws tiles of the PNG with its own buffers.
type tileDrawer struct {
	s                    *Scene
	pal                  Palette
	scale, margin        float64
	vis                  visible
	edgeSeen             []bool
	edges, labels, nodes []int32
}

// edgeMeets reports whether any segment of edge e, widened by an
// arrowhead, meets r.
func (t *tileDrawer) edgeMeets(e int, r layout.Rect) bool {
	r.Min.X, r.Min.Y, r.Max.X, r.Max.Y = r.Min.X-arrowSize, r.Min.Y-arrowSize, r.Max.X+arrowSize, r.Max.Y+arrowSize
	pts := t.s.layout.Edges[e].Points
	for i := 1; i < len(pts); i++ {
		if r.MeetsSegment(pts[i-1], pts[i]) {
			return true
		}
	}
	return false
}

func newTileDrawer(s *Scene, pal Palette, scale, margin float64) *tileDrawer {
	return &tileDrawer{s: s, pal: pal, scale: scale, margin: margin, edgeSeen: make([]bool, len(s.graph.Edges))}
}

func (t *tileDrawer) draw(dst *image.RGBA, r image.Rectangle) {
	// The tile in scene units, and widened by what may reach into it from
	// outside: strokes and arrowheads by a little, labels (beside their
	// edges) by up to the widest label.
	x0, y0 := float64(r.Min.X)/t.scale-t.margin, float64(r.Min.Y)/t.scale-t.margin
	x1, y1 := float64(r.Max.X)/t.scale-t.margin, float64(r.Max.Y)/t.scale-t.margin
	near := 2 / t.scale
	tight := layout.Rect{Min: layout.Point{X: x0 - near, Y: y0 - near}, Max: layout.Point{X: x1 + near, Y: y1 + near}}
	grow := float64(maxNodeWidth)
	wide := layout.Rect{Min: layout.Point{X: x0 - grow, Y: y0 - grow}, Max: layout.Point{X: x1 + grow, Y: y1 + grow}}
	t.s.index.query(t.s, wide, &t.vis)
	t.edges, t.labels, t.nodes = t.edges[:0], t.labels[:0], t.nodes[:0]
	for _, n := range t.vis.nodes {
		if t.s.layout.Boxes[n].Overlaps(tight) {
			t.nodes = append(t.nodes, n)
		}
	}
	for _, sg := range t.vis.segs {
		e := t.s.index.segEdge[sg]
		if t.edgeSeen[e] {
			continue
		}
		t.edgeSeen[e] = true
		if t.edgeMeets(int(e), tight) {
			t.edges = append(t.edges, e)
		}
		if t.s.labels[e] != "" {
			w, h := t.s.labelSize(int(e))
			at := t.s.labelAt[e]
			if (layout.Rect{Min: at, Max: layout.Point{X: at.X + w, Y: at.Y + h}}).Overlaps(tight) {
				t.labels = append(t.labels, e)
			}
		}
	}
	for _, sg := range t.vis.segs {
		t.edgeSeen[t.s.index.segEdge[sg]] = false
	}
	slices.Sort(t.edges)
	slices.Sort(t.labels)
	slices.Sort(t.nodes)
	d := detailAt(t.scale)
	if len(t.edges) == 0 && len(t.labels) == 0 && len(t.nodes) == 0 {
		draw.Draw(dst, r, image.NewUniform(t.pal.Background), image.Point{}, draw.Src)
		return
	}
	if !d.text {
		draw.Draw(dst, r, image.NewUniform(t.pal.Background), image.Point{}, draw.Src)
		sub := dst.SubImage(r).(*image.RGBA)
		// The coarse painter addresses pixels from the tile's corner.
		tile := &image.RGBA{Pix: sub.Pix, Stride: sub.Stride, Rect: image.Rect(0, 0, r.Dx(), r.Dy())}
		p := &coarsePainter{img: tile, scale: t.scale, margin: t.margin, x0: float64(r.Min.X), y0: float64(r.Min.Y)}
		d.arrows = false
		drawScene(p, t.s, t.pal, d, t.edges, t.labels, t.nodes)
		return
	}
	c := vgimg.NewWith(vgimg.UseWH(vg.Length(r.Dx()), vg.Length(r.Dy())), vgimg.UseDPI(72),
		vgimg.UseBackgroundColor(t.pal.Background))
	p := &pngPainter{c: c, scale: t.scale, margin: t.margin,
		x0: float64(r.Min.X), y0: float64(r.Min.Y), height: float64(r.Dy())}
	drawScene(p, t.s, t.pal, d, t.edges, t.labels, t.nodes)
	draw.Draw(dst, r, c.Image(), image.Point{}, draw.Src)
}

var (
	fontsOnce sync.Once
	sansFaces [2]font.Face // regular, bold
)

// exportFont is Liberation Sans (metrically Arial, bundled with gonum/plot)
// at size pixels.
func exportFont(size float64, bold bool) font.Face {
	fontsOnce.Do(func() {
		for _, f := range liberation.Collection() {
			if f.Font.Variant != "Sans" || f.Font.Style != 0 {
				continue
			}
			if f.Font.Weight > 0 {
				sansFaces[1] = f
			} else if f.Font.Weight == 0 {
				sansFaces[0] = f
			}
		}
	})
	f := sansFaces[0]
	if bold {
		f = sansFaces[1]
	}
	f.Font = font.From(f.Font, vg.Length(size))
	return f
}

type pngPainter struct {
	c             *vgimg.Canvas
	scale, margin float64
	x0, y0        float64 // the tile's top left in the image
	height        float64 // the tile's height
}

// pt maps scene coordinates to the tile's canvas (origin bottom left,
// 1 pt = 1 px).
func (p *pngPainter) pt(q layout.Point) vg.Point {
	return vg.Point{X: vg.Length((q.X+p.margin)*p.scale - p.x0), Y: vg.Length(p.height - ((q.Y+p.margin)*p.scale - p.y0))}
}

// roundRect traces r with the given corner radii (top pair, bottom pair).
func (p *pngPainter) roundRect(r layout.Rect, top, bottom float64) vg.Path {
	var path vg.Path
	a := p.pt(r.Min)
	b := p.pt(r.Max)
	x0, x1, yTop, yBot := a.X, b.X, a.Y, b.Y
	t, bt := vg.Length(top*p.scale), vg.Length(bottom*p.scale)
	path.Move(vg.Point{X: x0, Y: yTop - t})
	path.QuadTo(vg.Point{X: x0, Y: yTop}, vg.Point{X: x0 + t, Y: yTop})
	path.Line(vg.Point{X: x1 - t, Y: yTop})
	path.QuadTo(vg.Point{X: x1, Y: yTop}, vg.Point{X: x1, Y: yTop - t})
	path.Line(vg.Point{X: x1, Y: yBot + bt})
	path.QuadTo(vg.Point{X: x1, Y: yBot}, vg.Point{X: x1 - bt, Y: yBot})
	path.Line(vg.Point{X: x0 + bt, Y: yBot})
	path.QuadTo(vg.Point{X: x0, Y: yBot}, vg.Point{X: x0, Y: yBot + bt})
	path.Close()
	return path
}

func (p *pngPainter) fillRect(r layout.Rect, top, bottom float64, fill color.NRGBA) {
	p.c.SetColor(fill)
	p.c.Fill(p.roundRect(r, top, bottom))
}

func (p *pngPainter) strokeRect(r layout.Rect, radius float64, stroke color.NRGBA, width float64) {
	p.c.SetColor(stroke)
	p.c.SetLineWidth(vg.Length(math.Max(width*p.scale, 0.5)))
	p.c.Stroke(p.roundRect(r, radius, radius))
}

func (p *pngPainter) strokePath(ops []pathOp, stroke color.NRGBA, width float64) {
	var path vg.Path
	for i, op := range ops {
		switch {
		case i == 0:
			path.Move(p.pt(op.p))
		case op.quad:
			path.QuadTo(p.pt(op.ctrl), p.pt(op.p))
		default:
			path.Line(p.pt(op.p))
		}
	}
	p.c.SetColor(stroke)
	p.c.SetLineWidth(vg.Length(math.Max(width*p.scale, 0.6)))
	p.c.Stroke(path)
}

func (p *pngPainter) fillPolygon(pts []layout.Point, fill color.NRGBA) {
	var path vg.Path
	for i, q := range pts {
		if i == 0 {
			path.Move(p.pt(q))
		} else {
			path.Line(p.pt(q))
		}
	}
	path.Close()
	p.c.SetColor(fill)
	p.c.Fill(path)
}

func (p *pngPainter) text(l textLine, col color.NRGBA) {
	face := exportFont(l.size*p.scale, l.bold)
	ext := face.Extents()
	centre := p.pt(layout.Point{X: l.x, Y: l.top + l.height/2})
	baseline := centre.Y - (ext.Ascent-ext.Descent)/2
	p.c.SetColor(col)
	p.c.FillString(face, vg.Point{X: centre.X, Y: baseline}, l.text)
}

func (p *pngPainter) beginNode(int) {}
func (p *pngPainter) endNode()      {}
