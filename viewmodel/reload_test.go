package viewmodel

import (
	"bytes"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"tensorscope/formats/tsr"
	"tensorscope/tensor"
)

// writeTSR4 writes a TSR4 file holding float32 tensors of the given shapes,
// each filled with 0, 1, 2, ... plus base.
func writeTSR4(t *testing.T, path string, base float32, shapes ...[]int) {
	t.Helper()
	var ts []*tensor.Tensor
	for _, shape := range shapes {
		n, _ := tensor.NumElements(shape)
		b := make([]byte, 4*n)
		for i := 0; i < n; i++ {
			binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(base+float32(i)))
		}
		x, err := tensor.FromBytes(b, tensor.Float32, shape)
		if err != nil {
			t.Fatal(err)
		}
		ts = append(ts, x)
	}
	var buf bytes.Buffer
	if err := tsr.EncodeV4(&buf, ts, tsr.RAW); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// openWait opens path in w and runs posted work until it has opened.
func openWait(t *testing.T, q *Queue, w *Workspace, path string) *Doc {
	t.Helper()
	var doc *Doc
	var openErr error
	task := w.Open(path, func(d *Doc, err error) { doc, openErr = d, err })
	if !q.Drain(func() bool { return !task.Finished() || (doc == nil && openErr == nil) }, 20*time.Second) {
		t.Fatal("open did not finish")
	}
	if openErr != nil {
		t.Fatal(openErr)
	}
	return doc
}

func reloadWait(t *testing.T, q *Queue, w *Workspace, d *Doc) {
	t.Helper()
	done := false
	w.Reload(d, func(err error) {
		if err != nil {
			t.Error(err)
		}
		done = true
	})
	if !q.Drain(func() bool { return !done }, 20*time.Second) {
		t.Fatal("reload did not finish")
	}
	drain(t, q, d.Inspector)
}

func TestReloadKeepsTensorPlaneSlidersAndZoom(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.tsr")
	writeTSR4(t, path, 0, []int{4, 6}, []int{2, 3, 5, 7})
	q := NewQueue()
	w := NewWorkspace(q.Post, MemPrefs{})
	d := openWait(t, q, w, path)
	d.Tensors.SetFilter("1")
	in := d.Inspector
	in.Show(1, d.Doc.Tensors[1])
	drain(t, q, in)
	if err := in.SetExpr("w"); err != nil { // the tensor's planes, not the mosaic it opens as
		t.Fatal(err)
	}
	drain(t, q, in)
	if err := in.SetAxes(1, 3); err != nil {
		t.Fatal(err)
	}
	if err := in.SetFixed(2, 3); err != nil {
		t.Fatal(err)
	}
	in.SetView(Window{1, 2, 2, 4})
	drain(t, q, in)

	writeTSR4(t, path, 100, []int{4, 6}, []int{2, 3, 5, 7}) // the file changed on disk
	reloadWait(t, q, w, d)

	if in.Index() != 1 || in.Entry() != d.Doc.Tensors[1] {
		t.Fatalf("after reload the inspector shows tensor %d, want 1", in.Index())
	}
	if in.Expr() != "w" {
		t.Errorf("view %q after reload, want w", in.Expr())
	}
	if r, c := in.Axes(); r != 1 || c != 3 {
		t.Errorf("axes %d,%d after reload, want 1,3", r, c)
	}
	if got := in.Fixed(); got[2] != 3 {
		t.Errorf("slider of axis 2 at %d after reload, want 3", got[2])
	}
	if v := in.View(); v != (Window{1, 2, 2, 4}) {
		t.Errorf("zoom %+v after reload", v)
	}
	if d.Tensors.Filter() != "1" {
		t.Errorf("filter %q after reload", d.Tensors.Filter())
	}
	if st, ok := in.Stats(); !ok || st.Min != 100 {
		t.Errorf("reloaded values not read: stats %+v (done %v), want min 100", st, ok)
	}
}

func TestReloadKeepsTensorButNotPlaneWhenShapeChanged(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.tsr")
	writeTSR4(t, path, 0, []int{4, 6}, []int{2, 3, 5, 7})
	q := NewQueue()
	w := NewWorkspace(q.Post, MemPrefs{})
	d := openWait(t, q, w, path)
	in := d.Inspector
	in.Show(1, d.Doc.Tensors[1])
	drain(t, q, in)
	if err := in.SetExpr("w"); err != nil {
		t.Fatal(err)
	}
	drain(t, q, in)
	if err := in.SetAxes(0, 2); err != nil {
		t.Fatal(err)
	}
	writeTSR4(t, path, 0, []int{4, 6}, []int{1, 1, 2, 12}) // same name, new shape (too wide a kernel for a mosaic)
	reloadWait(t, q, w, d)
	if in.Index() != 1 {
		t.Fatalf("inspector shows tensor %d, want 1", in.Index())
	}
	if !slices.Equal(in.Tensor().Shape(), []int{1, 1, 2, 12}) {
		t.Fatalf("shape %v", in.Tensor().Shape())
	}
	if r, c := in.Axes(); r != 2 || c != 3 {
		t.Errorf("axes %d,%d, want the new shape's default 2,3", r, c)
	}
}

func TestReloadDropsSelectionOfVanishedTensor(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.tsr")
	writeTSR4(t, path, 0, []int{4, 6}, []int{2, 3, 5, 7})
	q := NewQueue()
	w := NewWorkspace(q.Post, MemPrefs{})
	d := openWait(t, q, w, path)
	d.Inspector.Show(1, d.Doc.Tensors[1])
	drain(t, q, d.Inspector)
	writeTSR4(t, path, 0, []int{4, 6}) // tensor 1 is gone
	reloadWait(t, q, w, d)
	if d.Inspector.Entry() != nil {
		t.Errorf("the inspector still shows %q, which the file no longer has", d.Inspector.Entry().Name)
	}
}

func TestDocAtFindsTheOpenFileUnderAnyName(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.tsr")
	writeTSR4(t, path, 0, []int{2, 2})
	other := filepath.Join(dir, "b.tsr")
	writeTSR4(t, other, 0, []int{2, 2})
	link := filepath.Join(dir, "link.tsr")
	if err := os.Symlink(path, link); err != nil {
		t.Fatal(err)
	}
	q := NewQueue()
	w := NewWorkspace(q.Post, MemPrefs{})
	d := openWait(t, q, w, path)
	for _, p := range []string{path, link, filepath.Join(dir, ".", "a.tsr")} {
		if w.DocAt(p) != d {
			t.Errorf("DocAt(%s) does not find the open document", p)
		}
	}
	if w.DocAt(other) != nil {
		t.Errorf("DocAt(%s) finds a document for a file that is not open", other)
	}
	w.Close(d)
	if w.DocAt(path) != nil {
		t.Error("DocAt finds a closed document")
	}
}

func TestDefaultAxesAreTheTwoLargest(t *testing.T) {
	cases := []struct {
		shape    []int
		row, col int
	}{
		{[]int{10000}, -1, 0},
		{[]int{}, -1, -1},
		{[]int{3, 1}, 0, 1},           // rank 2 always shows itself
		{[]int{128, 256, 1, 1}, 0, 1}, // not the 1×1 kernel
		{[]int{1, 1, 2, 9}, 2, 3},
		{[]int{32, 16, 3, 3}, 0, 1},
		{[]int{1, 3, 224, 224}, 2, 3},
		{[]int{3, 5, 5}, 1, 2},
		{[]int{7, 1, 7}, 0, 2},
	}
	for _, c := range cases {
		if r, col := DefaultAxes(c.shape); r != c.row || col != c.col {
			t.Errorf("DefaultAxes(%v) = %d,%d; want %d,%d", c.shape, r, col, c.row, c.col)
		}
	}
}

// Settings that name no axes (render and export without --axes) show the
// plane the viewer opens on, among the axes no index holds.
func TestSettingsWithoutAxesShowTheDefaultPlane(t *testing.T) {
	cases := []struct {
		shape    []int
		index    map[int]int
		row, col int
	}{
		{[]int{16, 1, 1, 32}, nil, 0, 3}, // was the 1×32 of the last two
		{[]int{128, 256, 1, 1}, nil, 0, 1},
		{[]int{8, 6, 4, 2}, map[int]int{0: 1}, 1, 2},
		{[]int{8, 6, 4, 2}, map[int]int{0: 1, 1: 5}, 2, 3},
	}
	for _, c := range cases {
		s := DefaultInspectorSettings()
		for a, i := range c.index {
			if err := s.SetIndex(a, i); err != nil {
				t.Fatal(err)
			}
		}
		if r, col, _, err := s.CheckPlane(c.shape); err != nil || r != c.row || col != c.col {
			t.Errorf("%v held %v: plane %d,%d (%v); want %d,%d", c.shape, c.index, r, col, err, c.row, c.col)
		}
	}
}

func TestSingleTensorFileOpensShown(t *testing.T) {
	dir := t.TempDir()
	one, two := filepath.Join(dir, "one.tsr"), filepath.Join(dir, "two.tsr")
	writeTSR4(t, one, 0, []int{4, 6})
	writeTSR4(t, two, 0, []int{4, 6}, []int{2, 2})
	q := NewQueue()
	w := NewWorkspace(q.Post, MemPrefs{})
	d := openWait(t, q, w, one)
	drain(t, q, d.Inspector)
	if d.Inspector.Index() != 0 || d.Inspector.Heatmap() == nil {
		t.Errorf("a file of one tensor opens with tensor %d shown (heatmap %v)", d.Inspector.Index(), d.Inspector.Heatmap() != nil)
	}
	d2 := openWait(t, q, w, two)
	if d2.Inspector.Index() != -1 {
		t.Errorf("a file of two tensors opens with tensor %d chosen for the user", d2.Inspector.Index())
	}
	// The viewer's tab then shows its first weight (OpeningRow); TSR's
	// tensors are data, so the first of them.
	d2.ShowOpening()
	drain(t, q, d2.Inspector)
	if d2.Inspector.Index() != 0 || d2.Inspector.Heatmap() == nil {
		t.Errorf("ShowOpening shows tensor %d (heatmap %v), want 0", d2.Inspector.Index(), d2.Inspector.Heatmap() != nil)
	}
}
