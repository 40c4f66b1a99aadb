package tmfile_test

import (
	"testing"

	"tensorscope/formats"
	"tensorscope/formats/tmfile"
	"tensorscope/formats/tmfile/synth"
)

func benchmarkDecode(b *testing.B, nodes int) {
	data, err := tmfile.Marshal(synth.CNN(nodes, false))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		doc, err := formats.DecodeAs("tmfile", "synthetic", data)
		if err != nil {
			b.Fatal(err)
		}
		if len(doc.Graph.Nodes) != nodes {
			b.Fatalf("%d nodes", len(doc.Graph.Nodes))
		}
	}
}

// BenchmarkDecode50k decodes the 50,000-node synthetic graph into a
// document (target: 200 ms).
func BenchmarkDecode50k(b *testing.B) { benchmarkDecode(b, 50000) }

func BenchmarkDecode10k(b *testing.B) { benchmarkDecode(b, 10000) }

func BenchmarkEncode50k(b *testing.B) {
	m := synth.CNN(50000, false)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := tmfile.Marshal(m); err != nil {
			b.Fatal(err)
		}
	}
}
