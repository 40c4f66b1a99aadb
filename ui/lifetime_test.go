package ui

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"tensorscope/formats/tmfile"
	"tensorscope/formats/tmfile/synth"
	"tensorscope/viewmodel"
)

// bigCNNFile writes a generated CNN of nodes nodes (no weights) whose
// layout and PNG export take long enough to close the tab in the middle.
func bigCNNFile(t *testing.T, nodes int) string {
	t.Helper()
	var buf bytes.Buffer
	if err := tmfile.Encode(&buf, synth.CNN(nodes, false)); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "big.tmfile")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestTabClosedOrReloadedMidGraphWork: closing or reloading a tab while
// its graph is being laid out or exported stops that work: nothing
// arrives afterwards, no file is left, the document is unmapped and no
// goroutine is left behind.
func TestTabClosedOrReloadedMidGraphWork(t *testing.T) {
	test.NewTempApp(t)
	path := bigCNNFile(t, 20_000)
	for _, c := range []struct {
		name           string
		export, reload bool
	}{
		{"layout-close", false, false},
		{"layout-reload", false, true},
		{"export-close", true, false},
		{"export-reload", true, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			before := runtime.NumGoroutine()
			q := viewmodel.NewQueue()
			ws := viewmodel.NewWorkspace(q.Post, viewmodel.MemPrefs{})
			d := openPath(t, q, ws, path)
			win := test.NewTempWindow(t, nil)
			dt := &docTab{mw: &MainWindow{win: win, ws: ws}, doc: d}
			p := newGraphPane(dt)
			out := filepath.Join(t.TempDir(), "graph.png")
			if !q.Drain(func() bool { return !isClosed(p.ready) }, 60*time.Second) {
				t.Fatal("layout did not finish")
			}
			old := d.Doc
			// A reload replaces the document when its result is taken from
			// the queue: let the file be read again first, then start the
			// work, then let the reload land on it.
			if c.reload {
				task := ws.Reload(d, func(err error) {
					if err != nil {
						t.Error(err)
					}
				})
				for !task.Finished() {
					time.Sleep(time.Millisecond)
				}
			}
			reported := false
			if c.export {
				p.exportTo(out, func(string, error) { reported = true })
			} else {
				p.load()
			}
			if c.reload {
				q.Drain(func() bool { return false }, 0)
			}
			ws.Close(d)
			for _, doc := range []interface{ Unmapped() <-chan struct{} }{old, d.Doc} {
				select {
				case <-doc.Unmapped():
				case <-time.After(30 * time.Second):
					t.Fatal("the document was not unmapped")
				}
			}
			q.Drain(func() bool { return false }, 100*time.Millisecond)
			if !c.export && isClosed(p.ready) {
				t.Error("a layout finished and was shown after its tab closed")
			}
			if reported {
				t.Error("an export reported back after its tab closed")
			}
			if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("a cancelled export left %s (%v)", out, err)
			}
			waitGoroutines(t, before, 2*time.Second)
		})
	}
}

// openPath opens path in ws, running posted work on q.
func openPath(t *testing.T, q *viewmodel.Queue, ws *viewmodel.Workspace, path string) *viewmodel.Doc {
	t.Helper()
	var doc *viewmodel.Doc
	var err error
	done := false
	ws.Open(path, func(d *viewmodel.Doc, e error) { doc, err, done = d, e, true })
	if !q.Drain(func() bool { return !done }, 30*time.Second) {
		t.Fatal("opening timed out")
	}
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func isClosed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// waitGoroutines waits up to wait until no more than n goroutines run.
func waitGoroutines(t *testing.T, n int, wait time.Duration) {
	t.Helper()
	deadline := time.Now().Add(wait)
	for runtime.NumGoroutine() > n {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			buf = buf[:runtime.Stack(buf, true)]
			t.Fatalf("%d goroutines left behind, %d before:\n%s", runtime.NumGoroutine(), n, buf)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
