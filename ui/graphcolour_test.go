package ui

import (
	"image/color"
	"path/filepath"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"tensorscope/internal/samples"
	"tensorscope/viewmodel"
)

// Colour by std: nodes with weights take the colour of their weight's std
// once the summary is in, nodes without stay grey, a colour bar shows the
// range; back to the categories restores them.
func TestGoldenGraphColouredByStd(t *testing.T) {
	path := filepath.Join(samples.Dir(t, "tmfile"), "tengine_mnist.tmfile")
	p, win := graphPaneFor(t, "tengine_mnist.tmfile", readFile(t, path), 1100, 900)
	q := paneQueues[p]
	p.colourSel.SetSelected("std")
	ov := p.dt.doc.Overview()
	if !q.Drain(func() bool { return ov.Running }, time.Minute) {
		t.Fatal("the summary did not finish")
	}
	weighted, grey := 0, 0
	for v := range p.model.View().Nodes {
		if p.model.NodeWeight(v) != "" {
			weighted++
		}
	}
	c := viewmodel.ColourByMetric(p.model, ov.Model, ov.Metric)
	for _, col := range c.Colours {
		if col == color.Color(viewmodel.NoWeightColour) {
			grey++
		}
	}
	if weighted == 0 || grey == 0 || weighted+grey != len(c.Colours) {
		t.Errorf("%d nodes with weights, %d grey, of %d", weighted, grey, len(c.Colours))
	}
	if !p.colourBar.Visible() {
		t.Error("no colour bar")
	}
	test.AssertRendersToImage(t, "graph_coloured_std.png", win.Canvas())

	p.colourSel.SetSelected("category")
	if p.colourBar.Visible() {
		t.Error("the colour bar stays for the categories")
	}
}
