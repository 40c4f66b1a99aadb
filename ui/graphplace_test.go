package ui

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"tensorscope/graphview"
	"tensorscope/internal/samples"
	"tensorscope/viewmodel"
)

// waitReady runs the document's posted results until the latest layout
// has been shown.
func drainLayout(t *testing.T, q *viewmodel.Queue, p *graphPane) {
	t.Helper()
	ready := func() bool {
		select {
		case <-p.ready:
			return true
		default:
			return false
		}
	}
	if !q.Drain(func() bool { return !ready() }, 20*time.Second) {
		t.Fatal("graph layout did not finish")
	}
}

// TestGraphRelayoutKeepsSelectionAndLineage switches the direction and then
// shows constants with a node selected and its lineage highlighted: the
// selection, the highlight, the properties panel and the lineage button
// must still agree, on the same document node.
func TestGraphRelayoutKeepsSelectionAndLineage(t *testing.T) {
	path := filepath.Join(samples.Dir(t, "tmfile"), "tengine_mnist.tmfile")
	test.NewTempApp(t)
	q := viewmodel.NewQueue()
	d := openFixture(t, q, "tengine_mnist.tmfile", readFile(t, path))
	win := test.NewTempWindow(t, nil)
	p := newGraphPane(&docTab{mw: &MainWindow{win: win}, doc: d}, nil)
	drainLayout(t, q, p)
	win.SetContent(p.content)
	win.Resize(fyne.NewSize(1100, 900))
	conv := p.model.Find("Conv_0")[0]
	docNode := p.model.DocNode(conv)
	p.goTo(conv)
	p.lineage.OnTapped()
	if p.lineage.Text != "Clear lineage" {
		t.Fatalf("lineage button says %q after highlighting", p.lineage.Text)
	}
	check := func(when string) {
		t.Helper()
		v := p.view.Selected()
		if p.model.DocNode(v) != docNode {
			t.Errorf("%s: selected document node %d, want %d", when, p.model.DocNode(v), docNode)
		}
		if p.model.DocNode(p.view.Highlighted()) != docNode {
			t.Errorf("%s: lineage of node %d highlighted, want %d", when, p.model.DocNode(p.view.Highlighted()), docNode)
		}
		if p.lineage.Text != "Clear lineage" || p.lineage.Disabled() {
			t.Errorf("%s: lineage button %q (disabled %v)", when, p.lineage.Text, p.lineage.Disabled())
		}
		if text := labelsIn(p.props); !strings.Contains(text, "\nConv_0\n") {
			t.Errorf("%s: the properties panel does not describe Conv_0:\n%s", when, text)
		}
	}
	p.dirSel.SetSelectedIndex(int(graphview.LeftToRight))
	drainLayout(t, q, p)
	check("after switching to left to right")

	p.consts.SetChecked(true)
	drainLayout(t, q, p)
	check("after showing constants")
	if !p.view.NodeInView(p.view.Selected()) {
		t.Error("showing constants lost the selected node from view")
	}
}

// TestPropertiesStartAtTheTopForANewSelection scrolls the Properties pane
// down, selects another node: the pane shows it from its title.
func TestPropertiesStartAtTheTopForANewSelection(t *testing.T) {
	p, _ := graphPaneFor(t, "fixture.nn", nnFixture(t), 1000, 240)
	p.showNode(1)
	room := p.props.MinSize().Height - p.propsScroll.Size().Height
	if room < 20 {
		t.Fatalf("the properties (%.0f px) fit their pane (%.0f px): nothing to scroll", p.props.MinSize().Height, p.propsScroll.Size().Height)
	}
	p.propsScroll.Refresh() // lays the new properties out
	p.propsScroll.ScrollToBottom()
	if p.propsScroll.Offset.Y == 0 {
		t.Fatal("the properties did not scroll")
	}
	t.Logf("scrolled to %.0f of %.0f in %.0f", p.propsScroll.Offset.Y, p.props.MinSize().Height, p.propsScroll.Size().Height)
	p.showNode(2)
	t.Logf("then %.0f of %.0f", p.propsScroll.Offset.Y, p.props.MinSize().Height)
	if y := p.propsScroll.Offset.Y; y != 0 {
		t.Errorf("a new selection's properties open scrolled %.0f px down", y)
	}
}
