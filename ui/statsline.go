package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// statsLine shows a tensor's statistics and percentiles in full, wrapped,
// in a tall inspector, and on one line cut with an ellipsis in a short one,
// so that a small window keeps its height for the heatmap; the details
// button beside them switches between the two, and then the user's choice
// holds. NaN and Inf counts stand before the line in the warning colour,
// so they are never the part that is cut.
type statsLine struct {
	alert   *widget.Label
	line    *widget.Label // summary and percentiles, one line
	summary *widget.Label // in full, shown with details
	pcts    *widget.Label
	details *widget.Button
	full    *fyne.Container
	content fyne.CanvasObject
	// relayout lays out again what holds the line, whose height changes
	// with details shown.
	relayout func()
	chosen   bool // the user chose with the details button
}

// statsDetailsHeight is the inspector's height from which the statistics
// show in full until the user chooses: from there the heatmap keeps well
// over half the inspector with them (a 1280×820 window's inspector is 666
// pixels high, a 1600×1000 one's 846).
const statsDetailsHeight = 720

func newStatsLine(relayout func()) *statsLine {
	s := &statsLine{relayout: relayout, alert: widget.NewLabel(""), line: widget.NewLabel(""),
		summary: widget.NewLabel(""), pcts: widget.NewLabel("")}
	s.alert.Importance = widget.DangerImportance
	s.alert.Hide()
	s.line.Truncation = fyne.TextTruncateEllipsis
	s.line.TextStyle.Monospace = true
	s.summary.Wrapping = fyne.TextWrapWord
	s.summary.TextStyle.Monospace = true
	s.pcts.Wrapping = fyne.TextWrapWord
	s.full = container.NewVBox(s.summary, s.pcts)
	s.full.Hide()
	s.details = widget.NewButtonWithIcon("", theme.MenuDropDownIcon(), s.toggle)
	s.details.Importance = widget.LowImportance
	s.content = container.NewBorder(nil, nil, s.alert, container.NewVBox(s.details),
		container.NewStack(s.line, s.full))
	return s
}

// set shows new statistics: percentiles may be "" while they are
// computed, alert is "" when every value is finite, and all are "" when no
// tensor is shown, which hides the line.
func (s *statsLine) set(summary, percentiles, alert string) {
	if summary == "" && percentiles == "" && alert == "" {
		s.content.Hide()
	} else {
		s.content.Show()
	}
	s.summary.SetText(summary)
	s.pcts.SetText(percentiles)
	s.pcts.Hidden = percentiles == ""
	if percentiles != "" {
		summary += "   " + percentiles
	}
	s.line.SetText(summary)
	s.alert.SetText(alert)
	s.alert.Hidden = alert == ""
	s.alert.Refresh()
	s.full.Refresh()
}

// toggle shows the statistics in full, or on one line again, as the
// user asked.
func (s *statsLine) toggle() {
	s.chosen = true
	s.showFull(!s.full.Visible())
}

// fitHeight shows the statistics as suits an inspector h pixels high,
// unless the user chose.
func (s *statsLine) fitHeight(h float32) {
	if !s.chosen {
		s.showFull(h >= statsDetailsHeight)
	}
}

func (s *statsLine) showFull(on bool) {
	if on == s.full.Visible() {
		return
	}
	if on {
		s.line.Hide()
		s.full.Show()
		s.details.SetIcon(theme.MenuDropUpIcon())
	} else {
		s.full.Hide()
		s.line.Show()
		s.details.SetIcon(theme.MenuDropDownIcon())
	}
	s.relayout()
}

// heightLayout fills its space with its one object and reports its height
// when it changes, after the layout (what it does may lay it out again).
type heightLayout struct {
	height   float32
	onHeight func(float32)
}

func (l *heightLayout) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	objects[0].Move(fyne.NewPos(0, 0))
	objects[0].Resize(size)
	if size.Height != l.height {
		l.height = size.Height
		fyne.Do(func() { l.onHeight(size.Height) })
	}
}

func (l *heightLayout) MinSize(objects []fyne.CanvasObject) fyne.Size {
	return objects[0].MinSize()
}
