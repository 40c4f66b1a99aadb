package layout

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"
)

// prepare runs the pipeline up to the layered graph of g's single
// component, with the initial ordering in place.
func prepare(t testing.TB, g *Graph) *layered {
	t.Helper()
	n := len(g.Nodes)
	var from, to []int32
	for _, e := range g.Edges {
		if e.From != e.To {
			from, to = append(from, int32(e.From)), append(to, int32(e.To))
		}
	}
	rev := make([]bool, len(from))
	breakCycles(n, from, to, rev)
	for i := range rev {
		if rev[i] {
			from[i], to[i] = to[i], from[i]
		}
	}
	layer, layers := assignLayers(n, from, to)
	w := make([]float64, n)
	h := make([]float64, n)
	for i, nd := range g.Nodes {
		w[i], h[i] = nd.Width, nd.Height
	}
	lg := newLayered(n, from, to, layer, layers, w, h)
	(&orderer{g: lg}).initial(true)
	return lg
}

// bruteCrossings counts crossings pair by pair: the reference for the
// accumulator-tree counter.
func bruteCrossings(g *layered) int {
	type seg struct{ a, b int32 }
	count := 0
	for l := 0; l+1 < g.layers; l++ {
		var segs []seg
		for _, v := range g.layerOf(l) {
			for _, w := range g.downs(v) {
				segs = append(segs, seg{g.pos[v], g.pos[w]})
			}
		}
		for i := range segs {
			for j := i + 1; j < len(segs); j++ {
				s, u := segs[i], segs[j]
				if (s.a < u.a && s.b > u.b) || (s.a > u.a && s.b < u.b) {
					count++
				}
			}
		}
	}
	return count
}

func setOrder(g *layered, perLayer [][]int32) {
	i := 0
	for _, vs := range perLayer {
		for p, v := range vs {
			g.order[i] = v
			g.pos[v] = int32(p)
			i++
		}
	}
}

func layersOf(g *layered) [][]int32 {
	out := make([][]int32, g.layers)
	for l := range out {
		out[l] = slices.Clone(g.layerOf(l))
	}
	return out
}

func TestCrossingCounterMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var cc crossingCounter
	for seed := uint64(0); seed < 60; seed++ {
		g := prepare(t, randomGraph(seed, 5+int(seed%30), 10+int(seed%50), false))
		for range 5 {
			ls := layersOf(g)
			for _, vs := range ls {
				rng.Shuffle(len(vs), func(i, j int) { vs[i], vs[j] = vs[j], vs[i] })
			}
			setOrder(g, ls)
			if got, want := cc.total(g), bruteCrossings(g); got != want {
				t.Fatalf("seed %d: counter says %d crossings, pairwise count %d", seed, got, want)
			}
		}
	}
}

// plainBarycenter is the baseline the issue compares against, written
// independently of the orderer: start from the vertices in index order,
// sweep down and up with the barycenter heuristic (vertices without
// neighbours on the fixed side keep their slots), and stop after the
// given number of sweeps.
func plainBarycenter(g *layered, sweeps int) int {
	ls := make([][]int32, g.layers)
	for v := 0; v < g.nv; v++ {
		ls[g.layer[v]] = append(ls[g.layer[v]], int32(v))
	}
	setOrder(g, ls)
	for s := 0; s < sweeps; s++ {
		down := s%2 == 0
		for k := 1; k < g.layers; k++ {
			l := k
			if !down {
				l = g.layers - 1 - k
			}
			vs := ls[l]
			type kv struct {
				key float64
				v   int32
			}
			var movable []kv
			var slots []int
			for i, v := range vs {
				nbs := g.ups(v)
				if !down {
					nbs = g.downs(v)
				}
				if len(nbs) == 0 {
					continue
				}
				sum := 0.0
				for _, w := range nbs {
					sum += float64(g.pos[w])
				}
				movable = append(movable, kv{sum / float64(len(nbs)), v})
				slots = append(slots, i)
			}
			slices.SortStableFunc(movable, func(a, b kv) int { return cmp.Compare(a.key, b.key) })
			for i, s := range slots {
				vs[s] = movable[i].v
			}
			for i, v := range vs {
				g.pos[v] = int32(i)
			}
		}
	}
	setOrder(g, ls)
	return bruteCrossings(g)
}

// The ordering never leaves more crossings than the plain barycenter sweep,
// here reimplemented independently (and checked to agree with what the
// orderer reports as its baseline).
func TestCrossingsNoWorseThanBarycenter(t *testing.T) {
	totalOurs, totalBase := 0, 0
	for seed := uint64(0); seed < 300; seed++ {
		n := 6 + int(seed%60)
		g := randomGraph(seed, n, n+int(seed%4)*n/2, true)
		lg := prepare(t, g)
		base := plainBarycenter(lg, 4)
		lg = prepare(t, g)
		ourBase, ours, _ := order(lg)
		if got := bruteCrossings(lg); got != ours {
			t.Fatalf("seed %d: order reports %d crossings, ordering has %d", seed, ours, got)
		}
		if ourBase != base {
			t.Fatalf("seed %d: Stats.BaselineCrossings %d, independent plain sweep %d", seed, ourBase, base)
		}
		if ours > base {
			t.Errorf("seed %d: %d crossings, plain barycenter sweep %d", seed, ours, base)
		}
		totalOurs += ours
		totalBase += base
	}
	t.Logf("300 random DAGs: %d crossings in total, plain barycenter sweep %d", totalOurs, totalBase)
}

// optimum finds the fewest crossings over every ordering of every layer.
func optimum(g *layered) int {
	ls := layersOf(g)
	best := -1
	var rec func(l int)
	rec = func(l int) {
		if l == len(ls) {
			setOrder(g, ls)
			if c := bruteCrossings(g); best < 0 || c < best {
				best = c
			}
			return
		}
		permute(ls[l], 0, func() { rec(l + 1) })
	}
	rec(0)
	return best
}

func permute(a []int32, k int, f func()) {
	if k >= len(a)-1 {
		f()
		return
	}
	for i := k; i < len(a); i++ {
		a[k], a[i] = a[i], a[k]
		permute(a, k+1, f)
		a[k], a[i] = a[i], a[k]
	}
}

// Known small graphs: the ordering reaches the exact optimum, found here by
// trying every ordering.
func TestCrossingsKnownGraphs(t *testing.T) {
	nodes := func(n int) []Node {
		ns := make([]Node, n)
		for i := range ns {
			ns[i] = Node{Width: 30, Height: 20}
		}
		return ns
	}
	edges := func(pairs ...int) []Edge {
		var es []Edge
		for i := 0; i < len(pairs); i += 2 {
			es = append(es, Edge{From: pairs[i], To: pairs[i+1]})
		}
		return es
	}
	cases := []struct {
		name string
		g    *Graph
		want int // the optimum, also checked by exhaustive search
	}{
		{"K3,3", &Graph{nodes(6), edges(0, 3, 0, 4, 0, 5, 1, 3, 1, 4, 1, 5, 2, 3, 2, 4, 2, 5)}, 9},
		{"K2,2 twice stacked", &Graph{nodes(6), edges(0, 2, 0, 3, 1, 2, 1, 3, 2, 4, 2, 5, 3, 4, 3, 5)}, 2},
		{"twisted ladder", &Graph{nodes(8), edges(0, 7, 1, 6, 2, 5, 3, 4, 0, 1, 2, 3)}, 0},
		{"6-cycle on two layers", &Graph{nodes(6), edges(0, 3, 0, 4, 1, 4, 1, 5, 2, 5, 2, 3)}, 2},
		{"cube", &Graph{nodes(8), edges(0, 1, 0, 2, 0, 4, 1, 3, 1, 5, 2, 3, 2, 6, 4, 5, 4, 6, 3, 7, 5, 7, 6, 7)}, 2},
		{"crossed diamonds", &Graph{nodes(7), edges(0, 1, 0, 2, 0, 3, 1, 6, 3, 4, 2, 5, 1, 5, 3, 5, 4, 6, 5, 6)}, -1},
		{"residual block", &Graph{nodes(8), edges(0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 0, 5, 5, 6, 0, 7, 7, 6)}, 0},
	}
	for _, c := range cases {
		lg := prepare(t, c.g)
		opt := optimum(lg)
		if c.want >= 0 && opt != c.want {
			t.Fatalf("%s: exhaustive optimum %d, expected %d", c.name, opt, c.want)
		}
		lg = prepare(t, c.g)
		_, got, _ := order(lg)
		if got > opt {
			t.Errorf("%s: %d crossings, optimum %d", c.name, got, opt)
		}
	}
}
