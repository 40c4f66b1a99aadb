package viewmodel

import (
	"testing"

	"tensorscope/tensor"
)

func TestHistogramBinInfo(t *testing.T) {
	r := &tensor.Histogram{Lo: -0.04, Hi: 0.04, Counts: []int64{5, 1234, 0, 7}}
	for _, c := range []struct {
		v    float64
		want string
	}{
		{-0.04, "[-0.04, -0.02): 5"},
		{-0.015, "[-0.02, 0): 1,234"},
		{0.039, "[0.02, 0.04]: 7"},
		{0.04, "[0.02, 0.04]: 7"}, // the last bin holds its upper bound
		{0.05, ""},
		{-0.041, ""},
	} {
		if got := histogramBinInfo(r, c.v, false); got != c.want {
			t.Errorf("value %g: %q, want %q", c.v, got, c.want)
		}
	}
	perValue := &tensor.Histogram{Lo: -0.5, Hi: 2.5, Counts: []int64{10, 20, 3000}}
	if got := histogramBinInfo(perValue, 1.9, true); got != "value 2: 3,000" {
		t.Errorf("one bin per value: %q", got)
	}
}

// The hover text maps a pixel of the drawn histogram back to its bar.
func TestHistogramInfoAtPixel(t *testing.T) {
	in, q, _ := newTestInspector()
	in.Show(0, f32Entry("w", []int{100}, seq(100))) // 0..99
	must(t, in.SetHistBins(16))
	drain(t, q, in)
	if got := in.HistogramInfoAt(200, 400, 300); got != "" {
		t.Errorf("before drawing: %q", got)
	}
	if in.RenderHistogram(400, 300, PlotStyle{}) == nil {
		t.Fatal("no histogram drawn")
	}
	f := in.hist.frame
	pixelOf := func(v float64) float64 { return f.left + (v-f.xmin)/(f.xmax-f.xmin)*(f.right-f.left) }
	r, _ := in.Histogram()
	width := (r.Hi - r.Lo) / 16
	mid := r.Lo + 2.5*width // the middle of bin 2
	want := histogramBinInfo(r, mid, false)
	if got := in.HistogramInfoAt(pixelOf(mid), 400, 300); got != want || got == "" {
		t.Errorf("hover over bin 2: %q, want %q", got, want)
	}
	if want != "[12.38, 18.56): 6" {
		t.Errorf("bin 2 of 0..99 in 16 bins: %q", want)
	}
	if got := in.HistogramInfoAt(f.left-5, 400, 300); got != "" {
		t.Errorf("left of the axis: %q", got)
	}
	if got := in.HistogramInfoAt(pixelOf(mid), 500, 300); got != "" {
		t.Errorf("at a size not drawn: %q", got)
	}
}
