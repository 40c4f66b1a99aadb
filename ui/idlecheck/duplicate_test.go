package idlecheck_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"

	"tensorscope/ui"
)

// TestHandoverOfOpenFileSelectsItsTab hands over a file that is already
// open, under its own name and through a symlink: its tab is selected and
// no second tab appears.
func TestHandoverOfOpenFileSelectsItsTab(t *testing.T) {
	paths := writeModels(t, 2)
	link := filepath.Join(t.TempDir(), "link.tmfile")
	if err := os.Symlink(paths[0], link); err != nil {
		t.Fatal(err)
	}
	incoming := make(chan []string, 4)
	defer close(incoming)
	var mw *ui.MainWindow
	fyne.DoAndWait(func() {
		mw = ui.NewMainWindow(testApp, ui.Options{AppID: "io.github.tensorscope.idlecheck"})
		mw.Start()
		mw.ServeHandover(incoming)
	})
	defer fyne.DoAndWait(func() { mw.Window().Close() })
	incoming <- paths
	waitForTitle(t, mw, filepath.Base(paths[1]))
	for _, again := range []string{paths[0], link} {
		incoming <- []string{again}
		waitForTitle(t, mw, filepath.Base(paths[0]))
		time.Sleep(200 * time.Millisecond) // a duplicate tab would be added by now
		if n := tabCount(mw); n != 2 {
			t.Errorf("after handing over %s again the window has %d tabs, want 2", again, n)
		}
		incoming <- []string{paths[1]} // select the other tab before the next try
		waitForTitle(t, mw, filepath.Base(paths[1]))
	}
}

// tabCount counts the window's document tabs.
func tabCount(mw *ui.MainWindow) int {
	n := -1
	fyne.DoAndWait(func() {
		walk(mw.Window().Content(), func(o fyne.CanvasObject) {
			if tabs, ok := o.(*container.DocTabs); ok {
				n = len(tabs.Items)
			}
		})
	})
	return n
}

func walk(o fyne.CanvasObject, f func(fyne.CanvasObject)) {
	f(o)
	if c, ok := o.(*fyne.Container); ok {
		for _, child := range c.Objects {
			walk(child, f)
		}
	}
}
