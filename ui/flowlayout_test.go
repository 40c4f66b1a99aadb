package ui

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// A flow toolbar keeps one row when it fits and wraps when the window is
// narrow, so that nothing is cut off; its height follows.
func TestFlowWrapsInsteadOfCutting(t *testing.T) {
	test.NewTempApp(t)
	var items []fyne.CanvasObject
	for _, s := range []string{"Rows", "axis 0 (512)", "Cols", "axis 1 (256)", "Reduce", "mean"} {
		items = append(items, widget.NewButton(s, nil))
	}
	box := newFlow(items...)
	one := box.MinSize().Height
	win := test.NewWindow(box)
	defer win.Close()
	box.Resize(fyne.NewSize(2000, one))
	if h := box.MinSize().Height; h != one {
		t.Errorf("wide: height %v, want one row %v", h, one)
	}
	box.Resize(fyne.NewSize(220, one))
	h := box.MinSize().Height
	if h < 2*one {
		t.Fatalf("narrow: height %v for rows of %v", h, one)
	}
	for _, o := range items {
		if right := o.Position().X + o.Size().Width; right > 220 && o.Position().X > 0 {
			t.Errorf("%v ends at %v, past the width 220", o.(*widget.Button).Text, right)
		}
	}
}
