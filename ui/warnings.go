package ui

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"tensorscope/viewmodel"
)

// stripWarnings is how many warnings the strip lists itself; more are a
// click away.
const stripWarnings = 3

// warningsStrip shows the document's warnings in a bar above the panes:
// the first few in full, a button for all of them when there are more, and
// a close button that dismisses the bar and calls relayout, which lays out
// again what holds it (so that the panes take its place). nil when there
// are none.
func warningsStrip(win fyne.Window, d *viewmodel.Doc, relayout func()) fyne.CanvasObject {
	ws := d.Warnings()
	if len(ws) == 0 {
		return nil
	}
	lines := container.NewVBox()
	for _, w := range ws[:min(len(ws), stripWarnings)] {
		l := widget.NewLabel(w)
		l.Wrapping = fyne.TextWrapWord
		l.Importance = widget.WarningImportance
		lines.Add(l)
	}
	buttons := container.NewHBox()
	if len(ws) > stripWarnings {
		title := fmt.Sprintf("%d warnings in %s", len(ws), d.Title())
		buttons.Add(widget.NewButton(fmt.Sprintf("Show all %d", len(ws)), func() {
			text := widget.NewLabel(strings.Join(ws, "\n"))
			text.Wrapping = fyne.TextWrapWord
			scroll := container.NewVScroll(text)
			scroll.SetMinSize(themeSize(700, 300))
			dialog.ShowCustom(title, "Close", scroll, win)
		}))
	}
	var strip *fyne.Container
	dismiss := widget.NewButtonWithIcon("", theme.WindowCloseIcon(), func() {
		strip.Hide()
		relayout()
	})
	dismiss.Importance = widget.LowImportance
	buttons.Add(dismiss)
	icon := widget.NewIcon(theme.NewWarningThemedResource(theme.WarningIcon()))
	strip = container.NewBorder(nil, widget.NewSeparator(), container.NewVBox(icon), container.NewVBox(buttons), lines)
	return strip
}
