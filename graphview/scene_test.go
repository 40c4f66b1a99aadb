package graphview

import (
	"image/color"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"tensorscope/graphview/layout"
)

func contrast(a, b color.NRGBA) float64 {
	lum := func(c color.NRGBA) float64 {
		ch := func(v uint8) float64 {
			x := float64(v) / 255
			if x <= 0.03928 {
				return x / 12.92
			}
			return math.Pow((x+0.055)/1.055, 2.4)
		}
		return 0.2126*ch(c.R) + 0.7152*ch(c.G) + 0.0722*ch(c.B)
	}
	la, lb := lum(a), lum(b)
	return (math.Max(la, lb) + 0.05) / (math.Min(la, lb) + 0.05)
}

func TestSceneRejectsBadEdges(t *testing.T) {
	if _, err := NewScene(&Graph{Nodes: make([]Node, 2), Edges: []Edge{{From: 0, To: 2}}}, SceneOptions{Measure: EstimateMeasure}); err == nil {
		t.Fatal("edge to a missing node accepted")
	}
	s, err := NewScene(nil, SceneOptions{Measure: EstimateMeasure})
	if err != nil || len(s.Graph().Nodes) != 0 {
		t.Fatalf("nil graph: %v", err)
	}
}

// Boxes fit their text; long text is shortened in the middle; extra detail
// lines collapse into "+N more".
func TestSceneText(t *testing.T) {
	long := strings.Repeat("very_long_name.", 30) + "tail"
	g := &Graph{Nodes: []Node{
		{Title: "Convolution", Subtitle: "conv1", Details: []string{"3×3 /2", "W 8×1×3×3"}},
		{Title: "ReLu"},
		{Title: "Concat", Subtitle: long, Details: strings.Split("a b c d e f g h i j k", " ")},
	}}
	s, err := NewScene(g, SceneOptions{Measure: EstimateMeasure})
	if err != nil {
		t.Fatal(err)
	}
	for v := range g.Nodes {
		b := s.NodeBox(v)
		w := b.Max.X - b.Min.X
		if w < minNodeWidth || w > maxNodeWidth {
			t.Errorf("node %d width %g", v, w)
		}
		for _, l := range s.nodeLines(v, nil) {
			if tw := float64(EstimateMeasure(l.text, float32(l.size), l.bold)); l.x+tw > b.Max.X-padX+0.01 {
				t.Errorf("node %d: %q (%g wide) overflows its box %v", v, l.text, tw, b)
			}
			if l.top+l.height > b.Max.Y+0.01 {
				t.Errorf("node %d: line %q below the box", v, l.text)
			}
		}
	}
	for v := range g.Nodes {
		w, h := NodeSize(&g.Nodes[v], EstimateMeasure)
		if b := s.NodeBox(v); b.Max.X-b.Min.X != w || b.Max.Y-b.Min.Y != h {
			t.Errorf("node %d: NodeSize %gx%g, box %v", v, w, h, b)
		}
	}
	if s.hasBody(1) || s.NodeBox(1).Max.Y-s.NodeBox(1).Min.Y != float64(headerHeight()) {
		t.Error("a node with only a title should be a header")
	}
	sub := s.nodes[2].subtitle
	if !strings.Contains(sub, "…") || !strings.HasSuffix(sub, "tail") || !strings.HasPrefix(sub, "very") {
		t.Errorf("long name shortened to %q", sub)
	}
	if d := s.nodes[2].details; len(d) != maxDetailRows || d[len(d)-1] != "+4 more" {
		t.Errorf("details %q", d)
	}
}

// The spatial index finds exactly what a scan of every box finds.
func TestGridQueryMatchesScan(t *testing.T) {
	s := estimateScene(t, mesh(20, 30), TopToBottom)
	w, h := s.Size()
	rng := rand.New(rand.NewPCG(3, 4))
	var v visible
	for range 200 {
		x, y := rng.Float64()*w*1.2-w*0.1, rng.Float64()*h*1.2-h*0.1
		r := layout.Rect{Min: layout.Point{X: x, Y: y}, Max: layout.Point{X: x + rng.Float64()*w/3, Y: y + rng.Float64()*h/3}}
		s.index.query(s, r, &v)
		got := slices.Clone(v.nodes)
		slices.Sort(got)
		var want []int32
		for n, b := range s.layout.Boxes {
			if b.Overlaps(r) {
				want = append(want, int32(n))
			}
		}
		if !slices.Equal(got, want) {
			t.Fatalf("query %v: nodes %v, scan %v", r, got, want)
		}
		// Every segment crossing r is reported (extra nearby ones may be).
		found := map[int32]bool{}
		for _, sg := range v.segs {
			found[sg] = true
		}
		for sg := range s.index.segEdge {
			a, b := s.index.segPoints(s, sg)
			if r.MeetsSegment(a, b) && !found[int32(sg)] {
				t.Fatalf("query %v missed segment %d (%v–%v)", r, sg, a, b)
			}
		}
	}
}

func TestNodeAtEdgeAt(t *testing.T) {
	s := estimateScene(t, generated(80), TopToBottom)
	for v, b := range s.layout.Boxes {
		if got := s.NodeAt(layout.Point{X: (b.Min.X + b.Max.X) / 2, Y: b.Min.Y + 1}); got != v {
			t.Fatalf("NodeAt inside node %d = %d", v, got)
		}
	}
	if s.NodeAt(layout.Point{X: -5, Y: -5}) != -1 {
		t.Fatal("NodeAt outside the scene")
	}
	for e, r := range s.layout.Edges {
		a, b := r.Points[0], r.Points[1]
		p := layout.Point{X: (a.X + b.X) / 2, Y: (a.Y + b.Y) / 2}
		got := s.EdgeAt(p, 0.5)
		if got < 0 {
			t.Fatalf("EdgeAt on edge %d found nothing", e)
		}
		// Another edge may share the point (a fan-out); it must be as close.
		ga := s.layout.Edges[got].Points
		best := math.Inf(1)
		for i := 1; i < len(ga); i++ {
			best = math.Min(best, segmentDistance(p, ga[i-1], ga[i]))
		}
		if best > 1e-9 {
			t.Fatalf("EdgeAt on edge %d returned %d, %g away", e, got, best)
		}
	}
	if s.EdgeAt(layout.Point{X: -50, Y: -50}, 5) != -1 {
		t.Fatal("EdgeAt far away")
	}
}

func TestFitText(t *testing.T) {
	for _, c := range []struct {
		text string
		maxW float32
	}{{"short", 100}, {"stage4.block7.branch3.conv2.weight", 80}, {"ümläüt日本語テキスト長い名前", 50}, {"x", 0}} {
		got := fitText(EstimateMeasure, c.text, 11, false, c.maxW)
		if w := EstimateMeasure(got, 11, false); w > c.maxW && got != "…" {
			t.Errorf("fitText(%q, %g) = %q, %g wide", c.text, c.maxW, got, w)
		}
		if EstimateMeasure(c.text, 11, false) <= c.maxW && got != c.text {
			t.Errorf("fitText(%q) changed text that fits", c.text)
		}
	}
}

func TestLabelsDeduplicated(t *testing.T) {
	// One tensor read by three nodes: one label.
	g := &Graph{Nodes: make([]Node, 4), Edges: []Edge{
		{From: 0, To: 1, Label: "1×8"}, {From: 0, To: 2, Label: "1×8"}, {From: 0, To: 3, Label: "1×8"}}}
	for i := range g.Nodes {
		g.Nodes[i].Title = "Op"
	}
	s := estimateScene(t, g, TopToBottom)
	drawn := 0
	for e := range g.Edges {
		if s.labels[e] != "" {
			drawn++
		}
	}
	if drawn != 1 {
		t.Fatalf("%d labels drawn for one tensor", drawn)
	}
}

func TestFyneMeasure(t *testing.T) {
	test.NewTempApp(t)
	g := &Graph{Nodes: []Node{{Title: "Convolution", Subtitle: "层1.conv", Details: []string{"W 64×3×7×7"}}}}
	m := FyneMeasure(g)
	for _, c := range []struct {
		text string
		size float32
		bold bool
	}{{"Convolution", titleSize, true}, {"层1.conv", subtitleSize, false}, {"W 64×3×7×7", detailSize, false}, {"1×64×56×56", labelSize, false}} {
		want := fyne.MeasureText(c.text, c.size, fyne.TextStyle{Bold: c.bold}).Width
		if got := m(c.text, c.size, c.bold); math.Abs(float64(got-want)) > 0.06*float64(want) {
			t.Errorf("%q at %g: %g, Fyne says %g", c.text, c.size, got, want)
		}
	}
	// The returned function never calls into Fyne, so it may run beside
	// the UI goroutine's own text measuring (the race detector checks).
	done := make(chan float32)
	for range 4 {
		go func() { done <- m("stage4.block7.conv2 ünïcödé", subtitleSize, false) }()
	}
	for range 200 {
		fyne.MeasureText("UI text", 13, fyne.TextStyle{})
	}
	for range 4 {
		if w := <-done; w <= 0 {
			t.Fatal("no width")
		}
	}
}
