package ui

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"tensorscope/internal/remote/remotetest"
	"tensorscope/internal/samples"
	"tensorscope/viewmodel"
)

func TestOpenURLValidates(t *testing.T) {
	for _, ok := range []string{"https://h.example/m.safetensors", " http://h/x.gguf ", "hf://org/repo/m.safetensors"} {
		if err := validateURL(ok); err != nil {
			t.Errorf("%q refused: %v", ok, err)
		}
	}
	for _, bad := range []string{"", "/tmp/m.safetensors", "ftp://h/x", "model.gguf"} {
		if validateURL(bad) == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// File ▸ Open URL… opens a file served over HTTP in a new tab.
func TestOpenURLOpensATab(t *testing.T) {
	a := test.NewTempApp(t)
	path := filepath.Join(samples.Dir(t, "tmfile"), "tengine_mnist.tmfile")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := remotetest.New("")
	defer s.Close()
	s.Files["mnist.tmfile"] = data
	mw := NewMainWindow(a, Options{})
	// Results come through a queue drained here, on the test's goroutine
	// (the test driver's fyne.Do would run them on the task's).
	q := viewmodel.NewQueue()
	mw.post = q.Post
	mw.ws = viewmodel.NewWorkspace(q.Post, a.Preferences())
	found := false
	for _, m := range mw.mainMenu().Items[0].Items {
		found = found || m.Label == "Open URL…"
	}
	if !found {
		t.Fatal("no File ▸ Open URL…")
	}
	mw.openURLDialog()
	entry, ok := mw.win.Canvas().Focused().(*widget.Entry)
	if !ok {
		t.Fatal("the URL entry does not have the focus")
	}
	test.Type(entry, s.URLOf("mnist.tmfile"))
	entry.OnSubmitted(entry.Text)
	loaded := func() bool { return len(mw.docTabs) == 1 && mw.docTabs[0].doc != nil }
	if !q.Drain(func() bool { return !loaded() }, 30*time.Second) {
		t.Fatal("the remote file's tab did not open")
	}
	if got := mw.docTabs[0].doc.Doc.Format; got != "tmfile" {
		t.Errorf("format %q", got)
	}
}
