package graphview

import (
	"image"
	"image/color"
	"image/draw"
	"math"

	"tensorscope/graphview/layout"
)

// overview draws the frame as one image when boxes are small: coloured
// rectangles (with header, body and border once they are a few pixels
// tall) and hairline edges written straight into the pixels, which costs a
// few milliseconds for a 10k-node graph where canvas objects would cost
// tens of thousands of draw calls.
type overview struct {
	img *image.RGBA

	// The view the frame was built for.
	s       *Scene
	vis     *visible
	zoom    float64
	offset  layout.Point
	widthPx float64 // widget width, to find the device scale
	pal     Palette
	nodeDim []bool // nodes outside a highlighted lineage
	edgeDim []bool
	sel     int
}

func (o *overview) set(g *GraphView, s *Scene, vis *visible, pal Palette) {
	o.s, o.vis, o.pal = s, vis, pal
	o.zoom = float64(g.zoom)
	o.offset = layout.Point{X: float64(g.offset.X), Y: float64(g.offset.Y)}
	o.widthPx = float64(g.Size().Width)
	o.nodeDim, o.edgeDim, o.sel = nil, nil, g.selected
	if g.lineNodes != nil {
		o.nodeDim, o.edgeDim = g.lineNodes, g.lineEdges
	}
}

// generate is the canvas.Raster generator: w×h device pixels.
func (o *overview) generate(w, h int) image.Image {
	if w <= 0 || h <= 0 {
		return image.NewRGBA(image.Rect(0, 0, 1, 1))
	}
	if o.img == nil || o.img.Rect.Dx() != w || o.img.Rect.Dy() != h {
		o.img = image.NewRGBA(image.Rect(0, 0, w, h))
	}
	img := o.img
	bg := o.pal.Background
	row := img.Pix[:4*w]
	for i := 0; i < len(row); i += 4 {
		row[i], row[i+1], row[i+2], row[i+3] = bg.R, bg.G, bg.B, 0xff
	}
	for y := 1; y < h; y++ {
		copy(img.Pix[y*img.Stride:], row)
	}
	if o.s == nil || o.widthPx <= 0 {
		return img
	}
	scale := float64(w) / o.widthPx
	k := o.zoom * scale
	px := func(p layout.Point) (float64, float64) {
		return p.X*k + o.offset.X*scale, p.Y*k + o.offset.Y*scale
	}
	s := o.s
	for _, sg := range o.vis.segs {
		e := s.index.segEdge[sg]
		a, b := s.index.segPoints(s, int(sg))
		c := o.pal.Edge
		if o.edgeDim != nil {
			if o.edgeDim[e] {
				c = o.pal.Accent
			} else {
				c = o.pal.dim(c)
			}
		}
		x0, y0 := px(a)
		x1, y1 := px(b)
		drawLine(img, x0, y0, x1, y1, c)
	}
	for _, n := range o.vis.nodes {
		cat := s.graph.Nodes[n].Category
		if cat >= numCategories {
			cat = CategoryOther
		}
		c, body := o.pal.Category[cat], o.pal.NodeBody
		if o.nodeDim != nil && !o.nodeDim[n] {
			c, body = o.pal.dim(c), o.pal.dim(body)
		}
		box := s.layout.Boxes[n]
		x0, y0 := px(box.Min)
		x1, y1 := px(box.Max)
		if y1-y0 >= 8 && s.hasBody(int(n)) {
			_, hy := px(s.headerRect(int(n)).Max)
			fillRect(img, x0, y0, x1, y1, body)
			fillRect(img, x0, y0, x1, hy, c)
			strokeRect(img, x0, y0, x1, y1, c)
		} else {
			fillRect(img, x0, y0, x1, y1, c)
		}
		if int(n) == o.sel {
			strokeRect(img, x0-2, y0-2, x1+2, y1+2, o.pal.Accent)
		}
	}
	return img
}

// fillRect fills the pixels a box covers, at least one.
func fillRect(img *image.RGBA, x0, y0, x1, y1 float64, c color.NRGBA) {
	b := img.Rect
	ix0, iy0 := int(math.Floor(x0)), int(math.Floor(y0))
	ix1, iy1 := max(int(math.Ceil(x1)), ix0+1), max(int(math.Ceil(y1)), iy0+1)
	ix0, iy0 = max(ix0, b.Min.X), max(iy0, b.Min.Y)
	ix1, iy1 = min(ix1, b.Max.X), min(iy1, b.Max.Y)
	if ix0 >= ix1 || iy0 >= iy1 {
		return
	}
	c.A = 0xff
	draw.Draw(img, image.Rect(ix0, iy0, ix1, iy1), image.NewUniform(c), image.Point{}, draw.Src)
}

func strokeRect(img *image.RGBA, x0, y0, x1, y1 float64, c color.NRGBA) {
	fillRect(img, x0, y0, x1, y0+1, c)
	fillRect(img, x0, y1-1, x1, y1, c)
	fillRect(img, x0, y0, x0+1, y1, c)
	fillRect(img, x1-1, y0, x1, y1, c)
}

// drawLine draws an anti-aliased hairline (Xiaolin Wu's algorithm),
// walking only the part inside the image.
func drawLine(img *image.RGBA, x0, y0, x1, y1 float64, c color.NRGBA) {
	w, h := float64(img.Rect.Dx()), float64(img.Rect.Dy())
	if math.Max(x0, x1) < -1 || math.Min(x0, x1) > w+1 || math.Max(y0, y1) < -1 || math.Min(y0, y1) > h+1 {
		return
	}
	steep := math.Abs(y1-y0) > math.Abs(x1-x0)
	if steep {
		x0, y0, x1, y1 = y0, x0, y1, x1
		w, h = h, w
	}
	if x0 > x1 {
		x0, x1, y0, y1 = x1, x0, y1, y0
	}
	grad := 0.0
	if dx := x1 - x0; dx > 0 {
		grad = (y1 - y0) / dx
	}
	start := math.Max(math.Round(x0), 0)
	end := math.Min(math.Round(x1), w-1)
	alpha := int32(c.A) + 1 // 1..256
	cr, cg, cb := int32(c.R), int32(c.G), int32(c.B)
	stride := img.Stride
	pix := img.Pix
	maxY := int(h) - 1
	plot := func(x, y int, cover int32) {
		if y < 0 || y > maxY || cover <= 0 {
			return
		}
		var i int
		if steep {
			i = x*stride + y*4
		} else {
			i = y*stride + x*4
		}
		a := cover * alpha >> 8
		p := pix[i : i+3 : i+3]
		p[0] = uint8((int32(p[0])*(256-a) + cr*a) >> 8)
		p[1] = uint8((int32(p[1])*(256-a) + cg*a) >> 8)
		p[2] = uint8((int32(p[2])*(256-a) + cb*a) >> 8)
	}
	for x := start; x <= end; x++ {
		y := y0 + grad*(x-x0)
		fy := math.Floor(y)
		f := int32((y - fy) * 256)
		ix, iy := int(x), int(fy)
		plot(ix, iy, 256-f)
		plot(ix, iy+1, f)
	}
}
