package graphview

import (
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

	"tensorscope/graphview/layout"
)

// groupedGraph: an input, a frame "block" round two nodes, and a
// collapsed group after it.
func groupedGraph() *Graph {
	return &Graph{
		Nodes: []Node{
			{Title: "Input", Category: CategoryInput},
			{Title: "MatMul", Subtitle: "/block/MatMul", Category: CategoryConvolution},
			{Title: "Relu", Subtitle: "/block/Relu", Category: CategoryActivation},
			{Title: "layers.1", Subtitle: "MatMul×2, Relu", Details: []string{"×2 identical"}, Collapsed: true},
		},
		Edges:  []Edge{{From: 0, To: 1}, {From: 1, To: 2}, {From: 2, To: 3, Label: "2 tensors"}},
		Frames: []Frame{{Title: "block", Nodes: []int{1, 2}}},
	}
}

func TestFramesEnclose(t *testing.T) {
	s, err := NewScene(groupedGraph(), SceneOptions{Measure: EstimateMeasure})
	if err != nil {
		t.Fatal(err)
	}
	if s.Frames() != 1 {
		t.Fatalf("%d frames", s.Frames())
	}
	fr := s.FrameRect(0)
	for _, v := range []int{1, 2} {
		b := s.NodeBox(v)
		if !fr.Contains(b.Min) || !fr.Contains(b.Max) {
			t.Errorf("frame %v does not hold node %d's box %v", fr, v, b)
		}
	}
	for _, v := range []int{0, 3} {
		if b := s.NodeBox(v); fr.Overlaps(b) {
			t.Errorf("frame %v overlaps node %d's box %v", fr, v, b)
		}
	}
	w, h := s.Size()
	if fr.Min.X < 0 || fr.Min.Y < 0 || fr.Max.X > w || fr.Max.Y > h {
		t.Errorf("frame %v leaves the drawing %gx%g", fr, w, h)
	}
}

// A frame round no node takes no room and draws nothing; the others are
// laid out as ever.
func TestEmptyFrame(t *testing.T) {
	g := groupedGraph()
	g.Frames = append(g.Frames, Frame{Title: "empty"})
	s, err := NewScene(g, SceneOptions{Measure: EstimateMeasure})
	if err != nil {
		t.Fatal(err)
	}
	if r := s.FrameRect(1); r != (layout.Rect{}) || s.frames[1].title != "" {
		t.Errorf("empty frame at %v titled %q", r, s.frames[1].title)
	}
	if s.FrameTitleAt(layout.Point{X: padX + 2, Y: 0}) == 1 {
		t.Error("the empty frame's title is hit")
	}
	fr := s.FrameRect(0)
	for _, v := range []int{1, 2} {
		if b := s.NodeBox(v); !fr.Contains(b.Min) || !fr.Contains(b.Max) {
			t.Errorf("frame %v does not hold node %d's box %v", fr, v, b)
		}
	}
}

func TestExpandAndCollapseTaps(t *testing.T) {
	test.NewTempApp(t)
	defer func(d time.Duration) { doubleTapTime = d }(doubleTapTime)
	doubleTapTime = time.Minute // taps of a busy test machine still count as double
	v, _ := newTestView(t, groupedGraph(), TopToBottom, 500, 700)
	v.ActualSize()
	expanded, collapsed, tapped := -1, -1, 0
	v.OnNodeExpand = func(n int) { expanded = n }
	v.OnFrameCollapse = func(f int) { collapsed = f }
	v.OnNodeTapped = func(int) { tapped++ }
	s := v.Scene()

	// A single tap on the group's body selects it.
	b := s.NodeBox(3)
	body := v.ToWidget(b.Min).Add(fyne.NewPos(10, float32(b.Max.Y-b.Min.Y)*v.Zoom()-6))
	test.TapAt(v, body)
	if expanded >= 0 || tapped != 1 || v.Selected() != 3 {
		t.Fatalf("one tap: expanded %d, tapped %d, selected %d", expanded, tapped, v.Selected())
	}
	// A second one soon after expands it.
	test.TapAt(v, body)
	if expanded != 3 {
		t.Fatalf("double tap: expanded %d", expanded)
	}
	// Its + expands it at once.
	expanded = -1
	m := s.expandMarkRect(3)
	test.TapAt(v, v.ToWidget(layoutMid(m.Min, m.Max)))
	if expanded != 3 {
		t.Errorf("tap on +: expanded %d", expanded)
	}
	// A plain node never expands.
	expanded = -1
	n := v.ToWidget(s.layout.Nodes[1])
	test.TapAt(v, n)
	test.TapAt(v, n)
	if expanded >= 0 {
		t.Errorf("double tap on a node expanded %d", expanded)
	}
	// The frame's title collapses it.
	tr := s.frameTitleRect(0)
	test.TapAt(v, v.ToWidget(layoutMid(tr.Min, tr.Max)))
	if collapsed != 0 {
		t.Errorf("tap on the frame's title: collapsed %d", collapsed)
	}
}

func layoutMid(a, b layout.Point) layout.Point {
	return layout.Point{X: (a.X + b.X) / 2, Y: (a.Y + b.Y) / 2}
}

// A frame with its title and −, and a collapsed group's stacked box
// with its +.
func TestGroupsGolden(t *testing.T) {
	a := test.NewTempApp(t)
	a.Settings().SetTheme(theme.LightTheme())
	v, win := newTestView(t, groupedGraph(), TopToBottom, 360, 460)
	v.Select(3)
	test.AssertRendersToImage(t, "graph_groups.png", win.Canvas())
}
