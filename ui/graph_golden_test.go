package ui

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"tensorscope/formats/tsm"
	"tensorscope/internal/samples"
	"tensorscope/viewmodel"
)

// paneQueues hold the queue each test pane's document posts through, so
// that later layouts (a subgraph entered) can be waited for.
var paneQueues = map[*graphPane]*viewmodel.Queue{}

// graphPaneFor builds the Graph tab of data in a test window and waits for
// its layout.
func graphPaneFor(t *testing.T, name string, data []byte, w, h float32) (*graphPane, fyne.Window) {
	t.Helper()
	test.NewTempApp(t)
	q := viewmodel.NewQueue()
	d := openFixture(t, q, name, data)
	win := test.NewTempWindow(t, nil)
	dt := &docTab{mw: &MainWindow{win: win}, doc: d}
	p := newGraphPane(dt, nil)
	// The layout is a task of the document, whose results arrive through
	// the queue; it must finish before the window lays out and draws.
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
	paneQueues[p] = q
	t.Cleanup(func() { delete(paneQueues, p) })
	win.SetContent(p.content)
	win.Resize(fyne.NewSize(w, h))
	p.view.Fit()
	return p, win
}

func TestGoldenGraphTMFile(t *testing.T) {
	path := filepath.Join(samples.Dir(t, "tmfile"), "tengine_mnist.tmfile")
	data := readFile(t, path)
	p, win := graphPaneFor(t, "tengine_mnist.tmfile", data, 1100, 900)
	if got := p.status.Text; got != "9 nodes, 8 edges (11 constant nodes folded into their consumers)" {
		t.Errorf("status %q", got)
	}
	test.AssertRendersToImage(t, "graph_tmfile_mnist.png", win.Canvas())
}

func TestGoldenGraphTenniS(t *testing.T) {
	var buf bytes.Buffer
	if err := tsm.Encode(&buf, tsm.ExampleNet()); err != nil {
		t.Fatal(err)
	}
	_, win := graphPaneFor(t, "example.tsm", buf.Bytes(), 1000, 820)
	test.AssertRendersToImage(t, "graph_tsm_example.png", win.Canvas())
}

func TestGoldenGraphNN(t *testing.T) {
	_, win := graphPaneFor(t, "fixture.nn", nnFixture(t), 900, 700)
	test.AssertRendersToImage(t, "graph_nn_chain.png", win.Canvas())
}

// TestGraphNodeSelection taps a node and checks the side panel: op, name,
// decoded attributes, inputs with shapes, and an Inspect button for its
// weights that opens the tensor.
func TestGraphNodeSelection(t *testing.T) {
	path := filepath.Join(samples.Dir(t, "tmfile"), "tengine_mnist.tmfile")
	p, _ := graphPaneFor(t, "tengine_mnist.tmfile", readFile(t, path), 1100, 900)
	conv := p.model.Find("Conv_0")
	if len(conv) != 1 {
		t.Fatalf("find Conv_0: %v", conv)
	}
	p.goTo(conv[0])
	if p.view.Selected() != conv[0] {
		t.Errorf("selected %d", p.view.Selected())
	}
	// The attributes fold after the first few, below the inputs and outputs.
	text := labelsIn(p.props)
	if strings.Contains(text, "\noutput_channel\n") || strings.Index(text, "\nInputs\n") > strings.Index(text, "\nAttributes\n") {
		t.Errorf("attributes not folded, or before the inputs:\n%s", text)
	}
	var more *widget.Button
	walkObjects(p.props, func(o fyne.CanvasObject) {
		if b, ok := o.(*widget.Button); ok && strings.HasPrefix(b.Text, "… ") && strings.HasSuffix(b.Text, " more") {
			more = b
		}
	})
	if more == nil {
		t.Fatalf("no \"… N more\" button under the attributes:\n%s", text)
	}
	test.Tap(more)
	text = labelsIn(p.props)
	for _, want := range []string{"Op", "Convolution", "Conv_0", "kernel_h", "output_channel", "8",
		"images  float32 [1, 1, 28, 28] ← images", "conv1.0.weight  float32 [8, 1, 3, 3] (folded weight)"} {
		if !strings.Contains(text, "\n"+want+"\n") {
			t.Errorf("side panel lacks %q:\n%s", want, text)
		}
	}
	var inspect []*widget.Button
	walkObjects(p.props, func(o fyne.CanvasObject) {
		if b, ok := o.(*widget.Button); ok && b.Text == "Inspect" {
			inspect = append(inspect, b)
		}
	})
	if len(inspect) != 2 { // weight and bias
		t.Fatalf("%d Inspect buttons, want 2", len(inspect))
	}
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := readAll(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func labelsIn(o fyne.CanvasObject) string {
	var b strings.Builder
	b.WriteString("\n")
	walkObjects(o, func(o fyne.CanvasObject) {
		if l, ok := o.(*widget.Label); ok {
			b.WriteString(l.Text + "\n")
		}
	})
	return b.String()
}

func walkObjects(o fyne.CanvasObject, f func(fyne.CanvasObject)) {
	f(o)
	if c, ok := o.(*fyne.Container); ok {
		for _, x := range c.Objects {
			walkObjects(x, f)
		}
	}
}
