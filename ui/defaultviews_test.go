package ui

import (
	"bytes"
	"encoding/binary"
	"regexp"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"tensorscope/formats/tsr"
	"tensorscope/tensor"
	"tensorscope/viewmodel"
)

// labelsFixture is a TSR v1 file of one int32[10000] tensor: class labels
// 0..9, not equally frequent.
func labelsFixture(t *testing.T) []byte {
	const n = 10000
	b := make([]byte, 4*n)
	for i := 0; i < n; i++ {
		label := (i * i / 7) % 10
		binary.LittleEndian.PutUint32(b[4*i:], uint32(label))
	}
	x, err := tensor.FromBytes(b, tensor.Int32, []int{n})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := tsr.EncodeV1(&buf, x); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestGoldenIntegerHistogram opens a file of one label vector: it opens
// with the tensor shown, and its histogram has one bin per label.
func TestGoldenIntegerHistogram(t *testing.T) {
	test.NewTempApp(t)
	q := viewmodel.NewQueue()
	d := openFixture(t, q, "labels.tsr", labelsFixture(t))
	settle(t, q, d)
	if d.Inspector.Index() != 0 {
		t.Fatalf("a file of one tensor opened with tensor %d shown", d.Inspector.Index())
	}
	win := goldenWindow(t, nil, 1200, 720)
	p := newTensorPane(win, d)
	win.SetContent(p.content)
	p.inspector.tabs.SelectIndex(1)
	settle(t, q, d)
	test.AssertRendersToImage(t, "integer_histogram.png", win.Canvas())
}

// Hovering the histogram names the bar under the pointer; leaving clears it.
func TestHistogramHoverNamesTheBar(t *testing.T) {
	test.NewTempApp(t)
	q := viewmodel.NewQueue()
	d := openFixture(t, q, "labels.tsr", labelsFixture(t))
	settle(t, q, d)
	win := goldenWindow(t, nil, 1200, 720)
	p := newTensorPane(win, d)
	win.SetContent(p.content)
	p.inspector.tabs.SelectIndex(1)
	settle(t, q, d)
	h := p.inspector.hist
	test.AssertRendersToImage(t, "integer_histogram.png", win.Canvas()) // drawn, so the bars have places
	at := fyne.CurrentApp().Driver().AbsolutePositionForObject(h.area)
	size := h.area.Size()
	test.MoveMouse(win.Canvas(), at.Add(fyne.NewPos(size.Width*0.55, size.Height/2)))
	if !regexp.MustCompile(`^value [0-9]: [0-9,]+$`).MatchString(h.hover.Text) {
		t.Errorf("hover text %q, want a label's value and count", h.hover.Text)
	}
	test.MoveMouse(win.Canvas(), fyne.NewPos(5, 5))
	if h.hover.Text != "" {
		t.Errorf("after leaving the histogram: %q", h.hover.Text)
	}
}
