package tflite_test

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"tensorscope/formats"
	"tensorscope/formats/tflite/tflitetest"
	"tensorscope/internal/benchcpu"
)

// BenchmarkDecodeChain5000 opens the generated 5,000-operator model from
// a file, as the viewer does: map, sniff, verify, decode.
func BenchmarkDecodeChain5000(b *testing.B) {
	path := filepath.Join(b.TempDir(), "chain5000.tflite")
	if err := os.WriteFile(path, tflitetest.Chain(5000).Bytes(), 0o644); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	benchcpu.Report(b, func() {
		doc, err := formats.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		doc.Close()
	})
}

// BenchmarkInfoJSON1G opens a model of 960 MiB of inline weights
// ($TENSORSCOPE_LARGE_TFLITE, made by `go run
// ./formats/tflite/tflitetest/gentflite -weights 960 -o FILE`, or written
// into the benchmark's temporary folder) and writes what `info --json`
// prints, in process.
func BenchmarkInfoJSON1G(b *testing.B) {
	path := os.Getenv("TENSORSCOPE_LARGE_TFLITE")
	if path == "" {
		path = filepath.Join(b.TempDir(), "big1g.tflite")
		if err := os.WriteFile(path, tflitetest.Heavy(960).Bytes(), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	benchcpu.Report(b, func() {
		doc, err := formats.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		if err := doc.WriteJSON(io.Discard); err != nil {
			b.Fatal(err)
		}
		doc.Close()
	})
}
