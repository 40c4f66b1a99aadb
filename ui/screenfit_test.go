package ui

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

func TestFittedToTheWorkArea(t *testing.T) {
	open := fyne.NewSize(1280, 820)
	for _, c := range []struct {
		w, h    int
		scale   float32
		want    fyne.Size
		smaller bool
	}{
		{1600, 1000, 1, open, false},
		{1024, 700, 1, fyne.NewSize(1008, 652), true},
		{1920, 1080, 2, fyne.NewSize(952, 516), true}, // a 2× screen has half the units
		{1024, 2000, 1, fyne.NewSize(1008, 820), true},
		{0, 0, 1, open, false},
		{1024, 700, 0, open, false},
	} {
		got, smaller := fitted(open, c.w, c.h, c.scale)
		if got != c.want || smaller != c.smaller {
			t.Errorf("%dx%d at %g: %v, %v; want %v, %v", c.w, c.h, c.scale, got, smaller, c.want, c.smaller)
		}
	}
}

// A window of the test driver is not an X11 one: fitToScreen leaves it.
func TestFitToScreenLeavesOtherWindows(t *testing.T) {
	a := test.NewTempApp(t)
	win := a.NewWindow("x")
	win.Resize(fyne.NewSize(1280, 820))
	fitToScreen(win)
	if got := win.Canvas().Size(); got != fyne.NewSize(1280, 820) {
		t.Errorf("a test window became %v", got)
	}
}
