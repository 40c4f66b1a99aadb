package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
)

// Keys that switch a document's panes (Overview, Tensors, Header,
// Metadata, Graph) and the inspector's views (Heatmap, Histogram, Values,
// Facts). Fyne's tab bars take no keyboard focus: without these keys, a
// user of the keyboard alone reached no pane but the one a file opens on.
var (
	shortcutNextPane = &desktop.CustomShortcut{KeyName: fyne.KeyPageDown, Modifier: fyne.KeyModifierControl}
	shortcutPrevPane = &desktop.CustomShortcut{KeyName: fyne.KeyPageUp, Modifier: fyne.KeyModifierControl}
	shortcutNextView = &desktop.CustomShortcut{KeyName: fyne.KeyPageDown, Modifier: fyne.KeyModifierControl | fyne.KeyModifierShift}
	shortcutPrevView = &desktop.CustomShortcut{KeyName: fyne.KeyPageUp, Modifier: fyne.KeyModifierControl | fyne.KeyModifierShift}
)

// cyclePane selects the current document's next (step 1) or previous
// (step −1) pane.
func (mw *MainWindow) cyclePane(step int) {
	if dt := mw.current(); dt != nil && dt.panes != nil {
		cycle(dt.panes, len(dt.panes.Items), step)
	}
}

// cycleView selects the inspector's next or previous view; from another
// pane it first shows the Tensors pane, where the inspector is.
func (mw *MainWindow) cycleView(step int) {
	dt := mw.current()
	if dt == nil || dt.panes == nil || dt.tensors == nil || dt.tensorsAt == nil {
		return
	}
	if dt.panes.Selected() != dt.tensorsAt {
		dt.panes.Select(dt.tensorsAt)
		return
	}
	cycle(dt.tensors.inspector.tabs, len(dt.tensors.inspector.tabs.Items), step)
}

// tabBar is what cycle needs of Fyne's AppTabs and DocTabs.
type tabBar interface {
	SelectedIndex() int
	SelectIndex(int)
}

// cycle selects the tab step places after the selected one of tabs' n,
// going round.
func cycle(tabs tabBar, n, step int) {
	if n < 2 {
		return
	}
	tabs.SelectIndex(((tabs.SelectedIndex()+step)%n + n) % n)
}
