package ui

import (
	"errors"
	"fmt"
	"image"
	"path/filepath"
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"tensorscope/viewmodel"
	"tensorscope/viewmodel/compare"
)

// Follow follows a training run's folder: the newest model file in dir
// opens in a tab, and the tab moves to each newer file once it is
// completely written, keeping the inspected tensor, its view and the
// graph's place (as a reload does). Closing the tab stops following.
func (mw *MainWindow) Follow(dir string) {
	mw.stopFollowing()
	var tab *docTab
	strip := newFollowStrip(mw, dir)
	f, err := viewmodel.FollowFolder(dir, fyne.Do, func(path string) {
		mw.status.SetText("Following " + filepath.Base(dir) + ": " + filepath.Base(path))
		if tab == nil {
			mw.Open(path)
			tab = mw.tabOfFile(path)
			tab.follow = strip
			mw.followTab = tab
			strip.arrived(tab, path)
			return
		}
		if tab.doc == nil {
			return // still opening the previous one; the next checkpoint moves it
		}
		strip.measure(tab) // the checkpoint being left, if not yet measured
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
			strip.arrived(tab, path)
			strip.measure(tab)
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

// followStrip is the bar above a followed folder's tab: which checkpoint
// is shown and how many have come, Δ previous (the inspected tensor's
// change from the previous checkpoint, as a comparison's A−B heatmap) and
// History (a figure of that tensor across the checkpoints seen).
type followStrip struct {
	mw       *MainWindow
	dir      string
	label    *widget.Label
	delta    *widget.Button
	box      *fyne.Container
	paths    []string // checkpoints shown, oldest first
	measured map[string]bool
	history  viewmodel.FollowHistory
	deltaTab *compareTab
}

func newFollowStrip(mw *MainWindow, dir string) *followStrip {
	s := &followStrip{mw: mw, dir: dir, label: widget.NewLabel(""), measured: map[string]bool{}}
	s.delta = widget.NewButton("Δ previous", s.showDelta)
	s.delta.Disable()
	history := widget.NewButton("History…", s.showHistory)
	s.box = container.NewBorder(nil, widget.NewSeparator(), nil, container.NewHBox(s.delta, history), s.label)
	return s
}

// arrived records that the tab now shows path.
func (s *followStrip) arrived(tab *docTab, path string) {
	if len(s.paths) == 0 || s.paths[len(s.paths)-1] != path {
		s.paths = append(s.paths, path)
	}
	s.label.SetText(fmt.Sprintf("Following %s: %s (%d checkpoints seen)", s.dir, filepath.Base(path), len(s.paths)))
	if len(s.paths) > 1 {
		s.delta.Enable()
	}
}

// measure records the inspected tensor's figures in the checkpoint tab
// shows, once per checkpoint.
func (s *followStrip) measure(tab *docTab) {
	if tab.doc == nil || s.measured[tab.path] {
		return
	}
	if s.history.Measure(fyne.Do, tab.doc, nil) != nil {
		s.measured[tab.path] = true
	}
}

// showDelta opens (or replaces) a comparison tab of the previous
// checkpoint against the current one, for the inspected tensor.
func (s *followStrip) showDelta() {
	tab := s.mw.followTab
	if tab == nil || tab.doc == nil || len(s.paths) < 2 {
		return
	}
	e := tab.doc.Inspector.Entry()
	if e == nil {
		showError(errors.New("Inspect a tensor first: Δ previous shows its change from the previous checkpoint."), s.mw.win)
		return
	}
	if s.deltaTab != nil && slices.Contains(s.mw.compares, s.deltaTab) {
		s.mw.closeCompare(s.deltaTab)
	}
	prev, cur := s.paths[len(s.paths)-2], s.paths[len(s.paths)-1]
	c := compare.NewPairComparison(fyne.Do, viewmodel.Source{Path: prev}, viewmodel.Source{Path: cur}, compare.DefaultTolerance, e.Name)
	s.deltaTab = newCompareTab(s.mw, c)
	shown, selected := c.OnChange, false
	c.OnChange = func(ch compare.Change) { // show the pair's A−B as soon as it is there
		shown(ch)
		if !selected && c.Ready() {
			selected = true
			c.SelectName(e.Name)
		}
	}
	s.mw.compares = append(s.mw.compares, s.deltaTab)
	s.mw.tabs.Append(s.deltaTab.item)
	s.mw.tabs.Select(s.deltaTab.item)
	s.mw.showTabs()
}

// showHistory shows a figure of the inspected tensor across the
// checkpoints measured so far.
func (s *followStrip) showHistory() {
	tab := s.mw.followTab
	if tab == nil || tab.doc == nil || tab.doc.Inspector.Entry() == nil {
		showError(errors.New("Inspect a tensor first: History plots its figures across checkpoints."), s.mw.win)
		return
	}
	s.measure(tab)
	name := tab.doc.Inspector.Entry().Name
	figure := viewmodel.HistoryFigures[0]
	plot := newPlotRaster(func(w, h int) image.Image {
		img, err := s.history.Plot(name, figure, w, h, plotStyle())
		if err != nil {
			return nil
		}
		return img
	}, themeSize(480, 260))
	choice := widget.NewSelect(viewmodel.HistoryFigures, func(f string) {
		figure = f
		plot.update()
	})
	choice.SetSelected(figure)
	dialog.ShowCustom("History of "+name, "Close", container.NewBorder(choice, nil, nil, nil, plot.raster), s.mw.win)
}
