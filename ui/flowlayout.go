package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// flowLayout places its objects left to right at their minimum sizes and
// starts a new row when the next one would pass the right edge: a toolbar
// that wraps in a narrow window instead of being cut off. Its minimum
// width is its widest object; its minimum height is that of the rows it
// needed at the width it was last laid out at (one row before that), and
// when a new width changes the row count it asks for a relayout.
type flowLayout struct {
	width       float32 // the width of the last layout, 0 before one
	rows        int
	box         *fyne.Container
	stretchLast bool // the last object takes the rest of its row
}

// newFlow returns a container of objects in a flowLayout.
func newFlow(objects ...fyne.CanvasObject) *fyne.Container {
	l := &flowLayout{}
	l.box = fyne.NewContainerWithLayout(l, objects...)
	return l.box
}

// newFlowStretchingLast is a flow whose last object, a text box, say,
// takes whatever width is left at the end of its row.
func newFlowStretchingLast(objects ...fyne.CanvasObject) *fyne.Container {
	l := &flowLayout{stretchLast: true}
	l.box = fyne.NewContainerWithLayout(l, objects...)
	return l.box
}

func (l *flowLayout) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	rows, _ := flowRows(objects, size.Width, true)
	if l.stretchLast && len(objects) > 0 {
		// Sized at their minimum by flowRows, the last object now
		// takes the rest of its row.
		last := objects[len(objects)-1]
		if last.Visible() {
			last.Resize(fyne.NewSize(size.Width-last.Position().X, last.Size().Height))
		}
	}
	if size.Width <= 0 || l.box == nil || fyne.CurrentApp().Driver().CanvasForObject(l.box) == nil {
		// Not in a window yet: a new container lays itself out at its
		// minimum width, which is not the width it will have.
		return
	}
	changed := rows != l.rows
	l.width, l.rows = size.Width, rows
	if changed && l.box != nil {
		// The height this width needs differs from the one reported: let
		// the parent lay the toolbar out again (once: the row count is
		// now recorded).
		box := l.box
		fyne.Do(box.Refresh)
	}
}

func (l *flowLayout) MinSize(objects []fyne.CanvasObject) fyne.Size {
	var w float32
	for _, o := range objects {
		if o.Visible() {
			w = max(w, o.MinSize().Width)
		}
	}
	width := l.width
	if width == 0 {
		width = 1 << 20 // not laid out yet: one row
	}
	_, h := flowRows(objects, width, false)
	return fyne.NewSize(w, h)
}

// flowRows lays the visible objects out in rows no wider than width
// (moving them only when move is set) and returns the number of rows and
// their height.
func flowRows(objects []fyne.CanvasObject, width float32, move bool) (rows int, height float32) {
	pad := theme.Padding()
	var x, y, rowH float32
	for _, o := range objects {
		if !o.Visible() {
			continue
		}
		m := o.MinSize()
		if x > 0 && x+m.Width > width {
			x, y, rowH = 0, y+rowH+pad, 0
		}
		if x == 0 {
			rows++
		}
		if move {
			o.Move(fyne.NewPos(x, y))
			o.Resize(m)
		}
		x += m.Width + pad
		rowH = max(rowH, m.Height)
	}
	return rows, y + rowH
}
