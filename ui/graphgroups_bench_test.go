package ui

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"tensorscope/graphview"
	"tensorscope/viewmodel"

	"tensorscope/internal/gentransformer"
	"tensorscope/internal/samples"
)

// BenchmarkExpandGroup expands one group of a graph open in the pane and
// waits for it to be laid out and shown (≤ 50 ms, issue 25): a layer of
// the generated transformer, a stage of swin_t. Collapsing it again
// between runs is not timed.
func BenchmarkExpandGroup(b *testing.B) {
	for _, c := range []struct{ name, file, group string }{
		{"transformer-layer", "", "model/layers.3"},
		{"swin_t-stage", "swin_t_topology_w24_opset16.onnx", "features/features.5"},
	} {
		b.Run(c.name, func(b *testing.B) {
			path := gentransformer.Path(b)
			if c.file != "" {
				path = filepath.Join(samples.Dir(b, "onnx"), "torchvision-export", c.file)
			}
			p := benchPane(b, path)
			gi := p.model.GroupNamed(c.group)
			if gi < 0 || p.model.ViewOfGroup(gi) < 0 {
				b.Fatalf("%s is not a collapsed box", c.group)
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				p.expandBox(p.model.ViewOfGroup(gi))
				waitBench(b, p)
				p.view.Refresh()
				b.StopTimer()
				for f := 0; f < p.view.Scene().Frames(); f++ {
					if p.model.FrameGroup(f) == gi {
						p.collapseFrame(f)
					}
				}
				waitBench(b, p)
				b.StartTimer()
			}
		})
	}
}

// BenchmarkExpandAll: Expand all of the generated transformer in the
// pane, against laying out the flat graph (Depth all) as the pane did
// before groups (issue 25: no slower).
func BenchmarkExpandAll(b *testing.B) {
	p := benchPane(b, gentransformer.Path(b))
	b.Run("expand-all", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			p.setAll(true)
			waitBench(b, p)
			b.StopTimer()
			p.setAll(false)
			waitBench(b, p)
			b.StartTimer()
		}
	})
	b.Run("flat", func(b *testing.B) { // what the pane loaded before groups
		q := paneQueues[p]
		for i := 0; i < b.N; i++ {
			done := false
			p.view.Load(p.model.FlatView(), graphview.SceneOptions{}, p.startLayout, func(*graphview.Scene, error) { done = true })
			if !q.Drain(func() bool { return !done }, time.Minute) {
				b.Fatal("layout did not finish")
			}
			p.view.Refresh()
		}
	})
}

// benchPane opens path's Graph tab in a 1600×1000 test window.
func benchPane(b *testing.B, path string) *graphPane {
	b.Helper()
	test.NewTempApp(b)
	q := viewmodel.NewQueue()
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	d := openSlowly(b, q, filepath.Base(path), data)
	win := test.NewTempWindow(b, nil)
	dt := &docTab{mw: &MainWindow{win: win}, doc: d}
	p := newGraphPane(dt, nil)
	paneQueues[p] = q
	b.Cleanup(func() { delete(paneQueues, p) })
	waitBench(b, p)
	win.SetContent(p.content)
	win.Resize(fyne.NewSize(1600, 1000))
	return p
}

func waitBench(b *testing.B, p *graphPane) {
	b.Helper()
	ready := func() bool {
		select {
		case <-p.ready:
			return true
		default:
			return false
		}
	}
	if !paneQueues[p].Drain(func() bool { return !ready() }, time.Minute) {
		b.Fatal("graph layout did not finish")
	}
}
