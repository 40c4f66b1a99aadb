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
		d := openFixture(b, q, "cnn100k.onnx", data)
		win := test.NewTempWindow(b, nil)
		dt := &docTab{mw: &MainWindow{win: win}, doc: d}
		p := newGraphPane(dt)
		select {
		case <-p.ready:
		case <-time.After(60 * time.Second):
			b.Fatal("graph layout did not finish")
		}
		win.SetContent(p.content)
		win.Resize(fyne.NewSize(1600, 1000))
		p.view.Home()
		win.Canvas().Capture()
	}
}
