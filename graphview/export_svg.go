package graphview

import (
	"bufio"
	"encoding/xml"
	"fmt"
	"image/color"
	"io"
	"strconv"

	"tensorscope/graphview/layout"
)

// ExportSVG writes the whole scene as a standalone SVG document, one unit
// per scene unit. Text stays text (searchable, selectable); each node is a
// <g class="node" id="node-N"> whose <title> is its op type and name.
func ExportSVG(w io.Writer, s *Scene, opt ExportOptions) error {
	pal := opt.palette()
	m := opt.margin()
	sw, sh := s.Size()
	bw := bufio.NewWriterSize(w, 1<<16)
	p := &svgPainter{w: bw, dx: m, dy: m, s: s}
	W, H := sw+2*m, sh+2*m
	fmt.Fprintf(bw, `<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" stroke="none" font-family="'Noto Sans', 'Liberation Sans', Arial, Helvetica, sans-serif">
<rect width="%s" height="%s" fill="%s"/>
`, num(W), num(H), num(W), num(H), num(W), num(H), hexColour(pal.Background))
	drawScene(p, s, pal, detailAt(1), nil, nil, nil)
	bw.WriteString("</svg>\n")
	if p.err != nil {
		return p.err
	}
	return bw.Flush()
}

type svgPainter struct {
	w      *bufio.Writer
	dx, dy float64
	s      *Scene
	err    error
}

func (p *svgPainter) printf(format string, args ...any) {
	if p.err == nil {
		_, p.err = fmt.Fprintf(p.w, format, args...)
	}
}

func (p *svgPainter) x(v float64) string { return num(v + p.dx) }
func (p *svgPainter) y(v float64) string { return num(v + p.dy) }

func (p *svgPainter) fillRect(r layout.Rect, top, bottom float64, fill color.NRGBA) {
	if top == bottom {
		p.printf(`<rect x="%s" y="%s" width="%s" height="%s" rx="%s" fill="%s"/>`+"\n",
			p.x(r.Min.X), p.y(r.Min.Y), num(r.Max.X-r.Min.X), num(r.Max.Y-r.Min.Y), num(top), hexColour(fill))
		return
	}
	x0, y0, x1, y1 := r.Min.X+p.dx, r.Min.Y+p.dy, r.Max.X+p.dx, r.Max.Y+p.dy
	p.printf(`<path d="M%s %sA%s %s 0 0 1 %s %sH%sA%s %s 0 0 1 %s %sV%sA%s %s 0 0 1 %s %sH%sA%s %s 0 0 1 %s %sZ" fill="%s"/>`+"\n",
		num(x0), num(y0+top), num(top), num(top), num(x0+top), num(y0),
		num(x1-top), num(top), num(top), num(x1), num(y0+top),
		num(y1-bottom), num(bottom), num(bottom), num(x1-bottom), num(y1),
		num(x0+bottom), num(bottom), num(bottom), num(x0), num(y1-bottom),
		hexColour(fill))
}

func (p *svgPainter) strokeRect(r layout.Rect, radius float64, stroke color.NRGBA, width float64) {
	p.printf(`<rect x="%s" y="%s" width="%s" height="%s" rx="%s" fill="none" stroke="%s" stroke-width="%s"/>`+"\n",
		p.x(r.Min.X), p.y(r.Min.Y), num(r.Max.X-r.Min.X), num(r.Max.Y-r.Min.Y), num(radius), hexColour(stroke), num(width))
}

func (p *svgPainter) strokePath(ops []pathOp, stroke color.NRGBA, width float64) {
	p.printf(`<path d="`)
	for i, op := range ops {
		switch {
		case i == 0:
			p.printf("M%s %s", p.x(op.p.X), p.y(op.p.Y))
		case op.quad:
			p.printf("Q%s %s %s %s", p.x(op.ctrl.X), p.y(op.ctrl.Y), p.x(op.p.X), p.y(op.p.Y))
		default:
			p.printf("L%s %s", p.x(op.p.X), p.y(op.p.Y))
		}
	}
	p.printf(`" fill="none" stroke="%s" stroke-width="%s"/>`+"\n", hexColour(stroke), num(width))
}

func (p *svgPainter) fillPolygon(pts []layout.Point, fill color.NRGBA) {
	p.printf(`<path d="`)
	for i, q := range pts {
		op := "L"
		if i == 0 {
			op = "M"
		}
		p.printf("%s%s %s", op, p.x(q.X), p.y(q.Y))
	}
	p.printf(`Z" fill="%s"/>`+"\n", hexColour(fill))
}

func (p *svgPainter) text(l textLine, col color.NRGBA) {
	weight := ""
	if l.bold {
		weight = ` font-weight="bold"`
	}
	p.printf(`<text x="%s" y="%s" font-size="%s"%s dominant-baseline="central" fill="%s">`,
		p.x(l.x), p.y(l.top+l.height/2), num(l.size), weight, hexColour(col))
	if p.err == nil {
		p.err = xml.EscapeText(p.w, []byte(l.text))
	}
	p.printf("</text>\n")
}

func (p *svgPainter) beginNode(v int) {
	n := &p.s.graph.Nodes[v]
	p.printf(`<g class="node %s" id="node-%d"><title>`, n.Category, v)
	if p.err == nil {
		title := n.Title
		if n.Subtitle != "" {
			title += " " + n.Subtitle
		}
		p.err = xml.EscapeText(p.w, []byte(title))
	}
	p.printf("</title>\n")
}

func (p *svgPainter) endNode() { p.printf("</g>\n") }

// num formats a coordinate with at most two decimals and no trailing zeros.
func num(v float64) string {
	s := strconv.FormatFloat(v, 'f', 2, 64)
	for len(s) > 0 && s[len(s)-1] == '0' {
		s = s[:len(s)-1]
	}
	if len(s) > 0 && s[len(s)-1] == '.' {
		s = s[:len(s)-1]
	}
	if s == "-0" || s == "" {
		return "0"
	}
	return s
}

func hexColour(c color.NRGBA) string {
	if c.A == 0xff {
		return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B)
	}
	return fmt.Sprintf("rgba(%d,%d,%d,%.3f)", c.R, c.G, c.B, float64(c.A)/255)
}
