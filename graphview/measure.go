package graphview

import (
	"sync"
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

// FyneMeasure returns a MeasureFunc that uses the current Fyne app's text
// metrics (the theme's font), falling back to EstimateMeasure when no app
// runs. Widths are summed from cached per-rune advances, which ignores
// kerning (a fraction of a unit per pair) but measures a 10k-node graph's
// labels in milliseconds instead of shaping every string. Safe for
// concurrent use.
func FyneMeasure() MeasureFunc {
	m := &runeMeasurer{wide: map[runeKey]float32{}}
	return m.measure
}

type runeKey struct {
	r    rune
	size float32
	bold bool
}

type runeMeasurer struct {
	mu    sync.Mutex
	ascii map[styleKey]*[128]float32
	wide  map[runeKey]float32
}

type styleKey struct {
	size float32
	bold bool
}

func (m *runeMeasurer) measure(text string, size float32, bold bool) float32 {
	if fyne.CurrentApp() == nil {
		return EstimateMeasure(text, size, bold)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.ascii == nil {
		m.ascii = map[styleKey]*[128]float32{}
	}
	sk := styleKey{size, bold}
	table := m.ascii[sk]
	if table == nil {
		table = new([128]float32)
		for i := range table {
			table[i] = -1
		}
		m.ascii[sk] = table
	}
	style := fyne.TextStyle{Bold: bold}
	w := float32(0)
	for _, r := range text {
		if r < utf8.RuneSelf {
			if table[r] < 0 {
				table[r] = fyne.MeasureText(string(r), size, style).Width
			}
			w += table[r]
			continue
		}
		k := runeKey{r, size, bold}
		adv, ok := m.wide[k]
		if !ok {
			adv = fyne.MeasureText(string(r), size, style).Width
			m.wide[k] = adv
		}
		w += adv
	}
	return w
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
