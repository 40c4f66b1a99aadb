package ui

import (
	"slices"
	"strings"
	"tensorscope/formats"
	"testing"

	"fyne.io/fyne/v2"
)

// menuItem finds the item labelled label in win's main menu.
func menuItem(win fyne.Window, label string) *fyne.MenuItem {
	for _, m := range win.MainMenu().Items {
		for _, it := range m.Items {
			if it.Label == label {
				return it
			}
		}
	}
	return nil
}

// TestExportGraphIsGreyedWithoutAGraph: File ▸ Export Graph… is greyed out
// for a tensor file and offered for a model.
func TestExportGraphIsGreyedWithoutAGraph(t *testing.T) {
	dt, _ := openTab(t, 1280, 820, "fixture.tsr", tsrFixture(t))
	dt.mw.finishOpenMenu()
	if it := menuItem(dt.mw.win, "Export Graph…"); it == nil || !it.Disabled {
		t.Errorf("for a TSR file Export Graph… is %v, want it greyed out", it)
	}
	model, _ := openTab(t, 1280, 820, "fixture.nn", nnFixture(t))
	model.mw.finishOpenMenu()
	if it := menuItem(model.mw.win, "Export Graph…"); it == nil || it.Disabled {
		t.Errorf("for a model Export Graph… is %v, want it offered", it)
	}
}

// TestExportTensorOffersEveryType: the Export Tensor dialog's filters name
// every type the export writes, .safetensors too.
func TestExportTensorOffersEveryType(t *testing.T) {
	filters := tensorExportFilters()
	for _, ext := range formats.TensorExportExtensions() {
		e := strings.TrimPrefix(ext, ".")
		if !slices.Contains(filters[0].Extensions, e) {
			t.Errorf("the first filter %q does not take %s", filters[0].Name, ext)
		}
	}
	if !strings.Contains(filters[0].Name, "safetensors") {
		t.Errorf("the first filter is named %q", filters[0].Name)
	}
	if len(filters) != 1+len(formats.TensorExportExtensions()) {
		t.Errorf("%d filters, want one for all and one for each type", len(filters))
	}
}

// TestFileDialogsStartInTheFilesFolder: Open, Compare With and the save
// dialogs start in the current file's folder; a save remembers its folder
// for the next one.
func TestFileDialogsStartInTheFilesFolder(t *testing.T) {
	dt, _ := openTab(t, 1280, 820, "fixture.tsr", tsrFixture(t))
	mw := dt.mw
	dt.path = "/data/run7/fixture.tsr"
	if got := mw.currentDir(); got != "/data/run7" {
		t.Errorf("Open starts in %q, want the file's folder", got)
	}
	if got := mw.saveDir(); got != "/data/run7" {
		t.Errorf("the first save starts in %q, want the file's folder", got)
	}
	saved := ""
	mw.rememberSaveDir(func(p string) { saved = p })("/exports/w.npy")
	if saved != "/exports/w.npy" {
		t.Errorf("the save was handed %q", saved)
	}
	if got := mw.saveDir(); got != "/exports" {
		t.Errorf("the next save starts in %q, want the last folder saved to", got)
	}
}
