package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"
)

// keyboardShortcuts lists the keys Help ▸ Keyboard Shortcuts shows; keep it
// in step with addShortcuts, typedKey and the widgets' own keys.
var keyboardShortcuts = [][2]string{
	{"Ctrl+O", "Open a file"},
	{"F5, Ctrl+R", "Reload the file of the current tab"},
	{"Ctrl+W", "Close the current tab"},
	{"Ctrl+Tab, Ctrl+Shift+Tab", "Next, previous tab"},
	{"Ctrl+PgDn, Ctrl+PgUp", "Next, previous pane: Overview, Tensors, Header, Metadata, Graph"},
	{"Ctrl+Shift+PgDn, Ctrl+Shift+PgUp", "Next, previous inspector view: Heatmap, Histogram, Values, Facts"},
	{"Ctrl+F", "Find: the graph's find box, or the tensor filter"},
	{"Ctrl+E", "Export the inspected tensor"},
	{"Ctrl+Shift+S", "Save the view shown as a PNG"},
	{"Ctrl+Q", "Quit"},
	{"Escape", "Close the dialog on top"},
	{"Up, Down", "Tensor list: select the previous, next tensor"},
	{"+  −  0", "Graph: zoom in, out, 1:1"},
	{"F, Home", "Graph: fit the whole graph"},
	{"M", "Graph: fold or open the minimap"},
	{"Arrow keys, PgUp, PgDn", "Graph: pan"},
	{"Enter", "Graph find box: next match"},
	{"Escape", "Graph find box: back to the graph (its keys)"},
	{"Up, Down, PgUp, PgDn, Home, End; Enter", "Overview table: move the selection; inspect the tensor selected"},
	{"Up, Down, PgUp, PgDn, Home, End", "Comparison and vocabulary tables: move the selection"},
	{"Tab, Space", "Comparison table: sort by the column header reached"},
	{"Enter", "Vocabulary find box: the next token found"},
}

// showShortcuts is Help ▸ Keyboard Shortcuts.
func (mw *MainWindow) showShortcuts() {
	form := container.New(&shortcutColumns{})
	for _, s := range keyboardShortcuts {
		form.Add(widget.NewLabelWithStyle(s[0], fyne.TextAlignLeading, fyne.TextStyle{Monospace: true}))
		form.Add(widget.NewLabel(s[1]))
	}
	d := dialog.NewCustom("Keyboard Shortcuts", "Close", form, mw.win)
	d.Show()
}

// shortcutColumns lays out pairs of objects as two columns, the first as
// wide as its widest key label.
type shortcutColumns struct{}

func (shortcutColumns) widths(objs []fyne.CanvasObject) (key, text float32) {
	for i := 0; i+1 < len(objs); i += 2 {
		key = max(key, objs[i].MinSize().Width)
		text = max(text, objs[i+1].MinSize().Width)
	}
	return key, text
}

// MinSize implements fyne.Layout.
func (l shortcutColumns) MinSize(objs []fyne.CanvasObject) fyne.Size {
	key, text := l.widths(objs)
	h := float32(0)
	for i := 0; i+1 < len(objs); i += 2 {
		h += max(objs[i].MinSize().Height, objs[i+1].MinSize().Height)
	}
	return fyne.NewSize(key+text, h)
}

// Layout implements fyne.Layout.
func (l shortcutColumns) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	key, _ := l.widths(objs)
	y := float32(0)
	for i := 0; i+1 < len(objs); i += 2 {
		h := max(objs[i].MinSize().Height, objs[i+1].MinSize().Height)
		objs[i].Move(fyne.NewPos(0, y))
		objs[i].Resize(fyne.NewSize(key, h))
		objs[i+1].Move(fyne.NewPos(key, y))
		objs[i+1].Resize(fyne.NewSize(size.Width-key, h))
		y += h
	}
}
