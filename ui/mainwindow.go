package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/widget"

	"tensorscope/formats"
	"tensorscope/viewmodel"
)

// MainWindow is the application window: one closable tab per document.
type MainWindow struct {
	app  fyne.App
	win  fyne.Window
	opts Options
	ws   *viewmodel.Workspace

	tabs     *container.DocTabs
	docTabs  []*docTab
	compares []*compareTab // comparison tabs (compare_menu.go)
	// follower follows a folder of checkpoints in followTab (follow.go).
	follower  *viewmodel.Follower
	followTab *docTab
	shift     shiftHeld
	empty     fyne.CanvasObject
	body      *fyne.Container
	status    *widget.Label
	statusSeq int // counts status changes, so a flash clears only its own text
	// post runs work's results on the UI goroutine (fyne.Do; tests use a
	// queue they drain) for comparisons and the status line's timer.
	post viewmodel.Poster
	// lastSaveDir is the folder of the last file saved, where the next
	// save dialog starts.
	lastSaveDir string
	opening     int
}

// NewMainWindow builds the window; Start shows it and opens the files.
func NewMainWindow(a fyne.App, opts Options) *MainWindow {
	mw := &MainWindow{app: a, opts: opts, post: fyne.Do}
	mw.win = a.NewWindow("Tensorscope")
	var prefs viewmodel.Prefs = a.Preferences()
	if opts.prefsPath != "" {
		prefs = newFilePrefs(opts.prefsPath, prefs)
	}
	mw.ws = viewmodel.NewWorkspace(fyne.Do, prefs)
	mw.tabs = container.NewDocTabs()
	mw.tabs.CloseIntercept = func(item *container.TabItem) {
		if t := mw.compareOf(item); t != nil {
			mw.closeCompare(t)
			return
		}
		mw.closeTab(mw.tabOf(item))
	}
	mw.tabs.OnSelected = func(*container.TabItem) {
		mw.updateTitle()
		mw.win.SetMainMenu(mw.mainMenu()) // Export Graph… only for a tab with a graph
	}
	mw.status = widget.NewLabel("")
	mw.status.Hide() // shown only while it has something to say: no empty band
	mw.empty = mw.welcome()
	mw.body = container.NewStack(mw.empty)
	mw.win.SetContent(container.NewBorder(nil, mw.status, nil, nil, mw.body))
	mw.win.SetMainMenu(mw.mainMenu())
	mw.addShortcuts()
	mw.win.SetOnDropped(func(_ fyne.Position, uris []fyne.URI) { mw.dropped(uris) })
	mw.trackShift()
	mw.win.SetCloseIntercept(mw.quit)
	// However the window closes, nothing may watch files for it afterwards:
	// a change reported once the app has stopped would touch its widgets
	// off the UI goroutine.
	mw.win.SetOnClosed(mw.stopWatching)
	mw.win.Resize(fyne.NewSize(1280, 820))
	return mw
}

// quit releases every document and comparison and closes the window,
// which ends the app.
func (mw *MainWindow) quit() {
	for _, t := range mw.compares {
		t.close()
	}
	mw.stopWatching()
	mw.ws.CloseAll()
	mw.win.Close()
}

// Window is the Fyne window (tests and headless rendering).
func (mw *MainWindow) Window() fyne.Window { return mw.win }

// Start shows the window and opens the initial files, or the demo model.
func (mw *MainWindow) Start() {
	mw.win.Show()
	if mw.opts.Follow != "" {
		mw.Follow(mw.opts.Follow)
	}
	if len(mw.opts.Paths) == 0 && mw.opts.Follow == "" && len(mw.opts.Demo) > 0 {
		mw.OpenBytes(mw.opts.DemoName, mw.opts.Demo)
	}
	for _, p := range mw.opts.Paths {
		mw.Open(p)
	}
}

// Open opens path in a new tab; errors are shown in a dialog naming the
// file. The tab appears at once (showing progress), so tabs keep the order
// files were opened in however long each takes to decode. A file already
// open (or opening) in a tab selects that tab instead.
func (mw *MainWindow) Open(path string) {
	if dt := mw.tabOfFile(path); dt != nil {
		mw.tabs.Select(dt.item)
		mw.updateTitle()
		return
	}
	dt := mw.beginOpen(filepath.Base(path))
	dt.path = path
	mw.ws.Open(path, func(d *viewmodel.Doc, err error) { mw.finishOpen(dt, d, err) })
}

// tabOfFile is the tab showing the file at path, opened or still opening,
// or nil.
func (mw *MainWindow) tabOfFile(path string) *docTab {
	if d := mw.ws.DocAt(path); d != nil {
		for _, dt := range mw.docTabs {
			if dt.doc == d {
				return dt
			}
		}
	}
	for _, dt := range mw.docTabs {
		if dt.doc == nil && dt.path != "" && viewmodel.SameFile(dt.path, path) {
			return dt
		}
	}
	return nil
}

// OpenBytes opens an in-memory file in a new tab.
func (mw *MainWindow) OpenBytes(name string, data []byte) {
	dt := mw.beginOpen(name)
	mw.ws.OpenBytes(name, data, func(d *viewmodel.Doc, err error) { mw.finishOpen(dt, d, err) })
}

func (mw *MainWindow) beginOpen(name string) *docTab {
	mw.opening++
	mw.setStatus("Opening " + name + "…")
	dt := newPendingTab(mw, name)
	mw.docTabs = append(mw.docTabs, dt)
	mw.tabs.Append(dt.item)
	mw.tabs.Select(dt.item)
	mw.showTabs()
	return dt
}

func (mw *MainWindow) finishOpen(dt *docTab, d *viewmodel.Doc, err error) {
	mw.opening--
	if mw.opening == 0 {
		mw.setStatus("")
	}
	if dt.cancelled {
		if d != nil {
			mw.ws.Close(d) // the tab was closed while the file was opening
		}
		return
	}
	if err != nil {
		if f := failedFile(dt.path, err); f != nil {
			dt.setFailed(f)
			mw.updateTitle()
			return
		}
		mw.removeTab(dt)
		showError(err, mw.win)
		return
	}
	dt.setDoc(d)
	mw.finishOpenMenu()
	mw.updateTitle()
}

// finishOpenMenu refreshes the menus after a file opened: Open Recent, and
// Export Graph… for the tab now shown.
func (mw *MainWindow) finishOpenMenu() { mw.win.SetMainMenu(mw.mainMenu()) }

func (mw *MainWindow) showTabs() {
	if len(mw.docTabs)+len(mw.compares) == 0 {
		mw.body.Objects = []fyne.CanvasObject{mw.empty}
	} else {
		mw.body.Objects = []fyne.CanvasObject{mw.tabs}
	}
	mw.body.Refresh()
}

func (mw *MainWindow) tabOf(item *container.TabItem) *docTab {
	for _, dt := range mw.docTabs {
		if dt.item == item {
			return dt
		}
	}
	return nil
}

// current is the selected document tab, or nil.
func (mw *MainWindow) current() *docTab {
	if len(mw.docTabs) == 0 {
		return nil
	}
	return mw.tabOf(mw.tabs.Selected())
}

func (mw *MainWindow) closeTab(dt *docTab) {
	if dt == nil {
		return
	}
	dt.close()
	dt.stopWatching()
	if dt == mw.followTab {
		mw.stopFollowing()
	}
	if dt.doc != nil {
		mw.ws.Close(dt.doc)
	} else {
		dt.cancelled = true
	}
	mw.removeTab(dt)
}

func (mw *MainWindow) removeTab(dt *docTab) {
	dt.stopOpening()
	mw.tabs.Remove(dt.item)
	for i, t := range mw.docTabs {
		if t == dt {
			mw.docTabs = slices.Delete(mw.docTabs, i, i+1)
			break
		}
	}
	mw.showTabs()
	mw.updateTitle()
}

func (mw *MainWindow) reload() {
	if t := mw.compareOf(mw.tabs.Selected()); t != nil {
		t.reload()
		mw.flashStatus("Reloaded " + t.item.Text)
		return
	}
	dt := mw.current()
	if dt != nil && dt.failed != nil {
		mw.retry(dt)
		return
	}
	if dt == nil || dt.doc == nil {
		return
	}
	mw.setStatus("Reloading " + dt.doc.Title() + "…")
	dt.close()
	mw.ws.Reload(dt.doc, func(err error) {
		mw.setStatus("")
		if err != nil {
			showError(err, mw.win)
		}
		dt.rebuild()
		if err == nil {
			mw.flashStatus("Reloaded " + dt.doc.Title())
		}
	})
}

// setStatus shows text in the status line at the foot of the window, or
// hides the line when text is empty.
func (mw *MainWindow) setStatus(text string) {
	mw.statusSeq++
	mw.status.SetText(text)
	if text == "" {
		mw.status.Hide()
	} else {
		mw.status.Show()
	}
}

// statusFlash is how long flashStatus shows its text.
var statusFlash = 3 * time.Second

// flashStatus shows text in the status line for a few seconds (unless
// something else is shown there meanwhile): a sign that something
// happened, such as a reload, that changes nothing the user can see.
func (mw *MainWindow) flashStatus(text string) {
	mw.setStatus(text)
	seq := mw.statusSeq
	time.AfterFunc(statusFlash, func() {
		mw.post(func() {
			if mw.statusSeq == seq {
				mw.setStatus("")
			}
		})
	})
}

// cycleTab selects the tab step places on, document or comparison.
func (mw *MainWindow) cycleTab(step int) {
	cycle(mw.tabs, len(mw.tabs.Items), step)
	mw.updateTitle()
}

// closeSelected closes the selected tab, document or comparison (File ▸
// Close Tab, Ctrl+W).
func (mw *MainWindow) closeSelected() {
	if t := mw.compareOf(mw.tabs.Selected()); t != nil {
		mw.closeCompare(t)
		return
	}
	mw.closeTab(mw.current())
}

func (mw *MainWindow) updateTitle() {
	if t := mw.compareOf(mw.tabs.Selected()); t != nil {
		mw.win.SetTitle(t.item.Text + " — Tensorscope")
		return
	}
	if dt := mw.current(); dt != nil {
		mw.win.SetTitle(dt.item.Text + " — Tensorscope")
		return
	}
	mw.win.SetTitle("Tensorscope")
}

// showOpenDialog asks for a file to open in a new tab.
func (mw *MainWindow) showOpenDialog() {
	mw.chooseFile("Open tensor or model file", mw.Open)
}

// chooseFile asks for one tensor or model file with the native dialog,
// falling back to Fyne's own when the native one cannot run (no GTK, no
// display), and passes the path chosen to chosen; nothing when cancelled.
func (mw *MainWindow) chooseFile(title string, chosen func(path string)) {
	exts := viewmodel.SupportedExtensions()
	filters := []fileFilter{{Name: "Tensor and model files", Extensions: exts}, {Name: "All files", Extensions: []string{"*"}}}
	dir := mw.currentDir()
	if path, ok := nativeOpen(title, dir, filters); ok {
		if path != "" {
			chosen(path)
		}
		return
	}
	d := dialog.NewFileOpen(func(r fyne.URIReadCloser, err error) {
		if err != nil {
			showError(err, mw.win)
			return
		}
		if r == nil {
			return
		}
		path := r.URI().Path()
		r.Close()
		chosen(path)
	}, mw.win)
	dotted := make([]string, len(exts))
	for i, e := range exts {
		dotted[i] = "." + e
	}
	d.SetFilter(storage.NewExtensionFileFilter(dotted))
	setDialogDir(dir, d.SetLocation)
	d.Resize(themeSize(900, 600))
	d.Show()
}

// currentDir is the folder of the current tab's file (where Open, Compare
// With and Export start), or "" when the tab has none.
func (mw *MainWindow) currentDir() string {
	if dt := mw.current(); dt != nil {
		if dt.path != "" {
			return filepath.Dir(dt.path)
		}
		if dt.doc != nil && dt.doc.Source.Path != "" {
			return filepath.Dir(dt.doc.Source.Path)
		}
	}
	return ""
}

// saveDir is where a save dialog starts: the folder of the last save, else
// the current file's.
func (mw *MainWindow) saveDir() string {
	if mw.lastSaveDir != "" {
		return mw.lastSaveDir
	}
	return mw.currentDir()
}

// saveFile is the package's saveFile starting in saveDir, remembering the
// folder chosen for the next save.
func (mw *MainWindow) saveFile(title, startName string, filters []fileFilter, save func(path string)) {
	saveFile(mw.win, mw.saveDir(), title, startName, filters, mw.rememberSaveDir(save))
}

// rememberSaveDir is save, noting the folder saved to for the next save.
func (mw *MainWindow) rememberSaveDir(save func(path string)) func(path string) {
	return func(path string) {
		mw.lastSaveDir = filepath.Dir(path)
		save(path)
	}
}

// setDialogDir points a Fyne file dialog at dir, when dir is a folder.
func setDialogDir(dir string, set func(fyne.ListableURI)) {
	if dir == "" {
		return
	}
	if l, err := storage.ListerForURI(storage.NewFileURI(dir)); err == nil {
		set(l)
	}
}

func (mw *MainWindow) welcome() fyne.CanvasObject {
	title := widget.NewLabelWithStyle("Tensorscope", fyne.TextAlignCenter, fyne.TextStyle{Bold: true})
	hint := widget.NewLabelWithStyle("Open a tensor or model file (Ctrl+O), or drop one on this window.", fyne.TextAlignCenter, fyne.TextStyle{})
	list := widget.NewLabelWithStyle(strings.Join(formats.Names(), "\n"), fyne.TextAlignCenter, fyne.TextStyle{Italic: true})
	open := widget.NewButton("Open…", mw.showOpenDialog)
	open.Importance = widget.HighImportance
	return container.NewCenter(container.NewVBox(title, hint, container.NewCenter(open), list))
}

func (mw *MainWindow) mainMenu() *fyne.MainMenu {
	open := fyne.NewMenuItem("Open…", mw.showOpenDialog)
	open.Shortcut = shortcutOpen
	recent := fyne.NewMenuItem("Open Recent", nil)
	var items []*fyne.MenuItem
	for _, p := range mw.ws.Recent.List() {
		p := p
		items = append(items, fyne.NewMenuItem(p, func() { mw.Open(p) }))
	}
	if len(items) == 0 {
		none := fyne.NewMenuItem("No recent files", nil)
		none.Disabled = true
		items = append(items, none)
	} else {
		items = append(items, fyne.NewMenuItemSeparator(), fyne.NewMenuItem("Clear Recent", func() {
			mw.ws.Recent.Clear()
			mw.win.SetMainMenu(mw.mainMenu())
		}))
	}
	recent.ChildMenu = fyne.NewMenu("", items...)
	reload := fyne.NewMenuItem("Reload", mw.reload)
	reload.Shortcut = shortcutReload
	closeTab := fyne.NewMenuItem("Close Tab", mw.closeSelected)
	closeTab.Shortcut = shortcutClose
	exportTensor := fyne.NewMenuItem("Export Tensor…", func() {
		if dt := mw.current(); dt != nil && dt.doc != nil {
			dt.exportTensor()
		}
	})
	exportTensor.Shortcut = shortcutExport
	exportAll := fyne.NewMenuItem("Export All Tensors…", func() {
		if dt := mw.current(); dt != nil && dt.doc != nil {
			dt.exportAll()
		}
	})
	exportGraph := fyne.NewMenuItem("Export Graph…", func() {
		if dt := mw.current(); dt != nil && dt.graph != nil {
			dt.graph.export()
		}
	})
	saveView := fyne.NewMenuItem("Save View as PNG…", mw.saveView)
	saveView.Shortcut = shortcutSaveView
	follow := fyne.NewMenuItem("Follow Folder…", mw.followDialog)
	openURL := fyne.NewMenuItem("Open URL…", mw.openURLDialog)
	if dt := mw.current(); dt == nil || dt.graph == nil {
		exportGraph.Disabled = true // this tab has no graph to export
	}
	compareWith := fyne.NewMenuItem("Compare With…", mw.compareWithDialog)
	compareTabs := fyne.NewMenuItem("Compare Tabs…", mw.compareTabsDialog)
	quit := fyne.NewMenuItem("Quit", mw.quit)
	quit.Shortcut = shortcutQuit
	quit.IsQuit = true
	file := fyne.NewMenu("File", open, openURL, recent, follow, fyne.NewMenuItemSeparator(), compareWith, compareTabs,
		fyne.NewMenuItemSeparator(), exportTensor, exportAll, exportGraph, saveView,
		fyne.NewMenuItemSeparator(), reload, closeTab, fyne.NewMenuItemSeparator(), quit)

	next := fyne.NewMenuItem("Next Tab", func() { mw.cycleTab(1) })
	next.Shortcut = shortcutNextTab
	prev := fyne.NewMenuItem("Previous Tab", func() { mw.cycleTab(-1) })
	prev.Shortcut = shortcutPrevTab
	find := fyne.NewMenuItem("Find", func() {
		if dt := mw.current(); dt != nil {
			dt.focusFilter()
		}
	})
	find.Shortcut = shortcutFind
	nextPane := fyne.NewMenuItem("Next Pane", func() { mw.cyclePane(1) })
	nextPane.Shortcut = shortcutNextPane
	prevPane := fyne.NewMenuItem("Previous Pane", func() { mw.cyclePane(-1) })
	prevPane.Shortcut = shortcutPrevPane
	nextView := fyne.NewMenuItem("Next Inspector View", func() { mw.cycleView(1) })
	nextView.Shortcut = shortcutNextView
	prevView := fyne.NewMenuItem("Previous Inspector View", func() { mw.cycleView(-1) })
	prevView.Shortcut = shortcutPrevView
	view := fyne.NewMenu("View", find, fyne.NewMenuItemSeparator(), next, prev, nextPane, prevPane, nextView, prevView,
		fyne.NewMenuItemSeparator(), mw.themeMenu())

	about := fyne.NewMenuItem("About Tensorscope", func() {
		dialog.ShowInformation("About Tensorscope", fmt.Sprintf(
			"Tensorscope %s\nA viewer for tensor and model files.\nFormats: %s",
			mw.opts.Version, strings.Join(formats.Names(), ", ")), mw.win)
	})
	keys := fyne.NewMenuItem("Keyboard Shortcuts", mw.showShortcuts)
	return fyne.NewMainMenu(file, view, fyne.NewMenu("Help", keys, fyne.NewMenuItemSeparator(), about))
}

var (
	shortcutOpen    = &desktop.CustomShortcut{KeyName: fyne.KeyO, Modifier: fyne.KeyModifierShortcutDefault}
	shortcutClose   = &desktop.CustomShortcut{KeyName: fyne.KeyW, Modifier: fyne.KeyModifierShortcutDefault}
	shortcutReload  = &desktop.CustomShortcut{KeyName: fyne.KeyR, Modifier: fyne.KeyModifierShortcutDefault}
	shortcutFind    = &desktop.CustomShortcut{KeyName: fyne.KeyF, Modifier: fyne.KeyModifierShortcutDefault}
	shortcutExport  = &desktop.CustomShortcut{KeyName: fyne.KeyE, Modifier: fyne.KeyModifierShortcutDefault}
	shortcutNextTab = &desktop.CustomShortcut{KeyName: fyne.KeyTab, Modifier: fyne.KeyModifierControl}
	shortcutPrevTab = &desktop.CustomShortcut{KeyName: fyne.KeyTab, Modifier: fyne.KeyModifierControl | fyne.KeyModifierShift}
	shortcutQuit    = &desktop.CustomShortcut{KeyName: fyne.KeyQ, Modifier: fyne.KeyModifierShortcutDefault}
	// shortcutSaveView is Ctrl+Shift+S: File ▸ Save View as PNG….
	shortcutSaveView = &desktop.CustomShortcut{KeyName: fyne.KeyS, Modifier: fyne.KeyModifierShortcutDefault | fyne.KeyModifierShift}
)

func (mw *MainWindow) addShortcuts() {
	c := mw.win.Canvas()
	c.AddShortcut(shortcutOpen, func(fyne.Shortcut) { mw.showOpenDialog() })
	c.AddShortcut(shortcutClose, func(fyne.Shortcut) { mw.closeSelected() })
	c.AddShortcut(shortcutReload, func(fyne.Shortcut) { mw.reload() })
	c.AddShortcut(shortcutFind, func(fyne.Shortcut) {
		if dt := mw.current(); dt != nil {
			dt.focusFilter()
		}
	})
	c.AddShortcut(shortcutExport, func(fyne.Shortcut) {
		if dt := mw.current(); dt != nil && dt.doc != nil {
			dt.exportTensor()
		}
	})
	c.AddShortcut(shortcutNextTab, func(fyne.Shortcut) { mw.cycleTab(1) })
	c.AddShortcut(shortcutPrevTab, func(fyne.Shortcut) { mw.cycleTab(-1) })
	c.AddShortcut(shortcutNextPane, func(fyne.Shortcut) { mw.cyclePane(1) })
	c.AddShortcut(shortcutPrevPane, func(fyne.Shortcut) { mw.cyclePane(-1) })
	c.AddShortcut(shortcutNextView, func(fyne.Shortcut) { mw.cycleView(1) })
	c.AddShortcut(shortcutPrevView, func(fyne.Shortcut) { mw.cycleView(-1) })
	c.AddShortcut(shortcutQuit, func(fyne.Shortcut) { mw.quit() })
	c.AddShortcut(shortcutSaveView, func(fyne.Shortcut) { mw.saveView() })
	c.SetOnTypedKey(mw.typedKey)
}

// typedKey handles the window's keys that have no modifier; focused
// widgets pass them on (see windowKeys).
func (mw *MainWindow) typedKey(ev *fyne.KeyEvent) {
	switch ev.Name {
	case fyne.KeyF5:
		mw.reload()
	case fyne.KeyEscape:
		closeTopDialog(mw.win)
	}
}

// saveFile asks where to save (native dialog, else Fyne's) and calls save
// with the chosen path; nothing happens when the user cancels.
func saveFile(win fyne.Window, dir, title, startName string, filters []fileFilter, save func(path string)) {
	if path, ok := nativeSave(title, dir, startName, filters); ok {
		if path != "" {
			save(path)
		}
		return
	}
	d := dialog.NewFileSave(func(w fyne.URIWriteCloser, err error) {
		if err != nil {
			showError(err, win)
			return
		}
		if w == nil {
			return
		}
		path := w.URI().Path()
		// Fyne created the file to hand us a writer; we write through a
		// temporary file instead, so drop its empty one.
		w.Close()
		os.Remove(path)
		save(path)
	}, win)
	d.SetFileName(startName)
	setDialogDir(dir, d.SetLocation)
	var exts []string
	for _, f := range filters {
		for _, e := range f.Extensions {
			exts = append(exts, "."+e)
		}
	}
	d.SetFilter(storage.NewExtensionFileFilter(exts))
	d.Resize(themeSize(900, 600))
	d.Show()
}

// stopWatching stops every tab's file watcher and the folder being
// followed.
func (mw *MainWindow) stopWatching() {
	mw.stopFollowing()
	for _, dt := range mw.docTabs {
		dt.stopWatching()
	}
}
