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
	Follow   string   // a folder whose newest model file is shown, and followed (see MainWindow.Follow)
	DemoName string   // opened when Paths is empty
	Demo     []byte
	// Incoming carries files that later launches of the app hand over
	// (single instance); each batch opens as new tabs. Run serves it;
	// NewMainWindow alone does not (see ServeHandover).
	Incoming <-chan []string

	// prefsPath, when set, is the file of the viewer's lists (filePrefs);
	// Run sets it. Otherwise they live in the app's preferences.
	prefsPath string
}

// Run opens the main window and blocks until the application quits.
func Run(opts Options) {
	a := app.NewWithID(opts.AppID)
	if len(opts.Icon) > 0 {
		a.SetIcon(fyne.NewStaticResource("tensorscope.png", opts.Icon))
	}
	applyTheme(a, savedTheme(a)) // View ▸ Theme; not for headless windows, which choose their own
	opts.prefsPath = recentPrefsPath(opts.AppID)
	mw := NewMainWindow(a, opts)
	mw.Start()
	fitToScreen(mw.win)
	// Files handed over by later launches open once the app runs: before
	// that, fyne.Do would reach a window whose GLFW is not initialised (a
	// second launch racing the first panicked so).
	a.Lifecycle().SetOnStarted(func() { mw.ServeHandover(opts.Incoming) })
	a.Run()
}

// ServeHandover opens, as tabs of this window, the files that later
// launches hand over (single instance), until incoming is closed. It returns
// at once; a nil channel serves nothing.
func (mw *MainWindow) ServeHandover(incoming <-chan []string) {
	if incoming == nil {
		return
	}
	go func() {
		for paths := range incoming {
			fyne.Do(func() {
				for _, p := range paths {
					mw.Open(p)
				}
				mw.win.RequestFocus()
			})
		}
	}()
}
