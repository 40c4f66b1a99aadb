package layout

import "testing"

// FuzzLayout builds a graph from arbitrary bytes (node count, sizes, edges,
// labels, direction) and checks every layout invariant.
func FuzzLayout(f *testing.F) {
	f.Add([]byte{5, 0, 1, 1, 2, 2, 3, 3, 4, 4, 0})
	f.Add([]byte{3, 1, 0, 0, 1, 1, 2, 2, 0})
	f.Add([]byte{40, 0, 0, 39, 1, 38, 2, 37, 3, 36, 39, 0, 5, 5, 7, 20, 20, 7})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 2 {
			return
		}
		if len(data) > 1024 { // shape, not volume: keep executions fast
			data = data[:1024]
		}
		n := int(data[0])
		g := &Graph{Nodes: make([]Node, n)}
		opt := Options{Direction: Direction(data[1] & 1)}
		rest := data[2:]
		for i := range g.Nodes {
			w, h := 30.0, 20.0
			if i < len(rest) {
				w += float64(rest[i])
				h += float64(rest[i] % 40)
			}
			g.Nodes[i] = Node{Width: w, Height: h}
		}
		for i := 0; n > 0 && i+1 < len(rest); i += 2 {
			e := Edge{From: int(rest[i]) % n, To: int(rest[i+1]) % n}
			if rest[i]&0x80 != 0 {
				e.LabelWidth, e.LabelHeight = float64(rest[i+1]), 12
			}
			g.Edges = append(g.Edges, e)
		}
		res, err := Layout(g, opt)
		if err != nil {
			t.Fatal(err)
		}
		checkLayout(t, g, res)
	})
}
