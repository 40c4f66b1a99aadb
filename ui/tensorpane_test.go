package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
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
