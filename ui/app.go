package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"
)

// Options configure the viewer.
type Options struct {
	AppID    string
	Version  string
	Icon     []byte   // PNG
	Paths    []string // files to open, one tab each
	DemoName string   // opened when Paths is empty
	Demo     []byte
}

// Run opens the main window and blocks until the application quits.
func Run(opts Options) {
	a := app.NewWithID(opts.AppID)
	if len(opts.Icon) > 0 {
		a.SetIcon(fyne.NewStaticResource("tensorscope.png", opts.Icon))
	}
	mw := NewMainWindow(a, opts)
	mw.Start()
	a.Run()
}
