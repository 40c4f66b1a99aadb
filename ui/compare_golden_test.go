package ui

import (
	"bytes"
	"math"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"tensorscope/formats"
	"tensorscope/formats/tmfile"
	"tensorscope/viewmodel"
	"tensorscope/viewmodel/compare"
)

// compareModel is a small Tengine model: a convolution with an 8×12
// kernel and a fully connected layer; version 2 moves a patch of the
// kernel, scales the FC weights, changes the convolution's kernel size
// attribute, drops the ReLU, adds a Sigmoid and a bias only it has.
func compareModel(t *testing.T, version int) []byte {
	t.Helper()
	kernel := make([]float32, 8*12)
	for i := range kernel {
		r, c := float64(i/12), float64(i%12)
		kernel[i] = float32(math.Sin(r/2) * math.Cos(c/3))
		if version == 2 && r >= 2 && r < 5 && c >= 6 && c < 10 {
			kernel[i] += 0.25
		}
	}
	fc := make([]float32, 6*10)
	for i := range fc {
		fc[i] = float32(math.Cos(float64(i) * 0.3))
		if version == 2 {
			fc[i] *= 1.05
		}
	}
	b := tmfile.NewBuilder(1, "compare")
	x := b.Input("data", []int32{1, 1, 8, 12})
	w := b.Const("conv.weight", []int32{8, 12}, kernel)
	k := int64(3)
	if version == 2 {
		k = 5
	}
	conv := b.Op("conv", "Convolution", []formats.Attr{{Name: "kernel_h", Value: k}, {Name: "kernel_w", Value: k}}, []int32{1, 1, 8, 12}, x, w)
	fw := b.Const("fc.weight", []int32{6, 10}, fc)
	out := b.Op("fc", "FullyConnected", nil, []int32{1, 6}, conv, fw)
	if version == 2 {
		fb := b.Const("fc.bias", []int32{6}, []float32{1, 2, 3, 4, 5, 6})
		out = b.Op("fc_bias", "Eltwise", nil, []int32{1, 6}, out, fb)
		out = b.Op("sigmoid", "Sigmoid", nil, []int32{1, 6}, out)
	} else {
		out = b.Op("relu", "ReLu", nil, []int32{1, 6}, out)
	}
	b.Output(out)
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

func settleComparison(t *testing.T, q *viewmodel.Queue, c *compare.Comparison) {
	t.Helper()
	if !q.Drain(func() bool { return !c.Idle() }, 30*time.Second) {
		t.Fatal("the comparison did not settle")
	}
}

func TestGoldenComparisonTab(t *testing.T) {
	test.NewTempApp(t)
	q := viewmodel.NewQueue()
	c := compare.NewComparison(q.Post, viewmodel.Source{Name: "before.tmfile", Data: compareModel(t, 1)},
		viewmodel.Source{Name: "after.tmfile", Data: compareModel(t, 2)}, compare.DefaultTolerance)
	t.Cleanup(func() {
		for _, d := range c.Close() {
			<-d.Unmapped()
		}
	})
	settleComparison(t, q, c)
	if c.Err() != nil {
		t.Fatal(c.Err())
	}
	tab := newCompareTab(nil, c)
	win := goldenWindow(t, tab.content, 1280, 760)
	test.AssertRendersToImage(t, "compare_list.png", win.Canvas())

	tab.table.table.Select(widget.TableCellID{Row: 0, Col: 0}) // the most different pair: conv.weight
	settleComparison(t, q, c)
	if p := c.Pair(); p == nil || p.Name() != "conv.weight" {
		t.Fatalf("selected %v, want conv.weight first", p)
	}
	test.AssertRendersToImage(t, "compare_heatmaps.png", win.Canvas())

	tab.pair.body.SelectIndex(1)
	test.AssertRendersToImage(t, "compare_histograms.png", win.Canvas())

	tab.panes.SelectIndex(2)
	select {
	case <-tab.graph.laidOut:
	case <-time.After(30 * time.Second):
		t.Fatal("the combined graph was not laid out")
	}
	test.AssertRendersToImage(t, "compare_graph_changes.png", win.Canvas())

	// Tapping the changed convolution shows both versions of its attributes.
	tab.graph.view.Select(1)
	tab.graph.view.OnNodeTapped(1)
	if got := tab.graph.props.Text; !strings.Contains(got, "conv — changed") || !strings.Contains(got, "≠ kernel_h: A 3, B 5") {
		t.Errorf("properties of conv: %q", got)
	}
	test.AssertRendersToImage(t, "compare_graph_node.png", win.Canvas())
}
