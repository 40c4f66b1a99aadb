package layout

import "testing"

func benchLayout(b *testing.B, n int) {
	g := GenerateCNN(n).Graph(tengineTitle)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := Layout(g, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkLayout1k(b *testing.B)  { benchLayout(b, 1_000) }
func BenchmarkLayout10k(b *testing.B) { benchLayout(b, 10_000) }
func BenchmarkLayout50k(b *testing.B) { benchLayout(b, 50_000) }

// BenchmarkLayoutMesh10k lays out a 100×100 mesh in which every node feeds
// the node below it and a node of the next row chosen by a fixed
// permutation: wide layers full of unavoidable crossings, so the ordering
// runs all its sweeps, unlike on the planar CNN graphs.
func BenchmarkLayoutMesh10k(b *testing.B) {
	const cols, rows = 100, 100
	g := &Graph{}
	for r := 0; r < rows; r++ {
		for c := 0; c < cols; c++ {
			g.Nodes = append(g.Nodes, Node{Width: 80 + float64((r*7+c*13)%60), Height: 40})
			if r > 0 {
				v := r*cols + c
				g.Edges = append(g.Edges, Edge{From: v - cols, To: v},
					Edge{From: v - cols, To: r*cols + (c*37+11)%cols})
			}
		}
	}
	b.ReportAllocs()
	var res *Result
	for b.Loop() {
		var err error
		if res, err = Layout(g, Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(res.Stats.Crossings), "crossings")
	b.ReportMetric(float64(res.Stats.BaselineCrossings), "baseline-crossings")
}
