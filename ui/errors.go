package ui

import (
	"fmt"
	"strings"
	"sync"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// errorDialog is the one error dialog of a window: errors that arrive while
// it is open are added to it (newest first) instead of stacking dialogs the
// user must close one by one.
type errorDialog struct {
	dlg      dialog.Dialog
	count    *widget.Label // "3 errors, newest first"; hidden for one
	text     *widget.Label
	messages []string
}

var (
	errorDialogsMu sync.Mutex // guards errorDialogs (test windows come and go)
	errorDialogs   = map[fyne.Window]*errorDialog{}
)

// showError shows err in the window's error dialog, wide enough to read a
// file name and a byte offset on one line (Fyne's default wraps after a few
// words).
func showError(err error, win fyne.Window) {
	errorDialogsMu.Lock()
	ed := errorDialogs[win]
	if ed == nil {
		ed = &errorDialog{}
		errorDialogs[win] = ed
	}
	errorDialogsMu.Unlock()
	ed.add(err.Error(), win)
}

func (ed *errorDialog) add(msg string, win fyne.Window) {
	ed.messages = append([]string{msg}, ed.messages...)
	if ed.dlg != nil {
		ed.text.SetText(strings.Join(ed.messages, "\n\n"))
		ed.count.SetText(fmt.Sprintf("%d errors, the newest first:", len(ed.messages)))
		ed.count.Show()
		return
	}
	ed.count = widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	ed.count.Hide()
	ed.text = widget.NewLabel(msg)
	ed.text.Wrapping = fyne.TextWrapWord
	icon := widget.NewIcon(theme.NewErrorThemedResource(theme.ErrorIcon()))
	scroll := container.NewVScroll(ed.text)
	scroll.SetMinSize(themeSize(560, 90))
	body := container.NewBorder(ed.count, nil, container.NewVBox(icon), nil, scroll)
	d := dialog.NewCustom("Error", "OK", body, win)
	d.SetOnClosed(func() {
		errorDialogsMu.Lock()
		delete(errorDialogs, win)
		errorDialogsMu.Unlock()
	})
	ed.dlg = d
	d.Resize(themeSize(640, 220))
	d.Show()
}

// closeTopDialog closes the dialog on top of win (Escape): the error
// dialog when it is open, else whatever pop-up is on top.
func closeTopDialog(win fyne.Window) {
	errorDialogsMu.Lock()
	ed := errorDialogs[win]
	errorDialogsMu.Unlock()
	if ed != nil && ed.dlg != nil {
		ed.dlg.Hide()
		return
	}
	if top := win.Canvas().Overlays().Top(); top != nil {
		top.Hide()
	}
}

// showExported reports how an export to path ended: the error, or that
// the file was saved, with the export's note (what it holds, what it left
// out).
func showExported(win fyne.Window, title, path, note string, err error) {
	if err != nil {
		showError(err, win)
		return
	}
	msg := "Saved " + path
	if note != "" {
		msg += "\n" + note
	}
	dialog.ShowInformation(title, msg, win)
}
