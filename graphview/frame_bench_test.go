package graphview

import (
	"fmt"
	"slices"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

// BenchmarkFrame10k measures building one frame of a 10k-node graph in a
// 1600×1000 view: the canvas objects for what is visible or, zoomed far
// out, the overview raster (whose pixels are drawn here too).
func BenchmarkFrame10k(b *testing.B) {
	test.NewTempApp(b)
	s, err := NewScene(generated(10_000), SceneOptions{})
	if err != nil {
		b.Fatal(err)
	}
	g := NewGraphView(s)
	g.Resize(fyne.NewSize(1600, 1000))
	r := newRenderer(g)
	w, h := s.Size()
	mid := s.layout.Nodes[len(s.graph.Nodes)/2]
	for _, v := range []struct {
		name string
		set  func()
	}{
		{"fit", func() { g.Fit() }},
		{"zoom0.05", func() { g.SetView(0.05, fyne.NewPos(800-float32(mid.X)*0.05, 500-float32(mid.Y)*0.05)) }},
		{"zoom0.2", func() { g.SetView(0.2, fyne.NewPos(800-float32(mid.X)*0.2, 500-float32(mid.Y)*0.2)) }},
		{"zoom0.5", func() { g.SetView(0.5, fyne.NewPos(800-float32(mid.X)*0.5, 500-float32(mid.Y)*0.5)) }},
		{"zoom1", func() { g.SetView(1, fyne.NewPos(800-float32(mid.X), 500-float32(mid.Y))) }},
		{"zoom2", func() { g.SetView(2, fyne.NewPos(800-float32(mid.X)*2, 500-float32(mid.Y)*2)) }},
		{"empty", func() { g.SetView(1, fyne.NewPos(float32(-w-5000), float32(-h))) }},
	} {
		b.Run(v.name, func(b *testing.B) {
			v.set()
			b.ReportAllocs()
			for b.Loop() {
				r.build()
				if slices.Contains(r.objects, fyne.CanvasObject(r.raster)) { // the minimap may follow it
					r.overview.generate(1600, 1000)
				}
			}
			b.ReportMetric(float64(len(r.objects)), "objects")
		})
	}
}

// BenchmarkFrame10kWide is the densest case: a 100×100 mesh, viewed at the
// zooms just above and below the switch to the overview raster.
func BenchmarkFrame10kWide(b *testing.B) {
	test.NewTempApp(b)
	s, err := NewScene(mesh(100, 100), SceneOptions{})
	if err != nil {
		b.Fatal(err)
	}
	g := NewGraphView(s)
	g.Resize(fyne.NewSize(1600, 1000))
	r := newRenderer(g)
	w, h := s.Size()
	for _, z := range []float32{0.06, 0.09, 0.12, 0.2, 0.3, 0.6, 1} {
		b.Run(fmt.Sprintf("zoom%g", z), func(b *testing.B) {
			g.SetView(z, fyne.NewPos(800-float32(w/2)*z, 500-float32(h/2)*z))
			b.ReportAllocs()
			for b.Loop() {
				r.build()
				if slices.Contains(r.objects, fyne.CanvasObject(r.raster)) { // the minimap may follow it
					r.overview.generate(1600, 1000)
				}
			}
			b.ReportMetric(float64(len(r.objects)), "objects")
		})
	}
}
