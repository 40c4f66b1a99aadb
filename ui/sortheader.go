package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// sortedTitle is a table column's header: its title, with ▼ (descending)
// or ▲ when the table is sorted by it. sortArrowWidest is the widest
// header text, for sizing a column.
func sortedTitle(title string, sorted, desc bool) string {
	switch {
	case !sorted:
		return title
	case desc:
		return title + " ▼"
	}
	return title + " ▲"
}

func sortArrowWidest(title string) string { return title + " ▼" }

// newSortHeader is the header cell of a sortable table: a flat button,
// its text aligned with the column's, that sorts by its column when
// tapped (UpdateHeader sets its text and action).
func newSortHeader() fyne.CanvasObject {
	b := widget.NewButton("", nil)
	b.Alignment = widget.ButtonAlignLeading
	b.Importance = widget.LowImportance
	return b
}

// compactCell makes the cells of a sortable table that turns compact when
// narrow: a label cut with an ellipsis, two lines tall while *compact (the
// name's line, and the dtype and shape under it).
func compactCell(compact *bool) func() fyne.CanvasObject {
	return func() fyne.CanvasObject {
		l := widget.NewLabel("")
		l.Truncation = fyne.TextTruncateEllipsis
		if *compact {
			l.SetText("\n") // the template is two lines tall
		}
		return l
	}
}
