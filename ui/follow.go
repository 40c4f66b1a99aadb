package ui

import (
	"errors"
	"path/filepath"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	sqdialog "github.com/sqweek/dialog"

	"tensorscope/viewmodel"
)

// Follow follows a training run's folder: the newest model file in dir
// opens in a tab, and the tab moves to each newer file once it is
// completely written, keeping the inspected tensor, its view and the
// graph's place (as a reload does). Closing the tab stops following.
func (mw *MainWindow) Follow(dir string) {
	mw.stopFollowing()
	var tab *docTab
	f, err := viewmodel.FollowFolder(dir, fyne.Do, func(path string) {
		mw.status.SetText("Following " + filepath.Base(dir) + ": " + filepath.Base(path))
		if tab == nil {
			mw.Open(path)
			tab = mw.tabOfFile(path)
			mw.followTab = tab
			return
		}
		if tab.doc == nil {
			return // still opening the previous one; the next checkpoint moves it
		}
		tab.stopWatching()
		tab.path = path
		mw.ws.ReloadFrom(tab.doc, viewmodel.Source{Path: path}, func(err error) {
			if err != nil {
				showError(err, mw.win)
				return
			}
			tab.watchFile()
			tab.rebuild()
			mw.updateTitle()
		})
	})
	if err != nil {
		showError(err, mw.win)
		return
	}
	mw.follower = f
}

// stopFollowing ends following a folder, if one is followed.
func (mw *MainWindow) stopFollowing() {
	if mw.follower != nil {
		mw.follower.Close()
		mw.follower, mw.followTab = nil, nil
	}
}

// followDialog asks for a folder to follow (File ▸ Follow Folder…).
func (mw *MainWindow) followDialog() {
	if dir, ok := nativeFolder("Follow a folder of checkpoints"); ok {
		if dir != "" {
			mw.Follow(dir)
		}
		return
	}
	dialog.ShowFolderOpen(func(u fyne.ListableURI, err error) {
		if err != nil {
			showError(err, mw.win)
			return
		}
		if u != nil {
			mw.Follow(u.Path())
		}
	}, mw.win)
}

// nativeFolder shows the system's folder chooser; ok is false when it
// cannot run (see nativeOpen).
func nativeFolder(title string) (dir string, ok bool) {
	defer func() {
		if recover() != nil {
			dir, ok = "", false
		}
	}()
	d, err := sqdialog.Directory().Title(title).Browse()
	if errors.Is(err, sqdialog.ErrCancelled) {
		return "", true
	}
	if err != nil {
		return "", false
	}
	return d, true
}
