package graphview

import (
	"unicode/utf8"

	"fyne.io/fyne/v2"

	"tensorscope/graphview/layout"
)

// MeasureFunc returns the width of text set at size (in Fyne units), bold or
// regular. Scenes size their boxes with one.
type MeasureFunc func(text string, size float32, bold bool) float32

// EstimateMeasure sizes text without any font, from average advances
// (layout.EstimateTextWidth). Use it where no Fyne app runs.
func EstimateMeasure(text string, size float32, bold bool) float32 {
	w := float32(layout.EstimateTextWidth(text, float64(size)))
	if bold {
		w *= 1.06
	}
	return w
}

// FyneMeasure measures, with the current Fyne app's text metrics (the
// theme's font), every character g's text uses, in each size and weight a
// scene draws, and returns a MeasureFunc that sums those advances. Summing
// per-character advances ignores kerning (a fraction of a unit per pair)
// but measures a 10k-node graph in milliseconds instead of shaping every
// string.
//
// Fyne's metrics caches are not safe for concurrent use, so call
// FyneMeasure on the UI goroutine (GraphView.Load does); the function it
// returns only reads its own tables and may be used on any goroutine, e.g.
// to build the Scene in the background. Characters it has not seen, and
// every character when no Fyne app runs, are estimated.
func FyneMeasure(g *Graph) MeasureFunc {
	if fyne.CurrentApp() == nil {
		return EstimateMeasure
	}
	runes := map[rune]bool{'…': true}
	note := func(s string) {
		for _, r := range s {
			if r >= utf8.RuneSelf {
				runes[r] = true
			}
		}
	}
	if g != nil {
		for i := range g.Nodes {
			n := &g.Nodes[i]
			note(n.Title)
			note(n.Subtitle)
			for _, d := range n.Details {
				note(d)
			}
		}
		for _, e := range g.Edges {
			note(e.Label)
		}
	}
	wide := make([]rune, 0, len(runes))
	for r := range runes {
		wide = append(wide, r)
	}
	m := &runeMetrics{}
	for i, st := range sceneStyles {
		t := &m.tables[i]
		t.size, t.bold = st.size, st.bold
		style := fyne.TextStyle{Bold: st.bold}
		for r := rune(' '); r < utf8.RuneSelf; r++ {
			t.ascii[r] = fyne.MeasureText(string(r), st.size, style).Width
		}
		t.wide = make(map[rune]float32, len(wide))
		for _, r := range wide {
			t.wide[r] = fyne.MeasureText(string(r), st.size, style).Width
		}
	}
	return m.measure
}

// sceneStyles are the sizes and weights a scene sets text in.
var sceneStyles = [...]struct {
	size float32
	bold bool
}{{titleSize, true}, {subtitleSize, false}, {detailSize, false}, {labelSize, false}}

type runeTable struct {
	size  float32
	bold  bool
	ascii [utf8.RuneSelf]float32
	wide  map[rune]float32
}

// runeMetrics holds per-character advances for each scene style; it is
// never written after FyneMeasure returns.
type runeMetrics struct {
	tables [len(sceneStyles)]runeTable
}

func (m *runeMetrics) measure(text string, size float32, bold bool) float32 {
	// The table of the same weight and nearest size, scaled.
	t := &m.tables[0]
	for i := range m.tables {
		c := &m.tables[i]
		if c.bold == bold && (t.bold != bold || abs32(c.size-size) < abs32(t.size-size)) {
			t = c
		}
	}
	scale := size / t.size
	w := float32(0)
	for _, r := range text {
		switch adv, ok := t.wide[r]; {
		case r >= 0 && r < utf8.RuneSelf:
			w += t.ascii[r] * scale
		case ok:
			w += adv * scale
		default:
			w += EstimateMeasure(string(r), size, bold)
		}
	}
	return w
}

func abs32(x float32) float32 {
	if x < 0 {
		return -x
	}
	return x
}

// fitText shortens text with an ellipsis in the middle (keeping the
// distinctive tail of long node names) until it fits maxW.
func fitText(measure MeasureFunc, text string, size float32, bold bool, maxW float32) string {
	if measure(text, size, bold) <= maxW {
		return text
	}
	runes := []rune(text)
	// Largest k such that head(k) + "…" + tail(k) fits; tail gets the larger half.
	lo, hi := 0, len(runes)
	for lo < hi {
		k := (lo + hi + 1) / 2
		if measure(elide(runes, k), size, bold) <= maxW {
			lo = k
		} else {
			hi = k - 1
		}
	}
	return elide(runes, lo)
}

func elide(runes []rune, keep int) string {
	head := keep * 2 / 5
	tail := keep - head
	return string(runes[:head]) + "…" + string(runes[len(runes)-tail:])
}
