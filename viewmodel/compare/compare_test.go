package compare

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"tensorscope/viewmodel"
	"testing"
	"time"

	"tensorscope/formats"
	"tensorscope/formats/tmfile"
)

// modelBytes is a Tengine model holding float32 constants name→values,
// each of shape shapes[name]; with extra, a second op that A lacks.
func modelBytes(t *testing.T, consts []string, values map[string][]float32, shapes map[string][]int32, extra bool) []byte {
	t.Helper()
	b := tmfile.NewBuilder(1, "m")
	x := b.Input("data", []int32{1, 4})
	last := x
	for _, n := range consts {
		w := b.Const(n, shapes[n], values[n])
		last = b.Op(n+".op", "FullyConnected", nil, []int32{1, 4}, last, w)
	}
	if extra {
		last = b.Op("extra", "ReLu", nil, []int32{1, 4}, last)
	}
	b.Output(last)
	m, err := b.Model()
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := tmfile.Encode(&buf, m); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func drainComparison(t *testing.T, q *viewmodel.Queue, c *Comparison) {
	t.Helper()
	if !q.Drain(func() bool { return !c.Idle() }, 30*time.Second) {
		t.Fatal("comparison tasks did not finish")
	}
}

func newTestComparison(t *testing.T) (*Comparison, *viewmodel.Queue) {
	t.Helper()
	w := seq(8 * 12)
	shifted := make([]float32, len(w))
	for i, v := range w {
		shifted[i] = v + float32(i%5)*0.01
	}
	same := []float32{1, 2, 3, 4}
	shapes := map[string][]int32{"w": {8, 12}, "b": {4}}
	a := modelBytes(t, []string{"w", "b"}, map[string][]float32{"w": w, "b": same}, shapes, false)
	b := modelBytes(t, []string{"w", "b"}, map[string][]float32{"w": shifted, "b": same}, shapes, true)
	q := viewmodel.NewQueue()
	c := NewComparison(q.Post, viewmodel.Source{Name: "a.tmfile", Data: a}, viewmodel.Source{Name: "b.tmfile", Data: b}, DefaultTolerance)
	drainComparison(t, q, c)
	if c.Err() != nil || !c.Ready() {
		t.Fatalf("comparison failed: %v", c.Err())
	}
	t.Cleanup(func() { waitUnmapped(t, c.Close()) })
	return c, q
}

func TestComparisonListsPairsMostDifferentFirst(t *testing.T) {
	c, _ := newTestComparison(t)
	if c.Title() != "a.tmfile vs b.tmfile" {
		t.Errorf("title %q", c.Title())
	}
	if c.Rows() != 2 || c.Row(0).Name != "w" || c.Row(1).Name != "b" {
		t.Fatalf("rows: %d, first %v", c.Rows(), c.Row(0))
	}
	if !c.Row(1).Within() || c.Row(0).Within() {
		t.Errorf("b is identical, w shifted: %+v %+v", c.Row(0).Diff, c.Row(1).Diff)
	}
	if got := []string{c.Cell(0, PairName), c.Cell(0, PairDType), c.Cell(0, PairShape), c.Cell(1, PairOverTol)}; !slices.Equal(got, []string{"w", "float32", "[8, 12]", "0"}) {
		t.Errorf("cells %q", got)
	}
	if _, err := strconv.ParseFloat(c.Cell(0, PairRelL2), 64); err != nil {
		t.Errorf("rel_l2 cell %q: %v", c.Cell(0, PairRelL2), err)
	}
	s := c.Summary()
	if !strings.Contains(s, "2 pairs: 1 within") || !strings.Contains(s, "graphs: 1 node added, 0 removed") {
		t.Errorf("summary %q", s)
	}
	if g := c.Graph(); g == nil || len(g.Added) != 1 {
		t.Errorf("graph diff %+v", g)
	}
	c.SetFilter("B")
	if c.Rows() != 1 || c.Row(0).Name != "b" {
		t.Errorf("filter 'B': %d rows", c.Rows())
	}
	c.SetFilter("")
	if c.Rows() != 2 {
		t.Errorf("no filter: %d rows", c.Rows())
	}
}

func TestComparisonPairViewsMoveTogether(t *testing.T) {
	c, q := newTestComparison(t)
	c.Select(0)
	drainComparison(t, q, c)
	p := c.Pair()
	if p == nil || p.Err() != nil || !p.Loaded() {
		t.Fatalf("pair view: %+v", p)
	}
	for _, panel := range []Panel{PanelA, PanelB, PanelDiff} {
		if p.Heatmap(panel) == nil {
			t.Fatalf("panel %d has no heatmap", panel)
		}
	}
	ha, hb, hd := p.Heatmap(PanelA), p.Heatmap(PanelB), p.Heatmap(PanelDiff)
	if ha.Lo != hb.Lo || ha.Hi != hb.Hi {
		t.Errorf("A and B ranges differ: [%g,%g] [%g,%g]", ha.Lo, ha.Hi, hb.Lo, hb.Hi)
	}
	if hd.Colormap.Name != DiffColormap.Name || hd.Lo != -hd.Hi {
		t.Errorf("A−B: %s over [%g,%g], want the diverging map symmetric about 0", hd.Colormap.Name, hd.Lo, hd.Hi)
	}
	// One legend: NaN and ±Inf have the same colours in all three panels.
	for _, h := range []*viewmodel.HeatmapImage{ha, hb} {
		if a, d := h.Colormap, hd.Colormap; a.NaN != d.NaN || a.PosInf != d.PosInf || a.NegInf != d.NegInf {
			t.Errorf("A or B (%s) draws NaN, +Inf, −Inf as %v %v %v, A−B as %v %v %v",
				a.Name, a.NaN, a.PosInf, a.NegInf, d.NaN, d.PosInf, d.NegInf)
		}
	}
	// Element (2,3) is 27 in A and 27 + (27%5)·0.01 in B.
	info := p.CellInfo(2, 3)
	if !strings.Contains(info, "[2, 3]: a 27, b 27.02") || !strings.Contains(info, "a−b -0.02") {
		t.Errorf("hover %q", info)
	}
	if got := hd.Grid.At(2, 3); math.Abs(got+0.02) > 1e-6 {
		t.Errorf("A−B cell (2,3) = %g, want −0.02", got)
	}
	// Zooming one panel zooms all three.
	c.Panel(PanelB).SetView(viewmodel.Window{Row: 2, Col: 4, Rows: 3, Cols: 5})
	drainComparison(t, q, c)
	for _, panel := range []Panel{PanelA, PanelB, PanelDiff} {
		if h := p.Heatmap(panel); h.View != (viewmodel.Window{Row: 2, Col: 4, Rows: 3, Cols: 5}) || h.Grid.Rows != 3 || h.Grid.Cols != 5 {
			t.Errorf("panel %d after zoom: view %+v grid %d×%d", panel, h.View, h.Grid.Rows, h.Grid.Cols)
		}
	}
	if err := p.SetMode(DiffRelative); err != nil {
		t.Fatal(err)
	}
	drainComparison(t, q, c)
	// Relative difference at element (2,4) (window cell 0,0): a = 2·12+4 = 28, b = 28.03.
	if got, want := p.Heatmap(PanelDiff).Grid.At(0, 0), (28-28.03)/28.0; math.Abs(got-want) > 1e-6 {
		t.Errorf("relative A−B = %g, want %g", got, want)
	}
	if err := p.SetAxes(1, 0); err != nil {
		t.Fatal(err)
	}
	drainComparison(t, q, c)
	if r, cols := p.PlaneSize(); r != 12 || cols != 8 {
		t.Errorf("transposed plane %d×%d", r, cols)
	}
	if err := p.SetAxes(0, 0); err == nil {
		t.Error("the same axis for rows and columns was accepted")
	}
	if !p.HistogramsReady() || p.RenderOverlay(300, 200, viewmodel.PlotStyle{}) == nil || p.RenderDiffHistogram(300, 200, viewmodel.PlotStyle{}) == nil {
		t.Errorf("histograms: ready %v err %v", p.HistogramsReady(), p.HistogramErr())
	}
	var total int64
	for _, n := range p.hist.a.Counts {
		total += n
	}
	if total != 96 {
		t.Errorf("A histogram counts %d values, want 96", total)
	}
}

func TestComparisonCancelsOnClose(t *testing.T) {
	c, _ := newTestComparison(t)
	c.Select(0)
	docs := c.Close()
	if len(docs) != 2 {
		t.Fatalf("Close returned %d documents, want both", len(docs))
	}
	waitUnmapped(t, docs)
	if c.Pair() != nil {
		t.Error("the pair view outlived Close")
	}
}

func TestComparisonReportsOpenErrors(t *testing.T) {
	q := viewmodel.NewQueue()
	c := NewComparison(q.Post, viewmodel.Source{Name: "a.tmfile", Data: []byte("junk")}, viewmodel.Source{Name: "b", Data: []byte("junk")}, DefaultTolerance)
	drainComparison(t, q, c)
	if c.Err() == nil || !strings.Contains(c.Summary(), "a.tmfile") {
		t.Errorf("err %v, summary %q", c.Err(), c.Summary())
	}
}

func TestGraphDiffAttributes(t *testing.T) {
	ga := &formats.Graph{Nodes: []formats.Node{
		{ID: 0, Name: "conv", Op: "Conv", Attrs: []formats.Attr{{Name: "k", Value: int64(3)}, {Name: "pad", Value: []int64{1, 1}}}},
		{ID: 1, Name: "gone", Op: "Relu"},
	}}
	gb := &formats.Graph{Nodes: []formats.Node{
		{ID: 0, Name: "conv", Op: "Conv", Attrs: []formats.Attr{{Name: "k", Value: int64(5)}, {Name: "pad", Value: []int64{1, 1}}, {Name: "group", Value: int64(2)}}},
		{ID: 1, Name: "new", Op: "Relu"},
	}}
	d := DiffGraphs(ga, gb, nil)
	if len(d.Changed) != 1 || len(d.Removed) != 1 || len(d.Added) != 1 || d.ChangeA[1] != NodeRemoved || d.ChangeB[1] != NodeAdded {
		t.Fatalf("diff %+v", d)
	}
	attrs := d.Changed[0].Attributes
	if len(attrs) != 2 || attrs[0].Name != "k" || attrs[0].A != int64(3) || attrs[0].B != int64(5) ||
		attrs[1].Name != "group" || attrs[1].A != nil {
		t.Errorf("attribute changes %+v", attrs)
	}
	if d2 := DiffGraphs(ga, gb, Renames{"gone": "new"}); len(d2.Removed) != 0 || len(d2.Added) != 0 {
		t.Errorf("renamed node still added/removed: %+v", d2)
	}
}

// waitUnmapped waits until every document is unmapped: its last reader
// has returned.
func waitUnmapped(t *testing.T, docs []*formats.Document) {
	t.Helper()
	for _, d := range docs {
		select {
		case <-d.Unmapped():
		case <-time.After(30 * time.Second):
			t.Fatal("a closed document was not unmapped: work still reads it")
		}
	}
}

func TestComparisonSettingsApply(t *testing.T) {
	c, q := newTestComparison(t)
	if !c.SelectName("w") {
		t.Fatal("no pair w")
	}
	p := c.Pair()
	s := DefaultSettings()
	if err := s.Plane.SetAxes(1, 0); err != nil {
		t.Fatal(err)
	}
	if err := s.Plane.SetRange(viewmodel.RangeSymmetric, 0, 0); err != nil {
		t.Fatal(err)
	}
	if err := s.SetDiff("relative"); err != nil {
		t.Fatal(err)
	}
	if err := s.SetDiff("sideways"); err == nil {
		t.Error("an unknown difference mode was accepted")
	}
	if err := p.Apply(s); err != nil { // before the tensors are loaded: pending
		t.Fatal(err)
	}
	drainComparison(t, q, c)
	if !p.Ready() || p.Err() != nil {
		t.Fatalf("ready %v err %v", p.Ready(), p.Err())
	}
	if r, col := p.Axes(); r != 1 || col != 0 || p.Mode() != DiffRelative {
		t.Errorf("axes %d,%d mode %d", r, col, p.Mode())
	}
	if h := p.Heatmap(PanelA); h.Lo != -h.Hi || p.Heatmap(PanelB).Lo != h.Lo {
		t.Errorf("symmetric shared range: A [%g,%g], B [%g,%g]", h.Lo, h.Hi, p.Heatmap(PanelB).Lo, p.Heatmap(PanelB).Hi)
	}
	bad := DefaultSettings()
	bad.Plane.SetAxes(0, 5)
	if err := p.Apply(bad); err == nil || !strings.Contains(err.Error(), "two different axes") {
		t.Errorf("axes beyond the rank: %v", err)
	}
}

func TestComparisonChangeGraph(t *testing.T) {
	c, _ := newTestComparison(t)
	cg := c.ChangeGraph()
	if cg == nil {
		t.Fatal("no change graph for two models")
	}
	var titles []string
	added := -1
	for i, n := range cg.View.Nodes {
		titles = append(titles, n.Title+" "+n.Subtitle)
		if cg.Nodes[i].Change == NodeAdded {
			added = i
		}
	}
	if len(cg.View.Nodes) != 4 || added < 0 || cg.View.Nodes[added].Title != "+ ReLu" ||
		cg.View.Nodes[added].Category != changeCategories[NodeAdded] {
		t.Fatalf("nodes %v", titles)
	}
	if len(cg.View.Edges) != 3 {
		t.Errorf("edges %+v, want data→w.op→b.op→extra", cg.View.Edges)
	}
	if s := c.NodeVersions(cg, added); !strings.HasPrefix(s, "extra — added\nonly in B: ReLu") {
		t.Errorf("properties %q", s)
	}
}

func TestNodeVersionsShowsBothVersions(t *testing.T) {
	var buf strings.Builder
	writeBothVersions(&buf, []formats.Attr{{Name: "k", Value: int64(3)}, {Name: "s", Value: int64(1)}},
		[]formats.Attr{{Name: "k", Value: int64(5)}, {Name: "s", Value: int64(1)}, {Name: "g", Value: int64(2)}})
	want := "≠ k: A 3, B 5\n  s: A 1, B 1\n≠ g: A (none), B 2\n"
	if buf.String() != want {
		t.Errorf("got\n%s\nwant\n%s", buf.String(), want)
	}
}

// seq is 0, 1, …, n−1.
func seq(n int) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = float32(i)
	}
	return v
}

// Hovering a comparison whose file B was truncated on disk says the bytes
// are gone; on code without the fault guard it ends the test binary with
// SIGBUS.
func TestComparisonHoverOverTruncatedFile(t *testing.T) {
	w := seq(8 * 12)
	shapes := map[string][]int32{"w": {8, 12}}
	dir := t.TempDir()
	paths := [2]string{filepath.Join(dir, "a.tmfile"), filepath.Join(dir, "b.tmfile")}
	for i, path := range paths {
		if err := os.WriteFile(path, modelBytes(t, []string{"w"}, map[string][]float32{"w": w}, shapes, i == 1), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	q := viewmodel.NewQueue()
	c := NewComparison(q.Post, viewmodel.Source{Path: paths[0]}, viewmodel.Source{Path: paths[1]}, DefaultTolerance)
	defer c.Close()
	drainComparison(t, q, c)
	c.Select(0)
	drainComparison(t, q, c)
	p := c.Pair()
	if p == nil || !p.Loaded() {
		t.Fatalf("pair view: %+v", p)
	}
	if info := p.CellInfo(2, 3); !strings.Contains(info, "a 27, b 27") {
		t.Fatalf("hover before truncation: %q", info)
	}
	if err := os.Truncate(paths[1], 0); err != nil {
		t.Fatal(err)
	}
	if info := p.CellInfo(2, 3); !strings.Contains(info, viewmodel.UnreadableBytes) {
		t.Errorf("hover after truncation: %q", info)
	}
}
