package graphview

import (
	"image/color"

	"tensorscope/graphview/layout"
)

// ExportOptions tune ExportSVG and ExportPNG.
type ExportOptions struct {
	// Palette colours the drawing; nil means LightPalette.
	Palette *Palette
	// Margin around the drawing, in scene units (default 24).
	Margin float64
	// Scale is the PNG's pixels per scene unit before the size cap applies
	// (default 1). ExportSVG ignores it: SVG scales losslessly.
	Scale float64
	// MinScale, when above 0, is the smallest scale the PNG size caps may
	// reduce Scale to: below it ExportPNG draws nothing and returns a
	// *PNGTooLargeError. ReadablePNGScale keeps every label readable.
	MinScale float64
}

func (o ExportOptions) palette() Palette {
	if o.Palette != nil {
		return *o.Palette
	}
	return LightPalette()
}

func (o ExportOptions) margin() float64 {
	if o.Margin > 0 {
		return o.Margin
	}
	return 24
}

// painter is what drawScene needs from an output format. Coordinates are
// scene units; the painter applies its own scale and offset.
type painter interface {
	fillRect(r layout.Rect, topRadius, bottomRadius float64, fill color.NRGBA)
	strokeRect(r layout.Rect, radius float64, stroke color.NRGBA, width float64)
	strokePath(ops []pathOp, stroke color.NRGBA, width float64)
	fillPolygon(pts []layout.Point, fill color.NRGBA)
	text(l textLine, col color.NRGBA)
	beginNode(v int) // grouping hooks (SVG uses them for <g> and <title>)
	endNode()
}

// detail says what is legible at the output scale, in pixels per unit.
type detail struct {
	text, labels, arrows bool
}

func detailAt(scale float64) detail {
	return detail{
		text:   titleSize*scale >= 4.5,
		labels: labelSize*scale >= 5,
		arrows: arrowSize*scale >= 2.5,
	}
}

// drawScene paints edges with their arrowheads, then edge labels, then
// nodes, each list in increasing index order; nil lists mean all.
func drawScene(p painter, s *Scene, pal Palette, d detail, edges, labels, nodes []int32) {
	if edges == nil {
		edges = iota32(len(s.graph.Edges))
	}
	if labels == nil {
		labels = edges
	}
	if nodes == nil {
		nodes = iota32(len(s.graph.Nodes))
	}
	var ops []pathOp
	for _, e := range edges {
		pts := s.layout.Edges[e].Points
		if len(pts) < 2 {
			continue
		}
		end := pts[len(pts)-1]
		if d.arrows {
			_, _, _, end = arrowHead(pts, arrowSize)
		}
		ops = smoothPath(pts, end, edgeCorner, ops)
		p.strokePath(ops, pal.Edge, edgeWidth)
		if d.arrows {
			tip, l, rt, _ := arrowHead(pts, arrowSize)
			p.fillPolygon([]layout.Point{tip, l, rt}, pal.Edge)
		}
	}
	if d.labels {
		for _, e := range labels {
			if s.labels[e] == "" {
				continue
			}
			at := s.labelAt[e]
			p.text(textLine{x: at.X + labelPadX, top: at.Y + labelPadY, height: labelSize * lineHeight,
				text: s.labels[e], size: labelSize}, pal.Muted)
		}
	}
	var lines []textLine
	for _, n := range nodes {
		v := int(n)
		p.beginNode(v)
		cat := s.graph.Nodes[v].Category
		if cat >= numCategories {
			cat = CategoryOther
		}
		col := pal.Category[cat]
		box := s.layout.Boxes[v]
		body := s.hasBody(v)
		if body {
			p.fillRect(box, cornerRadius, cornerRadius, pal.NodeBody)
			p.fillRect(s.headerRect(v), cornerRadius, 0, col)
		} else {
			p.fillRect(box, cornerRadius, cornerRadius, col)
		}
		p.strokeRect(box, cornerRadius, col, 1)
		if d.text {
			lines = s.nodeLines(v, lines)
			for _, l := range lines {
				c := pal.Text
				switch l.role {
				case roleTitle:
					c = pal.HeaderText
				case roleDetail:
					c = pal.Muted
				}
				p.text(l, c)
			}
		}
		p.endNode()
	}
}

func iota32(n int) []int32 {
	out := make([]int32, n)
	for i := range out {
		out[i] = int32(i)
	}
	return out
}
