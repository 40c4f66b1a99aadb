package viewmodel

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tensorscope/formats"
	"tensorscope/tensor"
)

func TestDocExportShown(t *testing.T) {
	q := NewQueue()
	d := &Doc{post: q.Post, Inspector: NewInspector(q.Post)}
	dir := t.TempDir()
	if _, err := d.ExportShown(filepath.Join(dir, "x.npy"), nil); err == nil {
		t.Fatal("exporting with nothing selected must fail")
	}
	d.Inspector.Show(0, f32Entry("w", []int{2, 3}, seq(6)))
	drain(t, q, d.Inspector)
	for _, name := range []string{"w.npy", "w.csv", "w.tsr"} {
		done := false
		var note string
		var err error
		path := filepath.Join(dir, name)
		if _, e := d.ExportShown(path, func(n string, e error) { note, err, done = n, e, true }); e != nil {
			t.Fatal(e)
		}
		if !q.Drain(func() bool { return !done }, 10*time.Second) {
			t.Fatal("export did not finish")
		}
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		b, rerr := os.ReadFile(path)
		if rerr != nil || len(b) == 0 {
			t.Fatalf("%s: %v, %d bytes", name, rerr, len(b))
		}
		if name == "w.csv" && !strings.HasPrefix(string(b), "0,1,2\n3,4,5") {
			t.Errorf("csv of the current plane: %q (note %q)", b, note)
		}
	}
}

// TestExportOfQuantisedTensorSaysWhichValues exports a quantised tensor as
// stored and dequantised: the note says which values the file holds.
func TestExportOfQuantisedTensorSaysWhichValues(t *testing.T) {
	q := NewQueue()
	d := &Doc{post: q.Post, Inspector: NewInspector(q.Post)}
	raw := []byte{0, 10, 20, 255}
	qe := &formats.TensorEntry{Name: "q", DType: tensor.Uint8, Shape: []int{4},
		Quant: &formats.Quant{Scales: []float64{0.5}, ZeroPoints: []int64{10}}}
	qe.SetLoader(func(context.Context) (*tensor.Tensor, error) { return tensor.FromBytes(raw, tensor.Uint8, []int{4}) })
	d.Inspector.Show(0, qe)
	drain(t, q, d.Inspector)
	export := func(name string) string {
		t.Helper()
		done := false
		var note string
		var err error
		if _, e := d.ExportShown(filepath.Join(t.TempDir(), name), func(n string, e error) { note, err, done = n, e, true }); e != nil {
			t.Fatal(e)
		}
		if !q.Drain(func() bool { return !done }, 10*time.Second) || err != nil {
			t.Fatalf("export: %v", err)
		}
		return note
	}
	if note := export("q.npy"); !strings.HasPrefix(note, "Stored quantised integers, not dequantised") {
		t.Errorf("note of the stored export: %q", note)
	}
	d.Inspector.SetDequantised(true)
	drain(t, q, d.Inspector)
	if note := export("q.npy"); !strings.HasPrefix(note, "Dequantised values") {
		t.Errorf("note of the dequantised export: %q", note)
	}
}
