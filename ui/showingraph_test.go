package ui

import (
	"path/filepath"
	"testing"

	"fyne.io/fyne/v2/test"

	"tensorscope/internal/samples"
	"tensorscope/viewmodel"
)

// TestInspectHasAWayBackToTheGraph inspects a convolution's weight and
// presses "Show in graph": the Graph pane shows with the convolution
// selected and described.
func TestInspectHasAWayBackToTheGraph(t *testing.T) {
	a := test.NewTempApp(t)
	path := filepath.Join(samples.Dir(t, "tmfile"), "tengine_mnist.tmfile")
	q := viewmodel.NewQueue()
	d := openFixture(t, q, "tengine_mnist.tmfile", readFile(t, path))
	mw := NewMainWindow(a, Options{})
	dt := newPendingTab(mw, "tengine_mnist.tmfile")
	mw.docTabs = append(mw.docTabs, dt)
	mw.tabs.Append(dt.item)
	mw.showTabs()
	dt.setDoc(d)
	drainLayout(t, q, dt.graph)
	weight := -1
	for i, e := range d.Doc.Tensors {
		if e.Name == "conv1.0.weight" {
			weight = i
		}
	}
	if weight < 0 {
		t.Fatal("no conv1.0.weight")
	}
	dt.inspectTensor(weight)
	settle(t, q, d)
	if !dt.tensors.inspector.toGraph.Visible() {
		t.Fatal("no Show in graph button for a model's tensor")
	}
	test.Tap(dt.tensors.inspector.toGraph)
	if dt.panes.Selected().Content != dt.graph.content {
		t.Errorf("the %q pane is shown, not the graph", dt.panes.Selected().Text)
	}
	v := dt.graph.view.Selected()
	if name := d.Doc.Graph.Nodes[dt.graph.model.DocNode(v)].Name; name != "Conv_0" {
		t.Errorf("selected node %q, want Conv_0 (which uses conv1.0.weight)", name)
	}
}
