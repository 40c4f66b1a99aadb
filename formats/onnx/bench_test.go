package onnx_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"tensorscope/formats"
	"tensorscope/formats/onnx/onnxtest"
	"tensorscope/internal/benchcpu"
	"tensorscope/internal/samples"
	"tensorscope/tensor"
)

// BenchmarkDecodeSwinT opens torchvision's swin_t (6,623 nodes) from its
// file, as the viewer does: map, sniff, decode.
func BenchmarkDecodeSwinT(b *testing.B) {
	path := filepath.Join(samples.Dir(b, "onnx"), "torchvision-export", "swin_t_topology_w24_opset16.onnx")
	b.ReportAllocs()
	benchcpu.Report(b, func() {
		doc, err := formats.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		doc.Close()
	})
}

// BenchmarkDecodeCNN100k opens a generated model of 100,000 nodes and
// 50,000 initializers from a file.
func BenchmarkDecodeCNN100k(b *testing.B) {
	path := filepath.Join(b.TempDir(), "cnn100k.onnx")
	if err := os.WriteFile(path, onnxtest.CNN(100_000).Marshal(), 0o644); err != nil {
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

// largeModel is a 2 GiB model of eight 8192×8192 float32 raw_data
// initializers: $TENSORSCOPE_LARGE_ONNX when set (made by
// `go run ./formats/onnx/onnxtest/gen -large 8x8192x8192 -out FILE`), else
// written into the benchmark's temporary folder.
func largeModel(b *testing.B) string {
	if p := os.Getenv("TENSORSCOPE_LARGE_ONNX"); p != "" {
		return p
	}
	p := filepath.Join(b.TempDir(), "large2g.onnx")
	if err := onnxtest.WriteLargeFile(p, 8, 8192, 8192); err != nil {
		b.Fatal(err)
	}
	return p
}

// BenchmarkInfoLarge2G opens the 2 GiB model and marshals what
// `info --json` prints, in process.
func BenchmarkInfoLarge2G(b *testing.B) {
	path := largeModel(b)
	b.ReportAllocs()
	for b.Loop() {
		doc, err := formats.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := json.Marshal(doc); err != nil {
			b.Fatal(err)
		}
		doc.Close()
	}
}

// BenchmarkStatsLargestInitializer computes the statistics of one 256 MiB
// initializer of the 2 GiB model through the document ("onnx"), and of the
// same bytes as a plain tensor ("core"): the two should run at the same
// speed, since raw_data is viewed in place.
func BenchmarkStatsLargestInitializer(b *testing.B) {
	doc, err := formats.Open(largeModel(b))
	if err != nil {
		b.Fatal(err)
	}
	defer doc.Close()
	x, err := doc.Tensor("w0").Load(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	plain, err := tensor.FromBytes(slices.Clone(doc.Bytes()[doc.Tensor("w0").Offset:][:x.Len()*4]), tensor.Float32, x.Shape())
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		t    *tensor.Tensor
	}{{"onnx", x}, {"core", plain}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(x.Len() * 4))
			benchcpu.Report(b, func() {
				if _, err := tensor.ComputeStats(context.Background(), c.t, nil); err != nil {
					b.Fatal(err)
				}
			})
		})
	}
}
