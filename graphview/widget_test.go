package graphview

import (
	"context"
	"errors"
	"math"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

	"tensorscope/graphview/layout"
)

func newTestView(t *testing.T, g *Graph, dir Direction, w, h float32) (*GraphView, fyne.Window) {
	t.Helper()
	s, err := NewScene(g, SceneOptions{Direction: dir})
	if err != nil {
		t.Fatal(err)
	}
	v := NewGraphView(s)
	win := test.NewTempWindow(t, v)
	win.SetPadded(false)
	win.Resize(fyne.NewSize(w, h))
	return v, win
}

// Golden screenshots of a small generated network in both directions, in
// the light and dark themes, with a selection.
func TestGraphViewGolden(t *testing.T) {
	a := test.NewTempApp(t)
	a.Settings().SetTheme(theme.LightTheme())
	v, win := newTestView(t, generated(12), TopToBottom, 420, 560)
	test.AssertRendersToImage(t, "graph_tb_home.png", win.Canvas())
	v.Fit()
	test.AssertRendersToImage(t, "graph_tb_fit.png", win.Canvas())

	v, win = newTestView(t, generated(12), LeftToRight, 900, 260)
	v.ActualSize()
	v.CenterOn(4)
	v.Select(4)
	test.AssertRendersToImage(t, "graph_lr_selected.png", win.Canvas())
	a.Settings().SetTheme(theme.DarkTheme())
	v.Refresh()
	test.AssertRendersToImage(t, "graph_lr_selected_dark.png", win.Canvas())

	// A residual block: rounded corners on the skip, labels moved off
	// other edges, and a lineage highlight dimming the rest.
	a.Settings().SetTheme(theme.LightTheme())
	g := generated(25)
	add := -1
	for i, n := range g.Nodes {
		if n.Title == "Eltwise" {
			add = i
			break
		}
	}
	v, win = newTestView(t, g, TopToBottom, 520, 640)
	v.SetView(0.8, fyne.Position{})
	v.CenterOn(add)
	v.HighlightLineage(add - 3)
	test.AssertRendersToImage(t, "graph_tb_residual_lineage.png", win.Canvas())
}

func TestTapNodeEdgeBackground(t *testing.T) {
	test.NewTempApp(t)
	v, _ := newTestView(t, generated(12), TopToBottom, 420, 560)
	v.ActualSize()
	s := v.Scene()
	node, edge, bg := -1, -1, 0
	v.OnNodeTapped = func(n int) { node = n }
	v.OnEdgeTapped = func(e int) { edge = e }
	v.OnBackgroundTapped = func() { bg++ }

	for _, want := range []int{0, 2, 3} {
		v.CenterOn(want)
		test.TapAt(v, v.ToWidget(s.Layout().Nodes[want]))
		if node != want || v.Selected() != want {
			t.Fatalf("tapped node %d: callback got %d, selected %d", want, node, v.Selected())
		}
	}
	// The middle of the first segment of edge 1.
	pts := s.Layout().Edges[1].Points
	mid := layout.Point{X: (pts[0].X + pts[1].X) / 2, Y: (pts[0].Y + pts[1].Y) / 2}
	v.CenterOn(s.Graph().Edges[1].From)
	test.TapAt(v, v.ToWidget(mid).Add(fyne.NewDelta(2, 0)))
	if edge != 1 || v.SelectedEdge() != 1 || v.Selected() != -1 {
		t.Fatalf("tapped edge 1: callback got %d, selected edge %d, node %d", edge, v.SelectedEdge(), v.Selected())
	}
	// Far right of a chain: nothing there.
	test.TapAt(v, fyne.NewPos(v.Size().Width-3, v.Size().Height/2))
	if bg != 1 || v.Selected() != -1 || v.SelectedEdge() != -1 {
		t.Fatalf("background tap: %d calls, selection %d, edge %d", bg, v.Selected(), v.SelectedEdge())
	}
}

func TestZoomAndPan(t *testing.T) {
	test.NewTempApp(t)
	v, win := newTestView(t, generated(40), TopToBottom, 500, 400)
	v.ActualSize()
	anchor := fyne.NewPos(120, 90)
	before := v.ToScene(anchor)
	v.Scrolled(&fyne.ScrollEvent{PointEvent: fyne.PointEvent{Position: anchor}, Scrolled: fyne.NewDelta(0, 25)})
	if z := v.Zoom(); z <= 1.1 || z > 1.3 {
		t.Fatalf("one wheel notch: zoom %g", z)
	}
	if after := v.ToScene(anchor); math.Abs(after.X-before.X) > 1e-3 || math.Abs(after.Y-before.Y) > 1e-3 {
		t.Fatalf("zoom moved the point under the pointer from %v to %v", before, after)
	}
	off := v.Offset()
	test.Drag(win.Canvas(), fyne.NewPos(200, 200), 30, -50)
	if got := v.Offset(); got != off.Add(fyne.NewDelta(30, -50)) {
		t.Fatalf("drag by (30,-50): offset %v → %v", off, got)
	}
	v.TypedRune('0')
	if v.Zoom() != 1 {
		t.Fatalf("'0': zoom %g", v.Zoom())
	}
	v.TypedRune('+')
	if v.Zoom() != zoomStep {
		t.Fatalf("'+': zoom %g", v.Zoom())
	}
	v.TypedRune('-')
	v.TypedRune('-')
	if math.Abs(float64(v.Zoom())-1/zoomStep) > 1e-6 {
		t.Fatalf("'-' twice: zoom %g", v.Zoom())
	}
	v.TypedKey(&fyne.KeyEvent{Name: fyne.KeyHome})
	w, h := v.Scene().Size()
	tl, br := v.ToWidget(layout.Point{}), v.ToWidget(layout.Point{X: w, Y: h})
	if tl.X < 0 || tl.Y < 0 || br.X > 500 || br.Y > 400 {
		t.Fatalf("Home should show everything: scene spans %v–%v in a 500×400 view", tl, br)
	}
	v.TypedRune('+')
	v.TypedRune('f')
	if got := v.Zoom(); got != v.fitZoom(v.Size()) {
		t.Fatalf("'f': zoom %g, fit zoom %g", got, v.fitZoom(v.Size()))
	}
	y := v.Offset().Y
	v.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown})
	if v.Offset().Y >= y {
		t.Fatal("arrow down did not pan")
	}
	for range 100 {
		v.ZoomOut()
	}
	if v.Zoom() < v.fitZoom(v.Size())/2-1e-6 {
		t.Fatalf("zoomed out to %g, below half the fit zoom", v.Zoom())
	}
}

func TestCenterOnAndHome(t *testing.T) {
	test.NewTempApp(t)
	v, _ := newTestView(t, generated(300), TopToBottom, 600, 500)
	// A tall graph opens at its top at a readable zoom, not squeezed to fit.
	if v.Zoom() < readable {
		t.Fatalf("home zoom %g", v.Zoom())
	}
	if top := v.ToWidget(v.Scene().NodeBox(0).Min); top.Y < 0 || top.Y > 100 {
		t.Fatalf("home view: first node at %v", top)
	}
	v.Fit()
	v.CenterOn(250)
	// At the centre of the view left of the minimap.
	c, want := v.ToWidget(v.Scene().Layout().Nodes[250]), v.freeCentre(v.Zoom())
	if want.X >= 300 || want.Y != 250 {
		t.Errorf("the free centre is %v: want left of the view's centre, the minimap being at the right", want)
	}
	if math.Abs(float64(c.X-want.X)) > 0.01 || math.Abs(float64(c.Y-want.Y)) > 0.01 || v.Zoom() != centerZoom {
		t.Fatalf("CenterOn(250): node at %v, zoom %g", c, v.Zoom())
	}
}

func TestHighlightLineage(t *testing.T) {
	test.NewTempApp(t)
	// 0→1→2→3, 4→2, 1→5, 6 alone.
	g := &Graph{Nodes: make([]Node, 7), Edges: []Edge{{From: 0, To: 1}, {From: 1, To: 2}, {From: 2, To: 3}, {From: 4, To: 2}, {From: 1, To: 5}}}
	for i := range g.Nodes {
		g.Nodes[i] = Node{Title: "Op", Subtitle: string(rune('a' + i))}
	}
	v, _ := newTestView(t, g, TopToBottom, 400, 600)
	v.HighlightLineage(2)
	wantNodes := []bool{true, true, true, true, true, false, false}
	wantEdges := []bool{true, true, true, true, false}
	for i, w := range wantNodes {
		if v.lineNodes[i] != w {
			t.Fatalf("node %d in lineage of 2: %v, want %v", i, v.lineNodes[i], w)
		}
	}
	for i, w := range wantEdges {
		if v.lineEdges[i] != w {
			t.Fatalf("edge %d in lineage of 2: %v, want %v", i, v.lineEdges[i], w)
		}
	}
	if v.Highlighted() != 2 {
		t.Fatal("Highlighted")
	}
	v.ClearHighlight()
	if v.Highlighted() != -1 || v.lineNodes != nil {
		t.Fatal("ClearHighlight left a highlight")
	}
	v.HighlightLineage(5)
	v.Select(3)
	v.Reset()
	if v.Highlighted() != -1 || v.Selected() != -1 {
		t.Fatal("Reset kept selection or highlight")
	}
}

// Only what is in view becomes canvas objects; zoomed far out the frame is
// one raster.
func TestFrameCulling(t *testing.T) {
	test.NewTempApp(t)
	v, _ := newTestView(t, generated(2000), TopToBottom, 800, 600)
	r := test.TempWidgetRenderer(t, v).(*renderer)
	v.CenterOn(1000)
	v.ActualSize()
	objects := len(r.Objects())
	if objects < 20 || objects > 400 {
		t.Fatalf("1:1 view of a 2000-node graph built %d objects", objects)
	}
	for _, o := range r.Objects() {
		if t, ok := o.(*canvas.Text); ok && t.Text == "stage1.block0.conv1" {
			// Node 5 is far above node 1000.
			panic("off-screen text built")
		}
	}
	v.Fit()
	if objs := r.Objects(); len(objs) != 2 || objs[1] != r.raster {
		t.Fatalf("fitted 2000-node graph: %d objects, want background and raster", len(objs))
	}
	img := r.overview.generate(800, 600)
	coloured := 0
	bounds := img.Bounds()
	for y := bounds.Min.Y; y < bounds.Max.Y; y++ {
		for x := bounds.Min.X; x < bounds.Max.X; x++ {
			if c := img.At(x, y); c != (img.At(0, 0)) {
				coloured++
			}
		}
	}
	if coloured < 1000 {
		t.Fatalf("overview raster has %d drawn pixels", coloured)
	}
}

func TestLoadAsync(t *testing.T) {
	test.NewTempApp(t)
	v := NewGraphView(nil)
	test.NewTempWindow(t, v).Resize(fyne.NewSize(300, 300))
	done := make(chan error, 1)
	v.Load(generated(50), SceneOptions{}, GoLayout(context.Background()), func(s *Scene, err error) { done <- err })
	select {
	case err := <-done:
		if err != nil || v.Scene() == nil || len(v.Scene().Graph().Nodes) != 50 {
			t.Fatalf("Load: err %v, scene %v", err, v.Scene())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Load never finished")
	}
	v.Load(&Graph{Edges: []Edge{{From: 0, To: 1}}}, SceneOptions{}, GoLayout(context.Background()), func(s *Scene, err error) { done <- err })
	if err := <-done; err == nil {
		t.Fatal("Load of a bad graph: no error")
	}
	if len(v.Scene().Graph().Nodes) != 50 {
		t.Fatal("a failed Load replaced the scene")
	}
	// A slow load overtaken by a quick one never shows.
	v.Load(generated(3000), SceneOptions{}, GoLayout(context.Background()), func(s *Scene, err error) { done <- errors.New("overtaken load finished") })
	v.Load(generated(5), SceneOptions{}, GoLayout(context.Background()), func(s *Scene, err error) { done <- err })
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond) // let the big layout finish too
	select {
	case err := <-done:
		t.Fatal(err)
	default:
	}
	if n := len(v.Scene().Graph().Nodes); n != 5 {
		t.Fatalf("scene has %d nodes after the latest Load of 5", n)
	}
}

func TestHoverHighlights(t *testing.T) {
	test.NewTempApp(t)
	v, win := newTestView(t, generated(12), TopToBottom, 420, 560)
	v.ActualSize()
	p := v.ToWidget(v.Scene().Layout().Nodes[1])
	test.MoveMouse(win.Canvas(), p)
	if v.hovered != 1 {
		t.Fatalf("hovered %d, want 1", v.hovered)
	}
	v.MouseOut()
	if v.hovered != -1 {
		t.Fatal("MouseOut kept the hover")
	}
}
