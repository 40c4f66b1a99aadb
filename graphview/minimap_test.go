package graphview

import (
	"math"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"

	"tensorscope/graphview/layout"
)

// A graph that fits at a readable zoom opens whole; a tall one opens at
// its top as wide as fits, no smaller than openingZoom; a wide one
// (mesh, left to right too) opens at its inputs with the first node in
// view.
func TestHomeView(t *testing.T) {
	test.NewTempApp(t)
	v, _ := newTestView(t, generated(6), TopToBottom, 900, 900)
	if z := v.Zoom(); math.Abs(float64(z-v.fitZoom(v.Size()))) > 1e-6 {
		t.Errorf("a small graph opens at zoom %g, not fitted (%g)", z, v.fitZoom(v.Size()))
	}
	for _, c := range []struct {
		name string
		g    *Graph
		dir  Direction
	}{{"tall", generated(300), TopToBottom}, {"wide", mesh(40, 30), TopToBottom}, {"wide left to right", mesh(30, 40), LeftToRight}} {
		v, _ := newTestView(t, c.g, c.dir, 800, 600)
		if v.Zoom() < openingZoom || v.Zoom() > 1 {
			t.Errorf("%s: opening zoom %g", c.name, v.Zoom())
		}
		first := v.Scene().firstNode()
		if p := v.ToWidget(first); p.X < 0 || p.Y < 0 || p.X > 800 || p.Y > 600 {
			t.Errorf("%s: the first node is at %v, out of view", c.name, p)
		}
		origin := v.ToWidget(layout.Point{})
		if start := map[Direction]float32{TopToBottom: origin.Y, LeftToRight: origin.X}[c.dir]; start != fitMargin {
			t.Errorf("%s: the graph starts at %g, want the margin %d", c.name, start, fitMargin)
		}
	}
}

// The minimap shows only while the graph overflows the view; a tap on it
// centres the view on the point tapped, a drag begun on it follows the
// pointer, and neither selects a node under it.
func TestMinimap(t *testing.T) {
	test.NewTempApp(t)
	v, _ := newTestView(t, generated(6), TopToBottom, 900, 900)
	v.Refresh()
	if shown, _, _ := v.MinimapShown(); shown {
		t.Error("minimap shown for a graph that fits")
	}

	v, _ = newTestView(t, generated(300), TopToBottom, 800, 600)
	v.Refresh()
	shown, pos, size := v.MinimapShown()
	if !shown {
		t.Fatal("no minimap for a graph taller than the view")
	}
	if pos.X+size.Width > 800 || pos.Y+size.Height > 600 || size.Width > minimapMaxW || size.Height > 600*minimapMaxShareH {
		t.Fatalf("minimap at %v size %v in an 800×600 view", pos, size)
	}
	zoom := v.Zoom()
	at := fyne.NewPos(pos.X+size.Width/2, pos.Y+size.Height*0.75)
	v.Tapped(&fyne.PointEvent{Position: at})
	want := v.minimap.toScene(at)
	got := v.ToScene(v.centre())
	if math.Abs(got.Y-want.Y) > 1 || v.Zoom() != zoom {
		t.Errorf("tap on the minimap: view centred on %v at zoom %g, want %v at %g", got, v.Zoom(), want, zoom)
	}
	if v.Selected() >= 0 {
		t.Errorf("tap on the minimap selected node %d", v.Selected())
	}
	_, pos, size = v.MinimapShown()
	to := fyne.NewPos(pos.X+size.Width/2, pos.Y+size.Height*0.25)
	v.Dragged(&fyne.DragEvent{PointEvent: fyne.PointEvent{Position: fyne.NewPos(to.X, to.Y+5)}, Dragged: fyne.NewDelta(0, 5)})
	v.Dragged(&fyne.DragEvent{PointEvent: fyne.PointEvent{Position: to}, Dragged: fyne.NewDelta(0, -5)})
	v.DragEnd()
	want, got = v.minimap.toScene(to), v.ToScene(v.centre())
	if math.Abs(got.Y-want.Y) > 1 {
		t.Errorf("drag on the minimap: view centred on %v, want %v", got, want)
	}
	// A drag begun on the graph pans.
	before := v.Offset()
	v.Dragged(&fyne.DragEvent{PointEvent: fyne.PointEvent{Position: fyne.NewPos(110, 110)}, Dragged: fyne.NewDelta(10, 10)})
	v.DragEnd()
	if v.Offset() != before.Add(fyne.NewDelta(10, 10)) {
		t.Errorf("drag on the graph: offset %v, want %v moved by 10, 10", v.Offset(), before)
	}
}

// The minimap's drawing is made once: panning reuses it.
func TestMinimapDrawingCached(t *testing.T) {
	test.NewTempApp(t)
	v, _ := newTestView(t, generated(300), TopToBottom, 800, 600)
	v.Refresh()
	m := v.minimap
	first := m.generate(60, 200)
	v.Pan(fyne.NewDelta(0, -300))
	if again := m.generate(60, 200); again != first {
		t.Error("the minimap was drawn again after a pan")
	}
	if other := m.generate(120, 400); other == first {
		t.Error("the minimap was not drawn again at another pixel size")
	}
}

// Hovering a node whose name was shortened shows the whole name; hovering
// one whose text is all there shows nothing more.
func TestTooltipFullName(t *testing.T) {
	test.NewTempApp(t)
	long := "/features/features.0/features.0.2/attention/" + strings.Repeat("block_", 12) + "ReduceMean_1"
	g := &Graph{Nodes: []Node{{Title: "ReduceMean", Subtitle: long}, {Title: "Relu", Subtitle: "relu"}}, Edges: []Edge{{From: 0, To: 1}}}
	v, _ := newTestView(t, g, TopToBottom, 800, 600)
	if !v.Scene().Shortened(0) || v.Scene().Shortened(1) {
		t.Fatalf("shortened: %v %v", v.Scene().Shortened(0), v.Scene().Shortened(1))
	}
	r := test.TempWidgetRenderer(t, v)
	hover := func(node int) []string {
		c := v.ToWidget(v.Scene().Layout().Nodes[node])
		v.MouseMoved(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: c}})
		var texts []string
		for _, o := range r.Objects() {
			if tx, ok := o.(*canvas.Text); ok {
				texts = append(texts, tx.Text)
			}
		}
		return texts
	}
	if texts := hover(0); !strings.Contains(strings.Join(texts, ""), long) {
		t.Errorf("hovering the long name shows %q", texts)
	}
	if texts := hover(1); strings.Contains(strings.Join(texts, ""), long) || count(texts, "relu") != 1 {
		t.Errorf("hovering relu shows %q", texts)
	}
}

func count(list []string, s string) int {
	n := 0
	for _, x := range list {
		if x == s {
			n++
		}
	}
	return n
}

// In a small view (the graph pane of a 1024×700 window) the minimap takes
// a small corner: at most a tenth of the view's width and a third of its
// height, and no more than 4% of its area.
func TestMinimapSmallInASmallView(t *testing.T) {
	test.NewTempApp(t)
	v, _ := newTestView(t, generated(300), TopToBottom, 700, 430)
	v.Refresh()
	shown, _, size := v.MinimapShown()
	if !shown {
		t.Fatal("no minimap for a graph taller than the view")
	}
	if size.Width > 0.16*700 || size.Height > 430/3.0 || size.Width*size.Height > 0.04*700*430 {
		t.Errorf("minimap %v in a 700×430 view", size)
	}
}

// The minimap folds to a small button and opens again from it; the view
// reports each change (the viewer remembers it) and, folded, a tap where
// the panel was reaches the graph.
func TestMinimapCollapses(t *testing.T) {
	test.NewTempApp(t)
	v, _ := newTestView(t, generated(300), TopToBottom, 800, 600)
	var told []bool
	v.OnMinimapToggled = func(collapsed bool) { told = append(told, collapsed) }
	v.Refresh()
	shown, pos, size := v.MinimapShown()
	if !shown {
		t.Fatal("no minimap")
	}
	toggle := v.minimap.toggleRect()
	v.Tapped(&fyne.PointEvent{Position: toggle.Min.Add(fyne.NewPos(toggle.Size.Width/2, toggle.Size.Height/2))})
	if shown, _, _ := v.MinimapShown(); shown || !v.MinimapCollapsed() {
		t.Fatalf("after a tap on its fold button the minimap is shown %v, collapsed %v", shown, v.MinimapCollapsed())
	}
	if len(told) != 1 || !told[0] {
		t.Errorf("told %v, want [true]", told)
	}
	if v.onMinimap(pos.Add(fyne.NewPos(size.Width/2, size.Height/4))) {
		t.Error("a folded minimap still takes taps where its panel was")
	}
	button := v.minimap.toggleRect()
	if button.Size.Width > 32 || button.Size.Height > 32 {
		t.Errorf("the folded minimap's button is %v", button.Size)
	}
	v.Tapped(&fyne.PointEvent{Position: button.Min.Add(fyne.NewPos(button.Size.Width/2, button.Size.Height/2))})
	if shown, _, _ := v.MinimapShown(); !shown || v.MinimapCollapsed() {
		t.Errorf("after a tap on the button the minimap is shown %v, collapsed %v", shown, v.MinimapCollapsed())
	}
	if len(told) != 2 || told[1] {
		t.Errorf("told %v, want [true false]", told)
	}
	v.TypedRune('m')
	if shown, _, _ := v.MinimapShown(); shown || len(told) != 3 || !told[2] {
		t.Errorf("M: the minimap is shown %v, told %v", shown, told)
	}
	v.TypedRune('m')
	v.SetMinimapCollapsed(true)
	if shown, _, _ := v.MinimapShown(); shown || len(told) != 4 {
		t.Errorf("SetMinimapCollapsed(true) left the minimap shown %v, or told %v", shown, told)
	}
}

// CenterOn never puts the node under the minimap: it centres the node in
// the part of the view the minimap leaves free.
func TestCenterOnAvoidsTheMinimap(t *testing.T) {
	test.NewTempApp(t)
	for _, size := range []fyne.Size{{Width: 700, Height: 430}, {Width: 800, Height: 600}, {Width: 1150, Height: 800}} {
		v, _ := newTestView(t, mesh(30, 40), TopToBottom, size.Width, size.Height)
		v.Refresh()
		for _, node := range []int{0, 600, 1199} {
			v.CenterOn(node)
			v.Refresh()
			shown, pos, msize := v.MinimapShown()
			if !shown {
				t.Fatalf("%v: no minimap", size)
			}
			b := v.Scene().NodeBox(node)
			tl, br := v.ToWidget(b.Min), v.ToWidget(b.Max)
			if tl.X < pos.X+msize.Width && br.X > pos.X && tl.Y < pos.Y+msize.Height && br.Y > pos.Y {
				t.Errorf("%v: node %d at %v–%v is under the minimap at %v size %v", size, node, tl, br, pos, msize)
			}
			if !v.NodeInView(node) {
				t.Errorf("%v: node %d is out of view", size, node)
			}
		}
	}
}
