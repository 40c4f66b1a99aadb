package ui

import (
	"path/filepath"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"tensorscope/viewmodel"
)

// Run opens the main window with one tab per path and blocks until it closes.
func Run(appID string, paths []string) {
	a := app.NewWithID(appID)
	w := a.NewWindow("Tensorscope")
	ws := &viewmodel.Workspace{}
	tabs := container.NewDocTabs()
	open := func(path string) {
		d, err := ws.Open(path)
		if err != nil {
			dialog.ShowError(err, w)
			return
		}
		tabs.Append(container.NewTabItem(filepath.Base(path), widget.NewLabel(d.FormatName)))
	}
	openButton := widget.NewButton("Open…", func() {
		dialog.ShowFileOpen(func(r fyne.URIReadCloser, err error) {
			if err != nil || r == nil {
				return
			}
			r.Close()
			open(r.URI().Path())
		}, w)
	})
	for _, p := range paths {
		open(p)
	}
	w.SetContent(container.NewBorder(container.NewHBox(openButton), nil, nil, nil, tabs))
	w.Resize(fyne.NewSize(1200, 800))
	w.ShowAndRun()
}
