package ui

import (
	"path/filepath"
	"strings"
	"tensorscope/formats"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"
)

// exportAll saves every stored tensor of the tab's file as one
// .safetensors file, with a progress dialog whose Cancel stops the work
// (the file is written to a temporary name and renamed only when done).
func (dt *docTab) exportAll() {
	win := dt.mw.win
	if dt.doc == nil || len(dt.doc.Doc.Tensors) == 0 {
		dialog.ShowInformation("Export all tensors", "This file has no tensors to export.", win)
		return
	}
	name := filepath.Base(dt.doc.Source.Display())
	base := strings.TrimSuffix(name, filepath.Ext(name))
	exts := formats.EncoderExtensions(true)
	filters := []fileFilter{endingsFilter(exts)}
	dt.mw.saveFile("Export all tensors", base+exts[0], filters, func(path string) {
		bar := widget.NewProgressBar()
		label := widget.NewLabel("Writing " + filepath.Base(path) + "…")
		box := container.NewVBox(label, bar)
		progress := dialog.NewCustom("Export all tensors", "Cancel", box, win)
		progress.Resize(fyne.NewSize(themePx(420), box.MinSize().Height+themePx(120)))
		task := dt.doc.ExportAll(path, bar.SetValue, func(note string, err error) {
			progress.Hide()
			showExported(win, "Tensors exported", path, note, err)
		})
		progress.SetOnClosed(task.Cancel)
		progress.Show()
	})
}
