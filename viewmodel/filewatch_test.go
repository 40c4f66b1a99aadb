package viewmodel

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// waitChange drains q until the watcher reports, or fails after timeout.
func waitChange(t *testing.T, q *Queue, got *[]FileChange, want int, timeout time.Duration) FileChange {
	t.Helper()
	if !q.Drain(func() bool { return len(*got) < want }, timeout) || len(*got) < want {
		t.Fatalf("no change reported within %v (have %d)", timeout, len(*got))
	}
	return (*got)[want-1]
}

func TestFileWatcherSeesWritesTruncationReplacementAndRemoval(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "ckpt.pt")
	if err := os.WriteFile(path, make([]byte, 4096), 0o644); err != nil {
		t.Fatal(err)
	}
	q := NewQueue()
	var got []FileChange
	w := WatchFile(path, 4096, q.Post, func(c FileChange) { got = append(got, c) })
	defer w.Close()

	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.Write(make([]byte, 100))
	f.Close()
	if c := waitChange(t, q, &got, 1, 5*time.Second); c.Size != 4196 || c.Truncated || c.Gone {
		t.Errorf("after an append: %+v", c)
	}

	if err := os.Truncate(path, 10); err != nil {
		t.Fatal(err)
	}
	if c := waitChange(t, q, &got, 2, 5*time.Second); !c.Truncated || c.Size != 10 {
		t.Errorf("after truncation: %+v (%s)", c, c)
	}

	// A training job writes the next checkpoint beside it and renames it over.
	tmp := filepath.Join(dir, "ckpt.pt.tmp")
	if err := os.WriteFile(tmp, make([]byte, 8192), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
	if c := waitChange(t, q, &got, 3, 5*time.Second); c.Size != 8192 || c.Truncated {
		t.Errorf("after a rename over it: %+v", c)
	}

	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if c := waitChange(t, q, &got, 4, 5*time.Second); !c.Gone {
		t.Errorf("after removal: %+v", c)
	}
	if s := (FileChange{Path: path, Gone: true}).String(); s != "ckpt.pt was removed from disk" {
		t.Errorf("text %q", s)
	}
}

// Where there are no file events the watcher polls; a burst of writes is
// reported once, after it settles.
func TestFileWatcherPollsAndSettles(t *testing.T) {
	path := filepath.Join(t.TempDir(), "model.safetensors")
	if err := os.WriteFile(path, make([]byte, 64), 0o644); err != nil {
		t.Fatal(err)
	}
	q := NewQueue()
	var got []FileChange
	w := &FileWatcher{path: path, wasSize: 64, post: q.Post, changed: func(c FileChange) { got = append(got, c) }}
	w.last, _ = os.Stat(path)
	w.watch = &folderWatch{settle: watchSettle, fire: w.report, stop: make(chan struct{})}
	go w.watch.polling(w.statChanged) // as watchFolder does without file events
	defer w.Close()
	if err := os.WriteFile(path, make([]byte, 32), 0o644); err != nil {
		t.Fatal(err)
	}
	if c := waitChange(t, q, &got, 1, 3*watchPoll); !c.Truncated || c.Size != 32 {
		t.Errorf("polled change: %+v", c)
	}
	w.Close()
	time.Sleep(watchSettle * 2)
	q.Drain(func() bool { return false }, time.Millisecond)
	if len(got) != 1 {
		t.Errorf("%d changes reported, want 1", len(got))
	}
}
