package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// statsLine shows a tensor's statistics and percentiles on one line, cut
// with an ellipsis where the inspector is too narrow, so that a small
// window keeps its height for the heatmap; the details button beside it
// shows them in full, wrapped. NaN and Inf counts stand before the line
// in the warning colour, so they are never the part that is cut.
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
}

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

// toggle shows the statistics in full, or on one line again.
func (s *statsLine) toggle() {
	if s.full.Visible() {
		s.full.Hide()
		s.line.Show()
		s.details.SetIcon(theme.MenuDropDownIcon())
	} else {
		s.line.Hide()
		s.full.Show()
		s.details.SetIcon(theme.MenuDropUpIcon())
	}
	s.relayout()
}
