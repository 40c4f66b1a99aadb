package graphview

import (
	"strings"

	"fyne.io/fyne/v2"

	"tensorscope/graphview/layout"
)

// Hover tooltip: a name too long for the widest box is drawn shortened
// with "…", and boxes zoomed out too far carry no text at all; hovering
// such a node shows its op and full name beside it, at a readable size
// whatever the zoom.
const (
	tooltipPad    = 6
	tooltipGap    = 6 // between the box and the tooltip
	tooltipMaxW   = 560
	tooltipRadius = 4
)

// Shortened reports whether node v's op or name is drawn shortened.
func (s *Scene) Shortened(v int) bool {
	n := &s.graph.Nodes[v]
	return s.nodes[v].title != n.Title || s.nodes[v].subtitle != n.Subtitle
}

// tooltip adds the hovered node's tooltip when its text is not all there
// to read: shortened, or not drawn at this zoom.
func (r *renderer) tooltip(s *Scene, textDrawn bool) {
	v := r.g.hovered
	if v < 0 || v >= len(s.graph.Nodes) || (textDrawn && !s.Shortened(v)) {
		return
	}
	n := &s.graph.Nodes[v]
	room := min(tooltipMaxW, r.g.Size().Width-2*tooltipGap) - 2*tooltipPad
	var lines []textLine
	add := func(text string, size float32, bold bool) {
		for _, part := range wrapText(text, size, fyne.TextStyle{Bold: bold}, room) {
			lines = append(lines, textLine{text: part, size: float64(size), bold: bold, height: float64(size) * lineHeight})
		}
	}
	add(n.Title, titleSize, true)
	if n.Subtitle != "" {
		add(n.Subtitle, subtitleSize, false)
	}
	w, h := float32(0), float32(2*tooltipPad)
	for _, l := range lines {
		w = max(w, fyne.MeasureText(l.text, float32(l.size), fyne.TextStyle{Bold: l.bold}).Width)
		h += float32(l.height)
	}
	w += 2 * tooltipPad
	pos := r.tooltipPos(s.layout.Boxes[v], fyne.NewSize(w, h))
	bg := r.rect()
	bg.FillColor = r.pal.NodeBody
	bg.StrokeColor = r.pal.Accent
	bg.StrokeWidth = 1
	bg.CornerRadius = tooltipRadius
	bg.Move(pos)
	bg.Resize(fyne.NewSize(w, h))
	y := pos.Y + tooltipPad
	for _, l := range lines {
		col := r.pal.Text
		t := r.textObject()
		t.Text, t.Color, t.TextSize, t.TextStyle = l.text, col, float32(l.size), fyne.TextStyle{Bold: l.bold}
		t.Move(fyne.NewPos(pos.X+tooltipPad, y))
		t.Resize(fyne.NewSize(w-2*tooltipPad, float32(l.height)))
		y += float32(l.height)
	}
}

// tooltipPos puts a tooltip of size below the box (above it when there
// is no room below), kept inside the view.
func (r *renderer) tooltipPos(box layout.Rect, size fyne.Size) fyne.Position {
	view := r.g.Size()
	p0, p1 := r.pt(box.Min), r.pt(box.Max)
	pos := fyne.NewPos(p0.X, p1.Y+tooltipGap)
	if pos.Y+size.Height > view.Height && p0.Y-tooltipGap-size.Height >= 0 {
		pos.Y = p0.Y - tooltipGap - size.Height
	}
	pos.X = max(0, min(pos.X, view.Width-size.Width))
	pos.Y = max(0, min(pos.Y, view.Height-size.Height))
	return pos
}

// wrapText breaks text into lines no wider than room, after a '/', '.' or
// '_' where one is near the end of a line (node names are paths), else
// anywhere; a name must show whole.
func wrapText(text string, size float32, style fyne.TextStyle, room float32) []string {
	var lines []string
	runes := []rune(text)
	for len(runes) > 0 {
		// The longest head that fits, at least one rune.
		lo, hi := 1, len(runes)
		for lo < hi {
			mid := (lo + hi + 1) / 2
			if fyne.MeasureText(string(runes[:mid]), size, style).Width <= room {
				lo = mid
			} else {
				hi = mid - 1
			}
		}
		n := lo
		if n < len(runes) {
			for k := n; k > n*2/3; k-- {
				if strings.ContainsRune("/._", runes[k-1]) {
					n = k
					break
				}
			}
		}
		lines = append(lines, string(runes[:n]))
		runes = runes[n:]
	}
	return lines
}
