package graphview

import (
	"image"
	"image/color"

	"tensorscope/graphview/layout"
)

// coarsePainter draws exports at scales too small for text: boxes become
// filled rectangles and edges hairlines, written straight into the pixels
// like the widget's overview. Per shape it costs a few hundred nanoseconds
// where the vector rasterizer costs tens of microseconds, which is what
// makes a 10k-node PNG quick.
type coarsePainter struct {
	img           *image.RGBA
	scale, margin float64
	x0, y0        float64
}

func (p *coarsePainter) px(q layout.Point) (float64, float64) {
	return (q.X+p.margin)*p.scale - p.x0, (q.Y+p.margin)*p.scale - p.y0
}

func (p *coarsePainter) fillRect(r layout.Rect, _, _ float64, fill color.NRGBA) {
	x0, y0 := p.px(r.Min)
	x1, y1 := p.px(r.Max)
	fillRect(p.img, x0, y0, x1, y1, fill)
}

func (p *coarsePainter) strokeRect(r layout.Rect, _ float64, stroke color.NRGBA, _ float64) {
	x0, y0 := p.px(r.Min)
	x1, y1 := p.px(r.Max)
	if x1-x0 >= 3 && y1-y0 >= 3 {
		strokeRect(p.img, x0, y0, x1, y1, stroke)
	}
}

func (p *coarsePainter) strokePath(ops []pathOp, stroke color.NRGBA, _ float64) {
	x, y := p.px(ops[0].p)
	for _, op := range ops[1:] {
		if op.quad { // at this scale a corner's curve is a pixel or two
			cx, cy := p.px(op.ctrl)
			drawLine(p.img, x, y, cx, cy, stroke)
			x, y = cx, cy
		}
		nx, ny := p.px(op.p)
		drawLine(p.img, x, y, nx, ny, stroke)
		x, y = nx, ny
	}
}

func (p *coarsePainter) fillPolygon([]layout.Point, color.NRGBA) {}
func (p *coarsePainter) text(textLine, color.NRGBA)              {}
func (p *coarsePainter) beginNode(int)                           {}
func (p *coarsePainter) endNode()                                {}
