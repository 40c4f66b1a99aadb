//go:build unix

package idlecheck_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"

	"tensorscope/formats/tmfile"
	"tensorscope/formats/tmfile/synth"
	"tensorscope/ui"
)

var testApp fyne.App

// TestMain runs the tests beside the OpenGL driver's event loop, which must
// own the main thread.
func TestMain(m *testing.M) {
	if os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
		fmt.Println("idlecheck: no display; skipping the real-window tests (make test runs them under Xvfb)")
		os.Exit(0)
	}
	// Keep the recent-files list of these runs out of the user's preferences.
	cfg, err := os.MkdirTemp("", "tensorscope-idlecheck")
	if err != nil {
		fmt.Println(err)
		os.Exit(1)
	}
	os.Setenv("XDG_CONFIG_HOME", cfg)
	testApp = app.NewWithID("io.github.tensorscope.idlecheck")
	// The app quits when its last window closes; this one, never shown,
	// outlives each test's window.
	testApp.NewWindow("keep alive")
	code := 1
	go func() {
		defer fyne.Do(testApp.Quit)
		code = m.Run()
	}()
	testApp.Run()
	os.RemoveAll(cfg)
	os.Exit(code)
}

// idleLimit is the share of one core an idle window may use. The issue
// asks for under 1% in the real viewer; the test allows more because it
// shares the machine with other tests, while a refresh loop costs 40–70%.
const idleLimit = 0.10

// TestIdleAfterHandover opens files the way a second launch hands them over
// — into a window that is already drawing, so each tab shows its "Opening…"
// progress first — and then requires the idle window to stop using the CPU.
func TestIdleAfterHandover(t *testing.T) {
	paths := writeModels(t, 3)
	incoming := make(chan []string, len(paths))
	defer close(incoming)
	var mw *ui.MainWindow
	fyne.DoAndWait(func() {
		mw = ui.NewMainWindow(testApp, ui.Options{AppID: "io.github.tensorscope.idlecheck"})
		mw.Window().Resize(fyne.NewSize(1024, 700))
		mw.Start()
		mw.ServeHandover(incoming)
	})
	defer fyne.DoAndWait(func() { mw.Window().Close() })
	time.Sleep(500 * time.Millisecond) // the window is on screen and drawing
	for _, p := range paths {
		incoming <- []string{p}
		waitForTitle(t, mw, filepath.Base(p))
	}
	share, ok := settlesBelow(idleLimit, time.Second, 10)
	if !ok {
		t.Fatalf("the idle window with %d handed-over tabs keeps using %.0f%% of a core (limit %.0f%%): something keeps redrawing",
			len(paths), 100*share, 100*idleLimit)
	}
	t.Logf("idle window: %.1f%% of a core over a second", 100*share)
}

// writeModels writes n synthetic models big enough that decoding them takes
// longer than a frame, so their "Opening…" tabs are drawn.
func writeModels(t *testing.T, n int) []string {
	dir := t.TempDir()
	var out []string
	for i := 0; i < n; i++ {
		var buf bytes.Buffer
		if err := tmfile.Encode(&buf, synth.CNN(600, true)); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, fmt.Sprintf("model%d.tmfile", i))
		if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		out = append(out, p)
	}
	return out
}

// waitForTitle waits until the window's title names the file, which the
// viewer sets once the file is open.
func waitForTitle(t *testing.T, mw *ui.MainWindow, name string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		var title string
		fyne.DoAndWait(func() { title = mw.Window().Title() })
		if strings.HasPrefix(title, name) {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("%s did not open within 30 s", name)
}

// settlesBelow measures this process's CPU time over consecutive windows of
// length span and reports the first share of a core below limit; after
// tries windows without one it reports the smallest share seen. Background
// work that finishes (layout, statistics) is allowed to end first.
func settlesBelow(limit float64, span time.Duration, tries int) (float64, bool) {
	least := 1e9
	for i := 0; i < tries; i++ {
		c0, w0 := cpuTime(), time.Now()
		time.Sleep(span)
		share := float64(cpuTime()-c0) / float64(time.Since(w0))
		if share < limit {
			return share, true
		}
		least = min(least, share)
	}
	return least, false
}

// cpuTime is the user and system time this process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
