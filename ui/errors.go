package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
)

// showError shows err in a dialog wide enough to read a file name and a
// byte offset on one line (Fyne's default wraps after a few words).
func showError(err error, win fyne.Window) {
	d := dialog.NewError(err, win)
	d.Resize(fyne.NewSize(620, 200))
	d.Show()
}
