package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"tensorscope/viewmodel"
)

// changedStrip is the bar above a tab's panes that says its file changed
// on disk, with Reload. It is hidden until the tab's FileWatcher reports a
// change, and hidden again by a reload.
type changedStrip struct {
	label *widget.Label
	box   *fyne.Container
}

func newChangedStrip(reload func()) *changedStrip {
	s := &changedStrip{label: widget.NewLabel("")}
	s.label.Wrapping = fyne.TextWrapWord
	s.label.Importance = widget.WarningImportance
	button := widget.NewButtonWithIcon("Reload", theme.ViewRefreshIcon(), reload)
	button.Importance = widget.HighImportance
	icon := widget.NewIcon(theme.NewWarningThemedResource(theme.WarningIcon()))
	s.box = container.NewBorder(nil, widget.NewSeparator(), container.NewVBox(icon), container.NewVBox(button), s.label)
	s.box.Hide()
	return s
}

// show says how the file changed and shows the strip.
func (s *changedStrip) show(c viewmodel.FileChange) {
	s.label.SetText(c.String() + " — Reload to see it")
	s.box.Show()
}

func (s *changedStrip) hide() { s.box.Hide() }
