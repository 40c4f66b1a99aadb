package viewmodel

import (
	"image"
	"image/color"
	"testing"

	"tensorscope/formats"
	"tensorscope/tensor"
)

var testStyle = PlotStyle{Foreground: color.White, Background: color.Black, Grid: color.Gray{Y: 60}}

// countColour counts pixels close to c.
func countColour(img image.Image, c color.Color) int {
	r0, g0, b0, _ := c.RGBA()
	n := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bb, _ := img.At(x, y).RGBA()
			if absDiff(r, r0) < 0x800 && absDiff(g, g0) < 0x800 && absDiff(bb, b0) < 0x800 {
				n++
			}
		}
	}
	return n
}

func absDiff(a, b uint32) uint32 {
	if a > b {
		return a - b
	}
	return b - a
}

func TestRenderHistogramDrawsBars(t *testing.T) {
	h := &tensor.Histogram{Lo: -1, Hi: 1, Counts: []int64{1, 5, 9, 3, 0, 2, 7, 1}}
	img := DrawPlot(histogramPlot(h, false, testStyle), 600, 300)
	if img.Bounds().Dx() != 600 || img.Bounds().Dy() != 300 {
		t.Fatalf("size %v", img.Bounds())
	}
	bars := countColour(img, DefaultSeriesColors[0])
	if bars < 600*300/10 {
		t.Errorf("only %d pixels of bar colour: the bars were not drawn", bars)
	}
	if brightPixels(img) < 100 {
		t.Errorf("no axes or labels drawn in the foreground colour")
	}
	logImg := DrawPlot(histogramPlot(h, true, testStyle), 600, 300)
	if countColour(logImg, DefaultSeriesColors[0]) == 0 {
		t.Errorf("log-scale histogram drew no bars")
	}
}

func TestRenderPlotDrawsCurves(t *testing.T) {
	p := formats.Plot{Title: "loss", XLabel: "epoch", YLabel: "loss", Series: []formats.Series{
		{Name: "train", Y: []float64{1, 0.5, 0.3, 0.2}}, {Name: "val", Y: []float64{1.1, 0.7, 0.5, 0.45}},
	}}
	img, err := RenderPlot(p, 500, 250, testStyle)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ {
		if countColour(img, DefaultSeriesColors[i]) < 50 {
			t.Errorf("series %d not drawn", i)
		}
	}
}

// brightPixels counts near-white pixels (anti-aliased text and axes in the
// white foreground).
func brightPixels(img image.Image) int {
	n := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bb, _ := img.At(x, y).RGBA()
			if r > 0x9000 && g > 0x9000 && bb > 0x9000 {
				n++
			}
		}
	}
	return n
}
