package layout

import (
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// randomGraph returns n nodes of varied sizes and m random edges; with
// dag=true every edge runs from a lower to a higher index.
func randomGraph(seed uint64, n, m int, dag bool) *Graph {
	rng := rand.New(rand.NewPCG(seed, 42))
	g := &Graph{Nodes: make([]Node, n)}
	for i := range g.Nodes {
		g.Nodes[i] = Node{Width: 20 + float64(rng.IntN(120)), Height: 20 + float64(rng.IntN(40))}
	}
	for len(g.Edges) < m && n > 1 {
		a, b := rng.IntN(n), rng.IntN(n)
		if dag {
			if a == b {
				continue
			}
			a, b = min(a, b), max(a, b)
		}
		e := Edge{From: a, To: b}
		if rng.IntN(3) == 0 {
			e.LabelWidth, e.LabelHeight = 30+float64(rng.IntN(40)), 12
		}
		g.Edges = append(g.Edges, e)
	}
	return g
}

func mustLayout(t *testing.T, g *Graph, opt Options) *Result {
	t.Helper()
	res, err := Layout(g, opt)
	if err != nil {
		t.Fatal(err)
	}
	checkLayout(t, g, res)
	return res
}

func TestEmptyGraph(t *testing.T) {
	res := mustLayout(t, &Graph{}, Options{})
	if res.Width != 0 || res.Height != 0 || res.Stats.Components != 0 {
		t.Fatalf("empty graph: %+v", res)
	}
}

func TestGeneratedCNN(t *testing.T) {
	for _, n := range []int{1, 2, 5, 10, 37, 200, 1000} {
		for _, dir := range []Direction{TopToBottom, LeftToRight} {
			gen := GenerateCNN(n)
			if len(gen.Roles) != n {
				t.Fatalf("GenerateCNN(%d) made %d nodes", n, len(gen.Roles))
			}
			g := gen.Graph(tengineTitle)
			res := mustLayout(t, g, Options{Direction: dir})
			if res.Stats.Reversed != 0 || res.Stats.Components != 1 || res.Stats.Detours != 0 {
				t.Errorf("n=%d %v: %+v", n, dir, res.Stats)
			}
			for j := range g.Edges {
				if v, hit := routeHitsBox(res, g, j); hit {
					t.Fatalf("n=%d %v: edge %d %v passes through node %d %v", n, dir, j, res.Edges[j].Points, v, res.Boxes[v])
				}
			}
		}
	}
}

// The generated residual network is planar with the skip beside the chain;
// the layout must find a drawing without crossings and keep the main chain
// straight: every conv → bn → relu run shares one x.
func TestCNNChainsStraight(t *testing.T) {
	gen := GenerateCNN(500)
	g := gen.Graph(tengineTitle)
	res := mustLayout(t, g, Options{})
	if res.Stats.Crossings != 0 {
		t.Errorf("crossings = %d, want 0", res.Stats.Crossings)
	}
	bent := 0
	for _, e := range g.Edges {
		from, to := gen.Names[e.From], gen.Names[e.To]
		if strings.HasSuffix(from, ".conv1") && strings.HasSuffix(to, ".bn1") ||
			strings.HasSuffix(from, ".bn1") && strings.HasSuffix(to, ".relu1") {
			if res.Nodes[e.From].X != res.Nodes[e.To].X {
				bent++
			}
		}
	}
	if bent != 0 {
		t.Errorf("%d chain edges are not vertical", bent)
	}
}

func TestDirectionTransposes(t *testing.T) {
	g := GenerateCNN(60).Graph(tengineTitle)
	tb := mustLayout(t, g, Options{Direction: TopToBottom})
	lr := mustLayout(t, g, Options{Direction: LeftToRight})
	// Edges flow down in one and right in the other.
	for _, e := range g.Edges {
		if tb.Nodes[e.From].Y >= tb.Nodes[e.To].Y {
			t.Fatalf("top-to-bottom: edge %v goes up", e)
		}
		if lr.Nodes[e.From].X >= lr.Nodes[e.To].X {
			t.Fatalf("left-to-right: edge %v goes left", e)
		}
	}
	if tb.Height <= tb.Width || lr.Width <= lr.Height {
		t.Errorf("a chain should be tall top-to-bottom (%gx%g) and wide left-to-right (%gx%g)", tb.Width, tb.Height, lr.Width, lr.Height)
	}
}

func TestRandomGraphs(t *testing.T) {
	for seed := uint64(0); seed < 150; seed++ {
		n := 2 + int(seed%40)
		m := int(seed%3+1) * n / 2
		g := randomGraph(seed, n, m, seed%2 == 0)
		for _, dir := range []Direction{TopToBottom, LeftToRight} {
			res := mustLayout(t, g, Options{Direction: dir})
			if seed%2 == 0 && res.Stats.Reversed != 0 {
				t.Fatalf("seed %d: acyclic input had %d edges reversed", seed, res.Stats.Reversed)
			}
			for j, e := range g.Edges {
				if e.From == e.To || res.Edges[j].Detour {
					continue
				}
				if v, hit := routeHitsBox(res, g, j); hit {
					t.Fatalf("seed %d %v: edge %d %v passes through node %d %v", seed, dir, j, res.Edges[j].Points, v, res.Boxes[v])
				}
			}
		}
	}
}

func TestCyclesAndSelfLoops(t *testing.T) {
	g := &Graph{}
	for range 6 {
		g.Nodes = append(g.Nodes, Node{Width: 50, Height: 30})
	}
	// A 4-cycle, a self-loop on a cycle node and one on an isolated node,
	// a 2-cycle and parallel edges.
	g.Edges = []Edge{{From: 0, To: 1}, {From: 1, To: 2}, {From: 2, To: 3}, {From: 3, To: 0},
		{From: 2, To: 2, LabelWidth: 20, LabelHeight: 10}, {From: 5, To: 5},
		{From: 3, To: 4}, {From: 4, To: 3}, {From: 0, To: 1}}
	res := mustLayout(t, g, Options{})
	if res.Stats.Reversed != 2 || res.Stats.SelfLoops != 2 || res.Stats.Components != 2 {
		t.Fatalf("stats %+v, want 2 reversed, 2 self-loops, 2 components", res.Stats)
	}
	for _, j := range []int{4, 5} {
		r := res.Edges[j]
		b := res.Boxes[g.Edges[j].From]
		if !r.SelfLoop || !onBorder(b, r.Points[0]) || !onBorder(b, r.Points[len(r.Points)-1]) {
			t.Fatalf("self-loop %d: %+v around %v", j, r, b)
		}
	}
}

func TestLongCycleNoRecursion(t *testing.T) {
	const n = 50_000
	g := &Graph{Nodes: make([]Node, n)}
	for i := range g.Nodes {
		g.Nodes[i] = Node{Width: 40, Height: 20}
		g.Edges = append(g.Edges, Edge{From: i, To: (i + 1) % n})
	}
	res := mustLayout(t, g, Options{})
	if res.Stats.Reversed != 1 || res.Stats.Layers != n {
		t.Fatalf("ring of %d: %+v", n, res.Stats)
	}
}

func TestDisconnectedComponents(t *testing.T) {
	a := GenerateCNN(30)
	g := a.Graph(tengineTitle)
	// Append 40 isolated nodes and a second copy of the network.
	base := len(g.Nodes)
	for range 40 {
		g.Nodes = append(g.Nodes, Node{Width: 60, Height: 30})
	}
	second := len(g.Nodes)
	g.Nodes = append(g.Nodes, a.Graph(tengineTitle).Nodes...)
	for _, e := range a.Edges {
		g.Edges = append(g.Edges, Edge{From: e.From + second, To: e.To + second})
	}
	res := mustLayout(t, g, Options{})
	if res.Stats.Components != 42 {
		t.Fatalf("components = %d, want 42", res.Stats.Components)
	}
	// The two copies are laid out identically, up to translation.
	d := res.Nodes[second].add(Point{-res.Nodes[0].X, -res.Nodes[0].Y})
	for v := 0; v < base; v++ {
		if got, want := res.Nodes[second+v], res.Nodes[v].add(d); math.Abs(got.X-want.X) > 1e-9 || math.Abs(got.Y-want.Y) > 1e-9 {
			t.Fatalf("node %d of the copy at %v, want %v", v, got, want)
		}
	}
	// Isolated nodes are packed, not strung out in one row.
	if res.Width > 4*res.Height && res.Height > 4*res.Width {
		t.Errorf("packing is %gx%g", res.Width, res.Height)
	}
}

func TestDeterministic(t *testing.T) {
	for _, g := range []*Graph{GenerateCNN(800).Graph(tengineTitle), randomGraph(7, 300, 500, false)} {
		a := mustLayout(t, g, Options{})
		for range 3 {
			b := mustLayout(t, g, Options{})
			if !reflect.DeepEqual(a, b) {
				t.Fatal("two layouts of the same graph differ")
			}
		}
	}
}

// An edge from the input to every node of a long chain would need a
// quadratic number of dummy vertices; the budget turns the longest into
// detours and keeps memory linear.
func TestDummyBudget(t *testing.T) {
	const n = 3000
	g := &Graph{Nodes: make([]Node, n)}
	for i := range g.Nodes {
		g.Nodes[i] = Node{Width: 40, Height: 20}
		if i > 0 {
			g.Edges = append(g.Edges, Edge{From: i - 1, To: i}, Edge{From: 0, To: i})
		}
	}
	res := mustLayout(t, g, Options{})
	if res.Stats.Detours == 0 || res.Stats.Dummies > dummyBudget(n, len(g.Edges)) {
		t.Fatalf("stats %+v, budget %d", res.Stats, dummyBudget(n, len(g.Edges)))
	}
	for j, r := range res.Edges {
		if r.Detour {
			if v, hit := routeHitsBox(res, g, j); hit {
				t.Fatalf("detour %d %v passes through node %d", j, r.Points, v)
			}
		}
	}
}

func TestInvalidInput(t *testing.T) {
	bad := []*Graph{
		{Nodes: []Node{{1, 1}}, Edges: []Edge{{From: 0, To: 1}}},
		{Nodes: []Node{{1, 1}}, Edges: []Edge{{From: -1, To: 0}}},
		{Nodes: []Node{{-1, 1}}},
		{Nodes: []Node{{nan(), 1}}},
		{Nodes: []Node{{1, 1}}, Edges: []Edge{{LabelWidth: nan()}}},
	}
	for i, g := range bad {
		if _, err := Layout(g, Options{}); err == nil {
			t.Errorf("graph %d: no error", i)
		}
	}
}

func nan() float64 { var z float64; return z / z }

func TestLabelsInGaps(t *testing.T) {
	gen := GenerateCNN(40)
	g := gen.Graph(tengineTitle)
	for j := range g.Edges {
		g.Edges[j].LabelWidth, g.Edges[j].LabelHeight = 70, 14
	}
	for _, dir := range []Direction{TopToBottom, LeftToRight} {
		res := mustLayout(t, g, Options{Direction: dir})
		for j, r := range res.Edges {
			lb := Rect{r.Label, Point{r.Label.X + 70, r.Label.Y + 14}}
			for v, b := range res.Boxes {
				if lb.Overlaps(b) {
					t.Fatalf("%v: label of edge %d at %v overlaps node %d %v", dir, j, lb, v, b)
				}
			}
		}
	}
}

// Weights and other sources sit just above their consumer, not in layer 0.
func TestSourcesNextToConsumers(t *testing.T) {
	g := &Graph{}
	for range 12 {
		g.Nodes = append(g.Nodes, Node{Width: 60, Height: 30})
	}
	for i := 0; i < 9; i++ {
		g.Edges = append(g.Edges, Edge{From: i, To: i + 1})
	}
	g.Edges = append(g.Edges, Edge{From: 10, To: 7}, Edge{From: 11, To: 7}) // two weights of node 7
	res := mustLayout(t, g, Options{})
	for _, w := range []int{10, 11} {
		if res.Layer[w] != res.Layer[7]-1 {
			t.Errorf("weight %d in layer %d, consumer in %d", w, res.Layer[w], res.Layer[7])
		}
	}
	if res.Stats.Dummies != 0 {
		t.Errorf("%d dummies: weights should not need long edges", res.Stats.Dummies)
	}
}

// Long edges run straight through the layers they cross: the points on
// the dummy columns of an edge share one x. Brandes–Köpf gives such inner
// segments priority in conflicts; without that, about two thirds of the
// long edges of these random graphs bend.
func TestLongEdgesStraight(t *testing.T) {
	graphs := []*Graph{GenerateCNN(2000).Graph(tengineTitle)}
	for seed := uint64(0); seed < 100; seed++ {
		graphs = append(graphs, randomGraph(seed, 60, 120, true))
	}
	long, bent := 0, 0
	for _, g := range graphs {
		res := mustLayout(t, g, Options{})
		for _, r := range res.Edges {
			pts := r.Points
			if len(pts) < 8 || r.Detour { // exit, band bottom, ≥2 dummies × 2, band top, entry
				continue
			}
			long++
			inner := pts[2 : len(pts)-2]
			for _, p := range inner {
				if p.X != inner[0].X {
					bent++
					break
				}
			}
		}
	}
	if long < 1000 || bent > 0 {
		t.Errorf("%d of %d long edges bend between layers", bent, long)
	}
}

// Parallel edges share one lane: a thousand copies of a long edge cost the
// dummies of one, and every copy gets the same route, arrow at its target.
func TestParallelEdgesShareLane(t *testing.T) {
	g := &Graph{}
	for range 6 {
		g.Nodes = append(g.Nodes, Node{Width: 50, Height: 30})
	}
	for i := 0; i < 5; i++ {
		g.Edges = append(g.Edges, Edge{From: i, To: i + 1})
	}
	for range 1000 {
		g.Edges = append(g.Edges, Edge{From: 0, To: 5}, Edge{From: 5, To: 0})
	}
	res := mustLayout(t, g, Options{})
	if res.Stats.Dummies != 2*4 {
		t.Errorf("%d dummies, want 8 (one lane each way)", res.Stats.Dummies)
	}
	for j := 7; j < len(g.Edges); j++ {
		if !reflect.DeepEqual(res.Edges[j].Points, res.Edges[j-2].Points) {
			t.Fatalf("edge %d route %v differs from its twin's %v", j, res.Edges[j].Points, res.Edges[j-2].Points)
		}
	}
}
