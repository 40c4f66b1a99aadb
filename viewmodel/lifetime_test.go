package viewmodel

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"tensorscope/formats"
	"tensorscope/formats/tmfile"
	"tensorscope/formats/tsr"
	"tensorscope/tensor"
)

// tsrBytes is a TSR v1 file holding values as a vector.
func tsrBytes(t *testing.T, values []float32) []byte {
	t.Helper()
	raw := make([]byte, 4*len(values))
	for i, v := range values {
		binary.LittleEndian.PutUint32(raw[4*i:], math.Float32bits(v))
	}
	x, err := tensor.FromBytes(raw, tensor.Float32, []int{len(values)})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := tsr.EncodeV1(&b, x); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// bigWeightModel writes a tmfile whose fully connected layer has a
// [rows, cols] fp32 weight (8 MiB at 2048×1024): exporting its plane as
// CSV takes long enough to close the tab in the middle.
func bigWeightModel(t *testing.T, rows, cols int) string {
	t.Helper()
	b := tmfile.NewBuilder(1, "big weight")
	x := b.Input("data", []int32{1, int32(cols)})
	w := make([]float32, rows*cols)
	for i := range w {
		w[i] = float32(math.Sin(float64(i) / 97))
	}
	wt := b.Const("fc.weight", []int32{int32(rows), int32(cols)}, w)
	y := b.Op("fc", "FullyConnected", []formats.Attr{{Name: "num_output", Value: rows}}, []int32{1, int32(rows)}, x, wt)
	b.Output(y)
	m, err := b.Model()
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := tmfile.Encode(&buf, m); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "big.tmfile")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// openTab opens path in ws as the GUI does, running posted work on q.
func openTab(t *testing.T, q *Queue, ws *Workspace, path string) *Doc {
	t.Helper()
	var doc *Doc
	var err error
	done := false
	ws.Open(path, func(d *Doc, e error) { doc, err, done = d, e, true })
	if !q.Drain(func() bool { return !done }, 20*time.Second) {
		t.Fatal("opening timed out")
	}
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// inspectNamed shows the tensor named name and waits until it is ready.
func inspectNamed(t *testing.T, q *Queue, d *Doc, name string) {
	t.Helper()
	for i, e := range d.Doc.Tensors {
		if e.Name == name {
			d.Inspector.Show(i, e)
			if !q.Drain(func() bool { return !d.Inspector.Ready() }, 60*time.Second) {
				t.Fatal("the inspector did not settle")
			}
			if err := d.Inspector.Err(); err != nil {
				t.Fatal(err)
			}
			return
		}
	}
	t.Fatalf("no tensor %q", name)
}

// waitDocUnmapped waits until doc's files are unmapped.
func waitDocUnmapped(t *testing.T, doc *formats.Document) {
	t.Helper()
	select {
	case <-doc.Unmapped():
	case <-time.After(30 * time.Second):
		t.Fatalf("the document is still mapped, %d users", doc.Users())
	}
}

// waitGoroutines waits until no more than n goroutines run: work started
// for a tab must not outlive it.
func waitGoroutines(t *testing.T, n int) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for runtime.NumGoroutine() > n {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			buf = buf[:runtime.Stack(buf, true)]
			t.Fatalf("%d goroutines left behind, %d before:\n%s", runtime.NumGoroutine(), n, buf)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// waitWriting waits until a file in dir has bytes: an export is under way.
func waitWriting(t *testing.T, dir string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if info, err := e.Info(); err == nil && info.Size() > 0 {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatal("the export never started writing")
		}
		time.Sleep(time.Millisecond)
	}
}

// TestTabClosedOrReloadedMidTensorExport: closing or reloading a tab while
// its tensor is being exported must neither unmap the file under the
// exporter (a fault) nor leave its goroutine running, nor leave a file.
func TestTabClosedOrReloadedMidTensorExport(t *testing.T) {
	path := bigWeightModel(t, 2048, 1024)
	for _, action := range []string{"close", "reload"} {
		t.Run(action, func(t *testing.T) {
			before := runtime.NumGoroutine()
			q := NewQueue()
			ws := NewWorkspace(q.Post, MemPrefs{})
			d := openTab(t, q, ws, path)
			inspectNamed(t, q, d, "fc.weight")
			out := filepath.Join(t.TempDir(), "plane.csv")
			finished := false
			if _, err := d.ExportShown(out, func(string, error) { finished = true }); err != nil {
				t.Fatal(err)
			}
			waitWriting(t, filepath.Dir(out))
			old := d.Doc
			if action == "close" {
				ws.Close(d)
			} else {
				reloaded := false
				ws.Reload(d, func(err error) {
					if err != nil {
						t.Error(err)
					}
					reloaded = true
				})
				if !q.Drain(func() bool { return !reloaded }, 20*time.Second) {
					t.Fatal("reload timed out")
				}
				ws.Close(d)
			}
			waitDocUnmapped(t, old)
			waitDocUnmapped(t, d.Doc)
			q.Drain(func() bool { return false }, time.Second)
			if finished {
				t.Error("the export reported back to a closed tab")
			}
			if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("a cancelled export left %s (%v)", out, err)
			}
			waitGoroutines(t, before)
		})
	}
}

// TestTruncatedFileGivesErrFault: a file cut short on disk while open
// makes statistics, histograms, downsampling, exports and TSR decompression
// report tensor.ErrFault instead of killing the process with SIGBUS.
func TestTruncatedFileGivesErrFault(t *testing.T) {
	path := bigWeightModel(t, 1024, 1024)
	q := NewQueue()
	ws := NewWorkspace(q.Post, MemPrefs{})
	d := openTab(t, q, ws, path)
	defer ws.Close(d)
	if err := os.Truncate(path, 4096); err != nil {
		t.Fatal(err)
	}
	in := d.Inspector
	in.Apply(func() InspectorSettings {
		s := DefaultInspectorSettings()
		s.HistBins = 100 // not a divisor of 4096: a histogram pass of its own
		return s
	}())
	for i, e := range d.Doc.Tensors {
		if e.Name == "fc.weight" {
			in.Show(i, e)
		}
	}
	if !q.Drain(func() bool { return !in.Ready() }, 60*time.Second) {
		t.Fatal("the inspector did not settle")
	}
	if err := in.Err(); !errors.Is(err, tensor.ErrFault) {
		t.Errorf("statistics: %v, want ErrFault", err)
	}
	if err := in.PlaneErr(); !errors.Is(err, tensor.ErrFault) {
		t.Errorf("downsampling: %v, want ErrFault", err)
	}
	plane := in.heat.plane
	if plane == nil {
		t.Fatal("no plane")
	}
	if _, err := tensor.ComputeHistogram(context.Background(), plane, 16, 0, 1, nil); !errors.Is(err, tensor.ErrFault) {
		t.Errorf("histogram: %v, want ErrFault", err)
	}
	in.SetHistRange(RangeManual, -1, 1)
	if !q.Drain(func() bool { return !in.Ready() }, 60*time.Second) {
		t.Fatal("the inspector did not settle")
	}
	if _, err := in.Histogram(); !errors.Is(err, tensor.ErrFault) {
		t.Errorf("histogram task: %v, want ErrFault", err)
	}
	for _, name := range []string{"w.npy", "w.csv", "w.tsr"} {
		var got error
		done := false
		out := filepath.Join(t.TempDir(), name)
		if _, err := d.ExportShown(out, func(_ string, err error) { got, done = err, true }); err != nil {
			t.Fatal(err)
		}
		if !q.Drain(func() bool { return !done }, 60*time.Second) {
			t.Fatal("export did not finish")
		}
		if !errors.Is(got, tensor.ErrFault) {
			t.Errorf("export %s: %v, want ErrFault", name, got)
		}
	}
}

// TestTruncatedTSRZlibGivesErrFault: inflating and checking the CRC of a
// compressed tensor whose file was cut short reports ErrFault.
func TestTruncatedTSRZlibGivesErrFault(t *testing.T) {
	const n = 1 << 18
	raw := make([]byte, 4*n)
	for i := 0; i < n; i++ {
		binary.LittleEndian.PutUint32(raw[4*i:], math.Float32bits(float32(math.Sin(float64(i)*1.7))))
	}
	x, err := tensor.FromBytes(raw, tensor.Float32, []int{n})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := tsr.EncodeV3(&b, x, tsr.ZLIB); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "z.tsr")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	doc, err := formats.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer doc.Close()
	if err := os.Truncate(path, 4096); err != nil {
		t.Fatal(err)
	}
	if _, err := doc.Tensors[0].Load(context.Background()); !errors.Is(err, tensor.ErrFault) {
		t.Errorf("loading a zlib tensor: %v, want ErrFault", err)
	}
}
