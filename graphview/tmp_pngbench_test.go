package graphview

import (
	"io"
	"testing"
)

func BenchmarkTmpPNG(b *testing.B) {
	s := estimateScene(b, generated(2000), TopToBottom)
	for b.Loop() {
		ExportPNG(io.Discard, s, ExportOptions{}, 0)
	}
}
