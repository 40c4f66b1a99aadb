package onnx_test

import (
	"os"
	"path/filepath"
	"testing"

	"tensorscope/formats"
	"tensorscope/formats/onnx/onnxtest"
	"tensorscope/internal/samples"
)

// BenchmarkDecodeSwinT opens torchvision's swin_t (6,623 nodes) from its
// file, as the viewer does: map, sniff, decode.
func BenchmarkDecodeSwinT(b *testing.B) {
	path := filepath.Join(samples.Dir(b, "onnx"), "torchvision-export", "swin_t_topology_w24_opset16.onnx")
	for b.Loop() {
		doc, err := formats.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		doc.Close()
	}
}

// BenchmarkDecodeCNN100k opens a generated model of 100,000 nodes and
// 50,000 initializers from a file.
func BenchmarkDecodeCNN100k(b *testing.B) {
	path := filepath.Join(b.TempDir(), "cnn100k.onnx")
	if err := os.WriteFile(path, onnxtest.CNN(100_000).Marshal(), 0o644); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		doc, err := formats.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		doc.Close()
	}
}
