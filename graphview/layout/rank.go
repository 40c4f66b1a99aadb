package layout

// assignLayers puts every vertex of an acyclic graph in a layer so that each
// edge goes from a lower to a strictly higher layer. It starts from the
// longest path from the sources, which leaves every source in layer 0; then,
// in reverse topological order, a vertex with more outgoing than incoming
// edges (a weight, a graph input, a shared constant) moves down to just above
// its highest successor. That shortens its edges without lengthening more than
// it saves, so producers sit next to their consumers instead of all at the top.
// It returns the layers (starting at 0) and the number of layers.
func assignLayers(n int, from, to []int32) ([]int32, int) {
	outOff, outAdj := csr(n, from)
	indeg := make([]int32, n)
	for _, t := range to {
		indeg[t]++
	}
	remaining := make([]int32, n)
	copy(remaining, indeg)
	topo := make([]int32, 0, n)
	for v := 0; v < n; v++ {
		if indeg[v] == 0 {
			topo = append(topo, int32(v))
		}
	}
	layer := make([]int32, n)
	for head := 0; head < len(topo); head++ {
		v := topo[head]
		for _, e := range outAdj[outOff[v]:outOff[v+1]] {
			w := to[e]
			if layer[v]+1 > layer[w] {
				layer[w] = layer[v] + 1
			}
			remaining[w]--
			if remaining[w] == 0 {
				topo = append(topo, w)
			}
		}
	}
	if len(topo) != n {
		panic("layout: assignLayers on a cyclic graph") // breakCycles guarantees otherwise
	}
	for i := n - 1; i >= 0; i-- {
		v := topo[i]
		out := outOff[v+1] - outOff[v]
		if out == 0 || out <= indeg[v] {
			continue
		}
		lowest := int32(-1)
		for _, e := range outAdj[outOff[v]:outOff[v+1]] {
			if l := layer[to[e]]; lowest < 0 || l < lowest {
				lowest = l
			}
		}
		if lowest-1 > layer[v] {
			layer[v] = lowest - 1
		}
	}
	lo, hi := int32(0), int32(0)
	if n > 0 {
		lo, hi = layer[0], layer[0]
	}
	for _, l := range layer {
		lo = min(lo, l)
		hi = max(hi, l)
	}
	for v := range layer {
		layer[v] -= lo
	}
	return layer, int(hi-lo) + 1
}
