package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"tensorscope/viewmodel"
)

// exprBar is the inspector's expression box: the view the tensor is seen
// through, as NumPy-style indexing and view operations. Enter applies,
// an empty box goes back to the tensor's default view; a bad expression
// is reported below the box and changes nothing. The Mosaic check switches
// a 4-D tensor between the mosaic of its kernels and its planes; the
// inspector places it apart from the box, which moves between its tabs.
type exprBar struct {
	in      *viewmodel.Inspector
	entry   *exprEntry
	mosaic  *widget.Check
	errText *widget.Label
	content fyne.CanvasObject
	syncing bool
}

func newExprBar(in *viewmodel.Inspector) *exprBar {
	b := &exprBar{in: in, entry: newExprEntry(), errText: widget.NewLabel("")}
	b.entry.SetPlaceHolder("e.g. w[0:64], w[:, :, 1, 1]")
	b.entry.OnSubmitted = b.apply
	b.mosaic = widget.NewCheck("Mosaic", func(on bool) {
		if b.syncing {
			return
		}
		expr := "w"
		if on {
			expr = viewmodel.MosaicExpr
		}
		b.apply(expr)
	})
	b.errText.Importance = widget.DangerImportance
	b.errText.Wrapping = fyne.TextWrapWord
	b.errText.Hide()
	label := widget.NewLabel("View")
	b.content = container.NewVBox(container.NewBorder(nil, nil, label, nil, b.entry), b.errText)
	return b
}

// apply shows the tensor through expr, or says why it cannot.
func (b *exprBar) apply(expr string) {
	if err := b.in.SetExpr(expr); err != nil {
		b.errText.SetText(err.Error())
		b.errText.Show()
		b.sync(false)
		return
	}
	b.errText.Hide()
}

// sync shows the view in effect (after a new tensor, or a change through
// the settings), and the box only while a tensor's values are shown;
// clearErr drops a message left from the last tensor.
func (b *exprBar) sync(clearErr bool) {
	b.syncing = true
	defer func() { b.syncing = false }()
	if clearErr {
		b.errText.Hide()
		b.entry.SetText(b.in.Expr())
	}
	b.mosaic.SetChecked(b.in.Expr() == viewmodel.MosaicExpr)
	if b.in.CanMosaic() {
		b.mosaic.Show()
	} else {
		b.mosaic.Hide()
	}
	if b.in.Tensor() == nil { // nothing loaded, or nothing to view
		b.content.Hide()
	} else {
		b.content.Show()
	}
}

// exprEntry is the expression's text box. At the end of a toolbar row it
// is never narrower than its examples, which a narrower box would scroll
// and cut.
type exprEntry struct{ widget.Entry }

func newExprEntry() *exprEntry {
	e := &exprEntry{}
	e.ExtendBaseWidget(e)
	return e
}

func (e *exprEntry) MinSize() fyne.Size {
	m := e.Entry.MinSize()
	examples := fyne.MeasureText(e.PlaceHolder, theme.TextSize(), e.TextStyle).Width
	return fyne.NewSize(max(m.Width, examples+2*theme.InnerPadding()+2*theme.Padding()), m.Height)
}
