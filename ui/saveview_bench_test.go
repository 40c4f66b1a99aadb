package ui

import (
	"io"
	"testing"

	"tensorscope/internal/benchcpu"
)

// BenchmarkSaveViewHeatmap captures the Tensors pane's heatmap with its
// colour bar at the screen's resolution and at 4× (a 1000×700 window),
// as Save View does on the UI goroutine, and encodes the PNG.
func BenchmarkSaveViewHeatmap(b *testing.B) {
	dt, _ := openTab(b, 1000, 700, "fixture.tsr", tsrFixture(b))
	obj, _ := dt.mw.shownView()
	for _, c := range []struct {
		name  string
		scale float32
	}{{"1x", 1}, {"4x", 4}} {
		b.Run(c.name, func(b *testing.B) {
			benchcpu.Report(b, func() {
				img := CaptureObject(obj, c.scale)
				if err := encodeViewPNG(io.Discard, img); err != nil {
					b.Fatal(err)
				}
			})
		})
	}
}
