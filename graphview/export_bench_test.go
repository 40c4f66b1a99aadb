package graphview

import (
	"io"
	"testing"

	"fyne.io/fyne/v2/test"
)

// BenchmarkExportPNG10k draws a 10k-node graph at the default size cap
// (it is tall, so MaxPNGSide binds) and encodes it.
func BenchmarkExportPNG10k(b *testing.B) {
	s := estimateScene(b, generated(10_000), TopToBottom)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ExportPNG(io.Discard, s, ExportOptions{}, 0); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkExportPNG200 draws a 200-node graph at full scale (1 px per
// unit, about 800×13000 pixels), with text: the vector path.
func BenchmarkExportPNG200(b *testing.B) {
	s := estimateScene(b, generated(200), TopToBottom)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ExportPNG(io.Discard, s, ExportOptions{}, 0); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkExportSVG10k(b *testing.B) {
	s := estimateScene(b, generated(10_000), TopToBottom)
	b.ReportAllocs()
	for b.Loop() {
		if err := ExportSVG(io.Discard, s, ExportOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkScene10k is the whole preparation of a 10k-node graph for
// drawing: measuring text (Fyne metrics), layout, spatial index, labels.
func BenchmarkScene10k(b *testing.B) {
	g := generated(10_000)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := NewScene(g, SceneOptions{Measure: EstimateMeasure}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkScene10kFyne is the same with text measured by Fyne, as the
// widget does (FyneMeasure included).
func BenchmarkScene10kFyne(b *testing.B) {
	test.NewTempApp(b)
	g := generated(10_000)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := NewScene(g, SceneOptions{Measure: FyneMeasure(g)}); err != nil {
			b.Fatal(err)
		}
	}
}
