package viewmodel

import (
	"math"
	"testing"

	"tensorscope/graphview"
	"tensorscope/graphview/layout"
)

func sceneAt(t *testing.T, m *GraphModel) (*graphview.Graph, *graphview.Scene) {
	t.Helper()
	g := m.View()
	s, err := graphview.NewScene(g, graphview.SceneOptions{Measure: graphview.EstimateMeasure})
	if err != nil {
		t.Fatal(err)
	}
	return g, s
}

// boxKey names a box across views: a group's box by its title (the
// group's name), a node by its title and name.
func boxKey(n graphview.Node) string { return n.Title + "\x00" + n.Subtitle }

// Frames are laid out as boxes holding their inside: no box of another
// group lies in one, and two frames are either apart or one inside the
// other.
func TestFramesReserveTheirRoom(t *testing.T) {
	_, m := openTransformer(t)
	for _, p := range []string{"model/layers.3", "model/layers.3/self_attn", "model/layers.4", "model/layers.20", "model/layers.20/mlp"} {
		gi := m.GroupNamed(p)
		if gi < 0 || !m.SetExpanded(gi, true) {
			t.Fatalf("cannot expand %s", p)
		}
	}
	g, s := sceneAt(t, m)
	if s.Frames() != 5 {
		t.Fatalf("%d frames, want 5", s.Frames())
	}
	for f, fr := range g.Frames {
		r := s.FrameRect(f)
		in := map[int]bool{}
		for _, v := range fr.Nodes {
			in[v] = true
			if b := s.NodeBox(v); !contains(r, b) {
				t.Errorf("frame %s %v does not hold its box %d %v", fr.Title, r, v, b)
			}
		}
		for v := range g.Nodes {
			if !in[v] && r.Overlaps(s.NodeBox(v)) {
				t.Errorf("frame %s %v overlaps box %q %v", fr.Title, r, g.Nodes[v].Title, s.NodeBox(v))
			}
		}
		for f2 := range g.Frames {
			r2 := s.FrameRect(f2)
			if f2 != f && r.Overlaps(r2) && !contains(r, r2) && !contains(r2, r) {
				t.Errorf("frames %s %v and %s %v overlap", fr.Title, r, g.Frames[f2].Title, r2)
			}
		}
	}
}

func contains(outer, inner layout.Rect) bool {
	return outer.Contains(inner.Min) && outer.Contains(inner.Max)
}

// Expanding a layer moves the other boxes as little as the layered layout
// allows: the layers above it stay where they were, the layers below it
// move down together by the room the frame takes, and no box changes
// sides with a neighbour; sideways they move little (the layout re-centres
// the layers round the wider frame).
func TestExpandingKeepsOthersInPlace(t *testing.T) {
	_, m := openTransformer(t)
	g0, s0 := sceneAt(t, m)
	l3 := m.GroupNamed("model/layers.3")
	r3 := s0.NodeBox(m.ViewOfGroup(l3))
	m.SetExpanded(l3, true)
	g1, s1 := sceneAt(t, m)
	after := map[string]int{}
	for v, n := range g1.Nodes {
		after[boxKey(n)] = v
	}
	type moved struct{ before, after layout.Rect }
	var same []moved
	dxMax, dyBelow := 0.0, math.NaN()
	for v, n := range g0.Nodes {
		w, ok := after[boxKey(n)]
		if !ok {
			continue
		}
		a, b := s0.NodeBox(v), s1.NodeBox(w)
		same = append(same, moved{a, b})
		dx, dy := b.Min.X-a.Min.X, b.Min.Y-a.Min.Y
		dxMax = max(dxMax, math.Abs(dx))
		switch mid := (a.Min.Y + a.Max.Y) / 2; {
		case mid < r3.Min.Y:
			if dy != 0 {
				t.Errorf("%q above the layer moved %.1f down", n.Title, dy)
			}
		case mid > r3.Max.Y:
			if math.IsNaN(dyBelow) {
				dyBelow = dy
			}
			if math.Abs(dy-dyBelow) > 0.5 {
				t.Errorf("%q below the layer moved %.1f down, others %.1f", n.Title, dy, dyBelow)
			}
		}
	}
	if len(same) != len(g0.Nodes)-1 {
		t.Fatalf("%d of %d boxes found again", len(same), len(g0.Nodes)-1)
	}
	for i, p := range same {
		for _, q := range same[i+1:] {
			if p.before.Min.Y == q.before.Min.Y && p.before.Max.Y == q.before.Max.Y &&
				(p.before.Min.X < q.before.Min.X) != (p.after.Min.X < q.after.Min.X) {
				t.Errorf("boxes at %v and %v changed sides", p.before, q.before)
			}
		}
	}
	const most = 40.0
	if dxMax > most {
		t.Errorf("boxes moved up to %.1f sideways, more than %g", dxMax, most)
	}
	t.Logf("sideways up to %.1f; the layers below moved %.1f down", dxMax, dyBelow)
}
