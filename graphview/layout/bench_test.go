package layout

import "testing"

func benchLayout(b *testing.B, n int) {
	g := GenerateCNN(n).Graph()
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
