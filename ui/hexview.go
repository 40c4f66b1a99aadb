package ui

import (
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"tensorscope/viewmodel"
	"tensorscope/viewmodel/textfmt"
)

// hexView draws the rows of a HeaderView that fit its height and scrolls
// through the whole file: the wheel, Up/Down, PgUp/PgDn, Home/End, and the
// scroll bar beside it. Only visible rows are formatted.
type hexView struct {
	widget.BaseWidget
	hv   *viewmodel.HeaderView
	grid *widget.TextGrid
	// onByteTapped receives the file offset of a tapped byte.
	onByteTapped func(off int64)
	// onScrolled is called after the view moved (to update the scroll bar).
	onScrolled func()
	// global passes on the window's keys (F5, Escape).
	global globalKeyHandler
}

func newHexView(hv *viewmodel.HeaderView, global globalKeyHandler) *hexView {
	v := &hexView{hv: hv, grid: widget.NewTextGrid(), global: global}
	v.ExtendBaseWidget(v)
	v.paint()
	return v
}

// CreateRenderer implements fyne.Widget.
func (v *hexView) CreateRenderer() fyne.WidgetRenderer {
	return &hexRenderer{v: v}
}

// MinSize: one line of dump, as wide as a line.
func (v *hexView) MinSize() fyne.Size {
	c := v.cellSize()
	return fyne.NewSize(c.Width*viewmodel.HexLineWidth, c.Height)
}

func (v *hexView) cellSize() fyne.Size {
	th := v.Theme()
	return fyne.MeasureText("M", th.Size(theme.SizeNameText), fyne.TextStyle{Monospace: true})
}

// paint formats the visible rows and highlights the selected field's bytes
// and the mark.
func (v *hexView) paint() {
	v.grid.SetText(joinLines(v.hv.Lines()))
	style := func(ranges []viewmodel.CellRange, fg, bg fyne.ThemeColorName) {
		for _, r := range ranges {
			v.grid.SetStyleRange(r.Row, r.FirstCol, r.Row, r.LastCol, &widget.CustomTextGridStyle{
				FGColor: theme.Color(fg), BGColor: theme.Color(bg)})
		}
	}
	style(v.hv.MarkHighlight(), theme.ColorNameForegroundOnError, theme.ColorNameError)
	style(v.hv.SelectedHighlight(), theme.ColorNameForegroundOnPrimary, theme.ColorNamePrimary)
	v.grid.Refresh() // cell style changes alone do not reach rows already drawn
}

// moved repaints after the view scrolled.
func (v *hexView) moved(changed bool) {
	if !changed {
		return
	}
	v.paint()
	if v.onScrolled != nil {
		v.onScrolled()
	}
}

// Scrolled implements fyne.Scrollable: three rows a wheel step.
func (v *hexView) Scrolled(ev *fyne.ScrollEvent) {
	rows := int64(-ev.Scrolled.DY / v.cellSize().Height)
	if rows == 0 && ev.Scrolled.DY != 0 {
		rows = 1
		if ev.Scrolled.DY > 0 {
			rows = -1
		}
	}
	v.moved(v.hv.ScrollRows(rows))
}

// Tapped implements fyne.Tappable: it selects the byte's field and takes
// the focus for the keys.
func (v *hexView) Tapped(ev *fyne.PointEvent) {
	if c := fyne.CurrentApp().Driver().CanvasForObject(v); c != nil {
		c.Focus(v)
	}
	row, col := v.grid.CursorLocationForPosition(ev.Position)
	if off := v.hv.ByteAt(row, col); off >= 0 && v.onByteTapped != nil {
		v.onByteTapped(off)
	}
}

// FocusGained implements fyne.Focusable.
func (v *hexView) FocusGained() {}

// FocusLost implements fyne.Focusable.
func (v *hexView) FocusLost() {}

// TypedRune implements fyne.Focusable.
func (v *hexView) TypedRune(rune) {}

// TypedKey implements fyne.Focusable.
func (v *hexView) TypedKey(ev *fyne.KeyEvent) {
	switch ev.Name {
	case fyne.KeyPageDown:
		v.moved(v.hv.PageDown())
	case fyne.KeyPageUp:
		v.moved(v.hv.PageUp())
	case fyne.KeyDown:
		v.moved(v.hv.ScrollRows(1))
	case fyne.KeyUp:
		v.moved(v.hv.ScrollRows(-1))
	case fyne.KeyHome:
		v.moved(v.hv.SetTop(0))
	case fyne.KeyEnd:
		v.moved(v.hv.SetTop(v.hv.TotalRows()))
	default:
		if v.global != nil {
			v.global(ev)
		}
	}
}

type hexRenderer struct{ v *hexView }

func (r *hexRenderer) Layout(size fyne.Size) {
	r.v.grid.Resize(size)
	rows := int(size.Height / r.v.cellSize().Height)
	if rows != r.v.hv.VisibleRows() && rows > 0 {
		r.v.hv.SetVisibleRows(rows)
		r.v.paint()
		if r.v.onScrolled != nil {
			r.v.onScrolled()
		}
	}
}

func (r *hexRenderer) MinSize() fyne.Size           { return r.v.MinSize() }
func (r *hexRenderer) Refresh()                     { r.v.grid.Refresh() }
func (r *hexRenderer) Objects() []fyne.CanvasObject { return []fyne.CanvasObject{r.v.grid} }
func (r *hexRenderer) Destroy()                     {}

// newHexPane is the hex view with its scroll bar, and a "Go to offset" box
// above it showing which bytes are in view.
func newHexPane(win fyne.Window, v *hexView) fyne.CanvasObject {
	hv := v.hv
	bar := widget.NewSlider(0, 1)
	bar.Orientation = widget.Vertical
	where := widget.NewLabel("")
	syncing := false
	sync := func() {
		last := max(hv.TotalRows()-int64(hv.VisibleRows()), 0)
		syncing = true
		bar.Max = float64(max(last, 1))
		bar.SetValue(float64(last - hv.Top())) // a vertical slider grows upwards
		syncing = false
		start, end := hv.Window()
		where.SetText(fmt.Sprintf("bytes %s–%s of %s", textfmt.Count(start), textfmt.Count(max(end-1, 0)),
			textfmt.Count(hv.Size())))
	}
	bar.OnChanged = func(val float64) {
		if syncing {
			return
		}
		last := max(hv.TotalRows()-int64(hv.VisibleRows()), 0)
		v.moved(hv.SetTop(last - int64(val+0.5)))
	}
	v.onScrolled = sync
	offset := newKeyEntry(windowKeys(win))
	offset.SetPlaceHolder("Go to offset (decimal or 0x…)")
	problem := widget.NewLabel("")
	problem.Importance = widget.DangerImportance
	problem.Hide()
	goTo := func(string) {
		off, err := viewmodel.ParseOffset(offset.Text)
		if err == nil {
			err = hv.GoTo(off)
		}
		if err != nil {
			problem.SetText(err.Error())
			problem.Show()
			return
		}
		problem.Hide()
		v.paint()
		sync()
	}
	offset.OnSubmitted = goTo
	goButton := widget.NewButton("Go", func() { goTo(offset.Text) })
	sync()
	top := container.NewVBox(
		container.NewBorder(nil, nil, nil, container.NewHBox(goButton, where), offset),
		problem)
	return container.NewBorder(top, nil, nil, bar, v)
}
