package ui

import (
	"errors"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"tensorscope/formats"
)

// errNotURL is the Open URL dialog's refusal of anything but a remote
// file's address.
var errNotURL = errors.New("an https://, http:// or hf://ORG/REPO[@REV]/PATH address")

func validateURL(s string) error {
	if !formats.IsRemote(strings.TrimSpace(s)) {
		return errNotURL
	}
	return nil
}

// openURLDialog asks for a remote file's address and opens it in a new
// tab, which shows progress while the header is fetched.
func (mw *MainWindow) openURLDialog() {
	entry := widget.NewEntry()
	entry.SetPlaceHolder("https://…/model.safetensors or hf://ORG/REPO/model.safetensors")
	entry.Validator = validateURL
	d := dialog.NewForm("Open URL", "Open", "Cancel",
		[]*widget.FormItem{widget.NewFormItem("URL", entry)},
		func(ok bool) {
			if ok {
				mw.Open(strings.TrimSpace(entry.Text))
			}
		}, mw.win)
	entry.OnSubmitted = func(string) { d.Submit() }
	d.Resize(fyne.NewSize(640, d.MinSize().Height))
	d.Show()
	mw.win.Canvas().Focus(entry)
}
