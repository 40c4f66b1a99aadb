package tsm

import (
	"path/filepath"
	"testing"

	"tensorscope/formats"
	"tensorscope/internal/samples"
)

func benchmarkOpen(b *testing.B, name string) {
	path := filepath.Join(samples.Dir(b, "tsm"), name)
	b.ReportAllocs()
	for b.Loop() {
		doc, err := formats.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		doc.Close()
	}
}

// BenchmarkOpenFaceDetector opens the largest sample, the 4 MB .csta:
// decrypt, piece tree, module, document.
func BenchmarkOpenFaceDetector(b *testing.B) { benchmarkOpen(b, "face_detector.csta") }

// BenchmarkOpenFaceDetectorTSM opens the same model as a plain module
// (memory-mapped, no copy of tensor data).
func BenchmarkOpenFaceDetectorTSM(b *testing.B) { benchmarkOpen(b, "face_detector.tsm") }
