package ui

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"tensorscope/internal/samples"
	"tensorscope/viewmodel"
)

func openSampleFixture(t *testing.T, q *viewmodel.Queue, sub, name string) *viewmodel.Doc {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(samples.Dir(t, sub), name))
	if err != nil {
		t.Fatal(err)
	}
	return openFixture(t, q, name, data)
}

// The Overview of the GGUF Q4_K_M sample once every tensor is in: the
// headline and dtype bars, the table with the flagged norms, the
// fingerprint and the layer plot.
func TestGoldenOverviewPane(t *testing.T) {
	test.NewTempApp(t)
	q := viewmodel.NewQueue()
	d := openSampleFixture(t, q, "gguf/quantized-llama.cpp", "synth-llama256-Q4_K_M.gguf")
	ov := d.Overview()
	var inspected []int
	p := newOverviewPane(ov, func(i int) { inspected = append(inspected, i) })
	t.Cleanup(p.close)
	win := goldenWindow(t, p.content, 1280, 820)
	if !q.Drain(func() bool { return ov.Running }, time.Minute) {
		t.Fatal("the summary did not finish")
	}
	test.AssertRendersToImage(t, "overview_q4_k_m.png", win.Canvas())

	// Sorting by flags puts the flagged tensors first; selecting a row
	// inspects its tensor.
	ov.SortBy(viewmodel.OverviewFlags)
	first := ov.Model.Tensors[ov.Rows()[0]]
	if len(first.Flags) == 0 {
		t.Fatalf("sorted by flags, the first row %s has none", first.Name)
	}
	p.table.Select(widget.TableCellID{Row: 0, Col: 0})
	if len(inspected) != 1 || d.Doc.Tensors[inspected[0]].Name != first.Name {
		t.Errorf("selecting %s inspected %v", first.Name, inspected)
	}
	// Tapping a fingerprint cell inspects that tensor.
	fp := p.fp
	test.TapAt(fp, fp.cells.Add(fyne.NewPos(fp.cell.Width/2, fp.cell.Height/2))) // the first cell
	if len(inspected) != 2 {
		t.Errorf("tapping the fingerprint inspected %v", inspected)
	}
}

// A file of several tensors opens on its Overview, first of the panes;
// Ctrl+F there goes to the Overview's filter, and inspecting a tensor
// switches to the Tensors pane.
func TestOverviewIsTheFirstTab(t *testing.T) {
	a := test.NewTempApp(t)
	q := viewmodel.NewQueue()
	d := openSampleFixture(t, q, "gguf/models", "stories260K.gguf")
	mw := NewMainWindow(a, Options{})
	dt := newPendingTab(mw, "stories260K.gguf")
	mw.docTabs = append(mw.docTabs, dt)
	mw.tabs.Append(dt.item)
	mw.showTabs()
	dt.setDoc(d)
	if dt.overview == nil || dt.panes.Items[0].Text != "Overview" || dt.panes.Selected().Text != "Overview" {
		t.Fatalf("panes %q, selected %q", dt.panes.Items[0].Text, dt.panes.Selected().Text)
	}
	dt.focusFilter()
	if mw.win.Canvas().Focused() != dt.overview.filter {
		t.Error("Ctrl+F on the Overview did not focus its filter")
	}
	dt.inspectTensor(3)
	if dt.panes.Selected().Content != dt.tensors.content {
		t.Errorf("inspecting shows the %q pane", dt.panes.Selected().Text)
	}
	dt.focusFilter()
	if mw.win.Canvas().Focused() != dt.tensors.filter {
		t.Error("Ctrl+F on the Tensors pane did not focus its filter")
	}
	ov := d.Overview()
	q.Drain(func() bool { return ov.Running }, time.Minute)
}

// TestOverviewKeys: in the Overview's filter, Down and End move a
// selection through the table without leaving it, and Enter inspects the
// row selected.
func TestOverviewKeys(t *testing.T) {
	test.NewTempApp(t)
	q := viewmodel.NewQueue()
	d := openSampleFixture(t, q, "gguf/quantized-llama.cpp", "synth-llama256-Q4_K_M.gguf")
	ov := d.Overview()
	var inspected []int
	p := newOverviewPane(ov, func(i int) { inspected = append(inspected, i) })
	t.Cleanup(p.close)
	win := goldenWindow(t, p.content, 1280, 820)
	if !q.Drain(func() bool { return ov.Running }, time.Minute) {
		t.Fatal("the summary did not finish")
	}
	win.Canvas().Focus(p.filter)
	p.filter.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown})
	p.filter.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown})
	if len(inspected) != 0 || p.table.row != 1 {
		t.Fatalf("after Down Down: row %d selected, inspected %v", p.table.row, inspected)
	}
	p.filter.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	want := ov.Model.Tensors[ov.Rows()[1]].Name
	if len(inspected) != 1 || d.Doc.Tensors[inspected[0]].Name != want {
		t.Errorf("Enter on row 1 (%s) inspected %v", want, inspected)
	}
}
