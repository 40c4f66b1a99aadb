package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

	"tensorscope/viewmodel"
)

// A DType or Role cell is as wide as its longest text, within bounds.
func TestFitWidthHoldsTheLongestText(t *testing.T) {
	test.NewTempApp(t)
	long := "float8_e4m3fnuz (quantised)"
	need := fyne.MeasureText(long, theme.TextSize(), fyne.TextStyle{}).Width
	if w := fitWidth([]string{"f32", long}, 76, 320); w < need+2*theme.Padding() || w > 320 {
		t.Errorf("width %v for text of %v", w, need)
	}
	if w := fitWidth([]string{"f32"}, 76, 320); w != 76 {
		t.Errorf("short texts keep the default: %v", w)
	}
	if w := fitWidth([]string{strings.Repeat("W", 100)}, 76, 320); w != 320 {
		t.Errorf("capped at %v", w)
	}
}

// listPane is the Tensors pane of the .nn fixture in a window of the given
// size, opened as the viewer opens it: on its first weight.
func listPane(t *testing.T, w, h float32) (*tensorPane, fyne.Window) {
	t.Helper()
	test.NewTempApp(t)
	q := viewmodel.NewQueue()
	d := openFixture(t, q, "fixture.nn", nnFixture(t))
	d.ShowOpening()
	win := goldenWindow(t, nil, w, h)
	p := newTensorPane(win, d)
	win.SetContent(p.content)
	p.selectTensor(d.Inspector.Index())
	settle(t, q, d)
	return p, win
}

// TestWideListShowsEveryColumnInFull: in a 1600-pixel window every column
// is shown, each as wide as its widest text, with the filter's whole hint.
func TestWideListShowsEveryColumnInFull(t *testing.T) {
	p, win := listPane(t, 1600, 900)
	if p.compact {
		t.Fatal("a 1600-pixel window shows the narrow list")
	}
	var total float32
	for c, col := range wideColumns {
		w := p.widths[c]
		total += w + theme.Padding()
		for row := 0; row < p.list.Len(); row++ {
			text := p.cellText(row, col)
			if need := fyne.MeasureText(text, theme.TextSize(), fyne.TextStyle{}).Width + 2*theme.InnerPadding(); need > w {
				t.Errorf("column %s is %.0f wide, %q needs %.0f", viewmodel.TensorColumnTitles[col], w, text, need)
			}
		}
	}
	if list := p.table.Size().Width; total > list {
		t.Errorf("the columns need %.0f pixels, the list has %.0f", total, list)
	}
	if p.filter.PlaceHolder != filterHints[0] {
		t.Errorf("the filter's hint is %q", p.filter.PlaceHolder)
	}
	assertGoldenImage(t, "tensor_list_wide.png", win.Canvas().Capture())
}

// TestNarrowListPutsDTypeAndShapeUnderTheName: in a 1024-pixel window the
// list shows Name, Size and Role, the name's cell holding dtype and shape
// on a second line, and the filter's hint fits its box.
func TestNarrowListPutsDTypeAndShapeUnderTheName(t *testing.T) {
	p, win := listPane(t, 1024, 700)
	if !p.compact {
		t.Fatalf("a list %.0f pixels wide shows all five columns", p.table.Size().Width)
	}
	if _, cols := p.table.Length(); cols != 3 {
		t.Errorf("the narrow list has %d columns, want Name, Size and Role", cols)
	}
	if got := p.cellText(0, viewmodel.ColName); got != "layer0.weight\nfloat32  [4, 8]" {
		t.Errorf("the first name cell reads %q", got)
	}
	hint := fyne.MeasureText(p.filter.PlaceHolder, theme.TextSize(), fyne.TextStyle{}).Width
	if box := p.filter.Size().Width - 2*theme.InnerPadding(); hint > box {
		t.Errorf("the filter's hint %q needs %.0f pixels, the box has %.0f", p.filter.PlaceHolder, hint, box)
	}
	assertGoldenImage(t, "tensor_list_narrow.png", win.Canvas().Capture())
	win.Resize(fyne.NewSize(1600, 900))
	if p.compact {
		t.Error("widened to 1600 pixels, the list stays narrow")
	}
}
