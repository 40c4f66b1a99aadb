package viewmodel

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"

	"tensorscope/formats"
)

// FileChange says how an open file changed on disk.
type FileChange struct {
	Path      string
	Gone      bool  // removed (or renamed away) and not replaced
	Size      int64 // its size now
	WasSize   int64 // its size when it was opened
	Truncated bool  // now shorter than when it was opened: its mapped tail is unreadable
}

// String is the strip's text: "model.pt changed on disk", "… was
// truncated on disk (now 12 bytes, was 4,096)", "… was removed".
func (c FileChange) String() string {
	name := filepath.Base(c.Path)
	switch {
	case c.Gone:
		return name + " was removed from disk"
	case c.Truncated:
		return fmt.Sprintf("%s was truncated on disk (now %s, was %s): values past its end cannot be read", name, FormatBytes(c.Size), FormatBytes(c.WasSize))
	}
	return name + " changed on disk"
}

// watchSettle is how long a file must stay quiet before a change is
// reported: a checkpoint being written produces a burst of events.
const watchSettle = 300 * time.Millisecond

// watchPoll is how often the fallback, where inotify is unavailable, looks
// at the file.
const watchPoll = 2 * time.Second

// FileWatcher reports, through post, each settled change of one file on
// disk. It watches the file's folder, so that a file replaced by a rename
// (how training jobs write checkpoints) is seen as well as one written in
// place; where the system has no file events it polls the file's size and
// time instead.
type FileWatcher struct {
	path    string
	wasSize int64
	post    Poster
	changed func(FileChange)

	mu     sync.Mutex
	timer  *time.Timer
	last   os.FileInfo // what the poll saw
	closed bool
	stop   chan struct{}
	fsw    *fsnotify.Watcher
}

// WatchFile starts watching path, whose size was wasSize when it was
// opened; changed receives each settled change on the goroutine post runs
// things on. Close stops it.
func WatchFile(path string, wasSize int64, post Poster, changed func(FileChange)) *FileWatcher {
	w := &FileWatcher{path: path, wasSize: wasSize, post: post, changed: changed, stop: make(chan struct{})}
	if formats.IsRemote(path) {
		return w // a remote file is not watched: F5 reads it again
	}
	w.last, _ = os.Stat(path) // a file already gone is reported on the first event or poll
	fsw, err := fsnotify.NewWatcher()
	if err == nil {
		err = fsw.Add(filepath.Dir(path))
		if err != nil {
			fsw.Close()
		}
	}
	if err != nil {
		go w.poll()
		return w
	}
	w.fsw = fsw
	go w.events()
	return w
}

// Close stops the watcher; no change is reported after it returns on the
// goroutine post runs things on.
func (w *FileWatcher) Close() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return
	}
	w.closed = true
	close(w.stop)
	if w.timer != nil {
		w.timer.Stop()
	}
	if w.fsw != nil {
		w.fsw.Close()
	}
}

func (w *FileWatcher) events() {
	for {
		select {
		case ev, ok := <-w.fsw.Events:
			if !ok {
				return
			}
			if filepath.Clean(ev.Name) == filepath.Clean(w.path) && !ev.Has(fsnotify.Chmod) {
				w.settle()
			}
		case _, ok := <-w.fsw.Errors:
			if !ok {
				return
			}
		case <-w.stop:
			return
		}
	}
}

func (w *FileWatcher) poll() {
	t := time.NewTicker(watchPoll)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			st, err := os.Stat(w.path)
			w.mu.Lock()
			differs := (err != nil) != (w.last == nil) ||
				(err == nil && (st.Size() != w.last.Size() || !st.ModTime().Equal(w.last.ModTime())))
			if err == nil {
				w.last = st
			} else {
				w.last = nil
			}
			w.mu.Unlock()
			if differs {
				w.settle()
			}
		case <-w.stop:
			return
		}
	}
}

// settle reports the change once the file has been quiet for watchSettle.
func (w *FileWatcher) settle() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return
	}
	if w.timer != nil {
		w.timer.Stop()
	}
	w.timer = time.AfterFunc(watchSettle, w.report)
}

func (w *FileWatcher) report() {
	c := FileChange{Path: w.path, WasSize: w.wasSize}
	if st, err := os.Stat(w.path); err != nil {
		c.Gone = true
	} else {
		c.Size = st.Size()
		c.Truncated = c.Size < w.wasSize
	}
	w.post(func() {
		w.mu.Lock()
		closed := w.closed
		w.mu.Unlock()
		if !closed {
			w.changed(c)
		}
	})
}
