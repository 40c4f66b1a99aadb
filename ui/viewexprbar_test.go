package ui

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"

	"tensorscope/formats/tsr"
	"tensorscope/tensor"
	"tensorscope/viewmodel"
)

// convFixture is a TSR4 file with one conv weight float32[6,4,3,3].
func convFixture(t *testing.T) []byte {
	w := float32Tensor(t, []int{6, 4, 3, 3}, func(i int) float32 { return float32(math.Sin(float64(i) * 0.7)) })
	var buf bytes.Buffer
	if err := tsr.EncodeV4(&buf, []*tensor.Tensor{w}, tsr.RAW); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// submit types text into the box and presses Enter.
func submit(e *exprBar, text string) {
	e.entry.SetText("")
	test.Type(e.entry, text)
	e.entry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
}

// The expression box opens on the mosaic of a conv weight; Enter applies,
// a bad expression is reported with its column and changes nothing, empty
// resets to the default, and the Mosaic check switches to the planes.
// Hovering the mosaic names the kernel element.
func TestExpressionBox(t *testing.T) {
	test.NewTempApp(t)
	q := viewmodel.NewQueue()
	d := openFixture(t, q, "conv.tsr", convFixture(t))
	win := goldenWindow(t, nil, 1000, 800)
	v := newInspectorView(win, d)
	win.SetContent(v.content)
	v.show(0)
	settle(t, q, d)
	bar := v.expr
	if bar.entry.Text != viewmodel.MosaicExpr || !bar.mosaic.Checked || !bar.mosaic.Visible() {
		t.Fatalf("box %q, mosaic checked %v visible %v", bar.entry.Text, bar.mosaic.Checked, bar.mosaic.Visible())
	}
	if r, c := d.Inspector.PlaneSize(); r != 18 || c != 12 {
		t.Fatalf("mosaic %d×%d, want 18×12", r, c)
	}

	pos, size := v.heat.imageRect(v.heat.Size())
	at := fyne.NewPos(pos.X+size.Width*(5.5/12), pos.Y+size.Height*(4.5/18)) // column 5, row 4
	v.heat.MouseMoved(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: at}})
	if !strings.HasPrefix(v.hover.Text, "[1, 1, 1, 2] = ") {
		t.Errorf("hover %q, want kernel o=1, i=1, y=1, x=2", v.hover.Text)
	}

	submit(bar, "w[:, :, 1, 1")
	settle(t, q, d)
	if !bar.errText.Visible() || !strings.Contains(bar.errText.Text, "col 13: expected ',' or ']'") {
		t.Fatalf("error %q (visible %v)", bar.errText.Text, bar.errText.Visible())
	}
	if d.Inspector.Expr() != viewmodel.MosaicExpr || bar.entry.Text != "w[:, :, 1, 1" {
		t.Fatalf("a bad expression changed the view to %q (box %q)", d.Inspector.Expr(), bar.entry.Text)
	}

	submit(bar, "w[:, :, 1, 1]")
	settle(t, q, d)
	if r, c := d.Inspector.PlaneSize(); bar.errText.Visible() || r != 6 || c != 4 || bar.mosaic.Checked {
		t.Fatalf("w[:, :, 1, 1]: %d×%d, error shown %v, mosaic %v", r, c, bar.errText.Visible(), bar.mosaic.Checked)
	}

	submit(bar, "")
	settle(t, q, d)
	if d.Inspector.Expr() != viewmodel.MosaicExpr || bar.entry.Text != viewmodel.MosaicExpr {
		t.Fatalf("empty box: view %q, box %q", d.Inspector.Expr(), bar.entry.Text)
	}

	test.Tap(bar.mosaic)
	settle(t, q, d)
	if r, c := d.Inspector.PlaneSize(); d.Inspector.Expr() != "w" || bar.entry.Text != "w" || r != 6 || c != 4 {
		t.Fatalf("mosaic off: view %q box %q plane %d×%d", d.Inspector.Expr(), bar.entry.Text, r, c)
	}
}
