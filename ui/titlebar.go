package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// titleBar is the top of the inspector: the tensor's name, its
// statistics, and the choices that cover every tab (Dequantised, Mosaic,
// Pin settings, Show in graph). In a tall inspector the name and the
// choices make one row and the statistics the next. In a short one they
// all share a row: the choices fold into a "more" menu, so that the
// heatmap keeps the row's height.
type titleBar struct {
	title   *widget.Label
	stats   *statsLine
	choices []fyne.CanvasObject // *widget.Check and *widget.Button, each shown or hidden by its owner
	more    *widget.Button
	content *fyne.Container
	compact bool
}

func newTitleBar(title *widget.Label, stats *statsLine, choices ...fyne.CanvasObject) *titleBar {
	b := &titleBar{title: title, stats: stats, choices: choices, content: container.NewStack()}
	b.more = widget.NewButtonWithIcon("", theme.MoreHorizontalIcon(), b.showMenu)
	b.more.Importance = widget.LowImportance
	b.build()
	return b
}

// setCompact folds the bar into one row, or unfolds it.
func (b *titleBar) setCompact(on bool) {
	if on == b.compact {
		return
	}
	b.compact = on
	b.build()
}

// build makes the rows for the mode; each widget sits in one container at
// a time.
func (b *titleBar) build() {
	if b.compact {
		b.content.Objects = []fyne.CanvasObject{
			container.New(&foldedTitleLayout{title: b.title}, b.title, b.stats.content, b.more)}
	} else {
		b.content.Objects = []fyne.CanvasObject{container.NewVBox(
			container.NewBorder(nil, nil, nil, container.NewHBox(b.choices...), b.title),
			b.stats.content)}
	}
	b.sync()
	b.content.Refresh()
}

// sync shows the menu button while it has something to offer.
func (b *titleBar) sync() {
	if len(b.menuItems()) > 0 {
		b.more.Show()
	} else {
		b.more.Hide()
	}
}

// menuItems are the shown choices as menu items that act as the controls
// do: a check's item toggles it (and so calls its handler).
func (b *titleBar) menuItems() []*fyne.MenuItem {
	var items []*fyne.MenuItem
	for _, o := range b.choices {
		if !o.Visible() {
			continue
		}
		switch c := o.(type) {
		case *widget.Check:
			item := fyne.NewMenuItem(c.Text, func() { c.SetChecked(!c.Checked) })
			item.Checked = c.Checked
			items = append(items, item)
		case *widget.Button:
			items = append(items, fyne.NewMenuItem(c.Text, c.OnTapped))
		}
	}
	return items
}

func (b *titleBar) showMenu() {
	c := fyne.CurrentApp().Driver().CanvasForObject(b.more)
	if c == nil {
		return
	}
	widget.ShowPopUpMenuAtRelativePosition(fyne.NewMenu("", b.menuItems()...), c,
		fyne.NewPos(0, b.more.Size().Height), b.more)
}

// foldedTitleLayout lays out the folded bar: the name at its full width up
// to titleShare of the row (then cut with an ellipsis), the menu button at
// the end, and the statistics between them.
type foldedTitleLayout struct{ title *widget.Label }

const titleShare = 0.4

func (l *foldedTitleLayout) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	title, stats, more := objects[0], objects[1], objects[2]
	pad := theme.Padding()
	var moreW float32
	if more.Visible() {
		moreW = more.MinSize().Width
		more.Move(fyne.NewPos(size.Width-moreW, 0))
		more.Resize(fyne.NewSize(moreW, size.Height))
		moreW += pad
	}
	titleW := min(l.titleWidth(), size.Width*titleShare)
	title.Move(fyne.NewPos(0, 0))
	title.Resize(fyne.NewSize(titleW, size.Height))
	stats.Move(fyne.NewPos(titleW+pad, 0))
	stats.Resize(fyne.NewSize(max(size.Width-titleW-pad-moreW, 0), size.Height))
}

// titleWidth is the width the name takes uncut.
func (l *foldedTitleLayout) titleWidth() float32 {
	if l.title.Text == "" {
		return 0
	}
	text := fyne.MeasureText(l.title.Text, theme.TextSize(), l.title.TextStyle)
	return text.Width + 2*theme.InnerPadding() + theme.Padding() // and a margin for rounding
}

func (l *foldedTitleLayout) MinSize(objects []fyne.CanvasObject) fyne.Size {
	var w, h float32
	for _, o := range objects {
		if o.Visible() {
			m := o.MinSize()
			w += m.Width
			h = max(h, m.Height)
		}
	}
	return fyne.NewSize(w, h)
}
