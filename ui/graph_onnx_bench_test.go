package ui

import (
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"tensorscope/formats/onnx/onnxtest"
	"tensorscope/viewmodel"
)

// BenchmarkONNX100kLayoutFirstFrame opens a generated 100,000-node ONNX
// model's Graph tab: decode, fold weights, measure text, lay out, and draw
// the first frame of the 1600×1000 window, as a user waits for it.
func BenchmarkONNX100kLayoutFirstFrame(b *testing.B) {
	test.NewTempApp(b)
	data := onnxtest.CNN(100_000).Marshal()
	for b.Loop() {
		q := viewmodel.NewQueue()
		d := openSlowly(b, q, "cnn100k.onnx", data)
		win := test.NewTempWindow(b, nil)
		dt := &docTab{mw: &MainWindow{win: win}, doc: d}
		p := newGraphPane(dt)
		shown := func() bool {
			select {
			case <-p.ready:
				return true
			default:
				return false
			}
		}
		if !q.Drain(func() bool { return !shown() }, 5*time.Minute) {
			b.Fatal("graph layout did not finish")
		}
		win.SetContent(p.content)
		win.Resize(fyne.NewSize(1600, 1000))
		p.view.Home()
		win.Canvas().Capture()
	}
}

// openSlowly is openFixture with room for a large file on a busy machine.
func openSlowly(b *testing.B, q *viewmodel.Queue, name string, data []byte) *viewmodel.Doc {
	ws := viewmodel.NewWorkspace(q.Post, viewmodel.MemPrefs{})
	var doc *viewmodel.Doc
	var err error
	done := false
	ws.OpenBytes(name, data, func(d *viewmodel.Doc, e error) { doc, err, done = d, e, true })
	if !q.Drain(func() bool { return !done }, 5*time.Minute) {
		b.Fatal("opening timed out")
	}
	if err != nil {
		b.Fatal(err)
	}
	return doc
}
