package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"tensorscope/viewmodel"
)

// setFailed turns an opening tab into the tab of a file that could not be
// decoded: the error, and the file's bytes at the failure.
func (dt *docTab) setFailed(f *viewmodel.FailedFile) {
	dt.stopOpening()
	dt.failed = f
	dt.item.Icon = theme.NewErrorThemedResource(theme.ErrorIcon())
	dt.item.Content = newFailedContent(dt.mw.win, f, func() { dt.mw.retry(dt) })
	dt.mw.tabs.Refresh()
}

// newFailedContent shows the error (with its byte offset) above the hex
// view, which is scrolled to the failing byte and marks it.
func newFailedContent(win fyne.Window, f *viewmodel.FailedFile, retry func()) fyne.CanvasObject {
	icon := widget.NewIcon(theme.NewErrorThemedResource(theme.ErrorIcon()))
	msg := widget.NewLabel(f.Err.Error())
	msg.Wrapping = fyne.TextWrapWord
	msg.Importance = widget.DangerImportance
	hint := "The file's bytes are below"
	if len(f.Hex.Fields) > 0 {
		hint = "The header fields read before the failure, and the file's bytes, are below"
	}
	if f.Offset >= 0 {
		hint += ", scrolled to the byte where reading failed (marked)"
	}
	hint += ". Reload (F5) reads the file again."
	hintLabel := widget.NewLabel(hint)
	hintLabel.Wrapping = fyne.TextWrapWord
	again := widget.NewButtonWithIcon("Reload", theme.ViewRefreshIcon(), retry)
	head := container.NewBorder(nil, nil, container.NewVBox(icon), container.NewVBox(again),
		container.NewVBox(msg, hintLabel))
	var body fyne.CanvasObject
	if len(f.Hex.Fields) > 0 {
		body = newFieldsAndBytes(win, f.Hex)
	} else {
		body = newHexPane(win, newHexView(f.Hex, windowKeys(win)))
	}
	return container.NewBorder(container.NewVBox(head, widget.NewSeparator()), nil, nil, nil, body)
}

// retry reads a failed tab's file again, in the same tab.
func (mw *MainWindow) retry(dt *docTab) {
	if dt.failed == nil {
		return
	}
	dt.failed.Close()
	dt.failed = nil
	dt.item.Icon = nil
	dt.item.Content, dt.opening = pendingContent(dt.item.Text)
	mw.tabs.Refresh()
	mw.opening++
	mw.setStatus("Opening " + dt.item.Text + "…")
	mw.ws.Open(dt.path, func(d *viewmodel.Doc, err error) { mw.finishOpen(dt, d, err) })
}

// failedFile is the failed-file view of path, or nil for in-memory
// documents and files that cannot be read at all (those get a dialog).
func failedFile(path string, err error) *viewmodel.FailedFile {
	if path == "" {
		return nil
	}
	return viewmodel.NewFailedFile(path, err)
}
