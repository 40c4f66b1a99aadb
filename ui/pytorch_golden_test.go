package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"tensorscope/internal/samples"
	"tensorscope/viewmodel"
)

// TestGoldenPyTorchMetadata: the metadata tree of a {model, optimizer,
// epoch} checkpoint written by torch after two Adam steps, with the
// optimizer's hyperparameters opened: the whole unpickled object as data.
func TestGoldenPyTorchMetadata(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(samples.Dir(t, "pytorch/generated-torch-1.13"), "checkpoint_adam.pt"))
	if err != nil {
		t.Fatal(err)
	}
	test.NewTempApp(t)
	q := viewmodel.NewQueue()
	d := openFixture(t, q, "checkpoint_adam.pt", data)
	pane := newMetaPane(nil, d)
	tree := findTree(t, pane)
	// Open object ▸ optimizer ▸ param_groups ▸ 0.
	id := ""
	for _, name := range []string{"object", "optimizer", "param_groups", "0"} {
		next := ""
		for _, c := range d.Meta.Children(id) {
			if strings.HasPrefix(d.Meta.Label(c), name) {
				next = c
				break
			}
		}
		if next == "" {
			t.Fatalf("no node %q under %q", name, id)
		}
		tree.OpenBranch(next)
		id = next
	}
	win := goldenWindow(t, pane, 900, 1000)
	test.AssertRendersToImage(t, "metadata_pytorch_checkpoint.png", win.Canvas())
}

func findTree(t *testing.T, o fyne.CanvasObject) *widget.Tree {
	t.Helper()
	var found *widget.Tree
	var walk func(fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		if found != nil {
			return
		}
		switch x := o.(type) {
		case *widget.Tree:
			found = x
		case *container.Split:
			walk(x.Leading)
			walk(x.Trailing)
		case *fyne.Container:
			for _, c := range x.Objects {
				walk(c)
			}
		}
	}
	walk(o)
	if found == nil {
		t.Fatal("no tree")
	}
	return found
}

// TestMetadataInspectsTensor: selecting a tensor of a checkpoint's object
// tree enables "Inspect tensor", which shows that tensor.
func TestMetadataInspectsTensor(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(samples.Dir(t, "pytorch/generated-torch-1.13"), "checkpoint_adam.pt"))
	if err != nil {
		t.Fatal(err)
	}
	test.NewTempApp(t)
	q := viewmodel.NewQueue()
	d := openFixture(t, q, "checkpoint_adam.pt", data)
	got := -1
	pane := newMetaPane(nil, d, func(i int) { got = i })
	goldenWindow(t, pane, 900, 700)
	tree := findTree(t, pane)
	var button *widget.Button
	var walk func(fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		switch x := o.(type) {
		case *widget.Button:
			if x.Text == "Inspect tensor" {
				button = x
			}
		case *container.Split:
			walk(x.Leading)
			walk(x.Trailing)
		case *fyne.Container:
			for _, c := range x.Objects {
				walk(c)
			}
		}
	}
	walk(pane)
	if button == nil {
		t.Fatal("no Inspect tensor button")
	}
	tree.Select("0/1") // object ▸ optimizer: not a tensor
	if !button.Disabled() {
		t.Error("Inspect tensor is enabled on a node that is no tensor")
	}
	tree.Select("0/1/0/0/1") // object ▸ optimizer ▸ state ▸ 0 ▸ exp_avg
	if button.Disabled() {
		t.Fatal("Inspect tensor is disabled on a tensor")
	}
	test.Tap(button)
	if got < 0 || d.Doc.Tensors[got].Name != "optimizer.state.0.exp_avg" {
		t.Errorf("inspected tensor %d, want optimizer.state.0.exp_avg", got)
	}
}
