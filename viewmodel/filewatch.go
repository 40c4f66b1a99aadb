package viewmodel

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"

	"tensorscope/formats"
	"tensorscope/viewmodel/textfmt"
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
		return fmt.Sprintf("%s was truncated on disk (now %s, was %s): values past its end cannot be read", name, textfmt.Bytes(c.Size), textfmt.Bytes(c.WasSize))
	}
	return name + " changed on disk"
}

// watchSettle is how long a file must stay quiet before a change is
// reported: a checkpoint being written produces a burst of events.
const watchSettle = 300 * time.Millisecond

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

	mu    sync.Mutex
	last  os.FileInfo // what the poll saw
	watch *folderWatch
}

// WatchFile starts watching path, whose size was wasSize when it was
// opened; changed receives each settled change on the goroutine post runs
// things on. Close stops it.
func WatchFile(path string, wasSize int64, post Poster, changed func(FileChange)) *FileWatcher {
	w := &FileWatcher{path: path, wasSize: wasSize, post: post, changed: changed}
	if formats.IsRemote(path) {
		return w // a remote file is not watched: F5 reads it again
	}
	w.last, _ = os.Stat(path) // a file already gone is reported on the first event or poll
	clean := filepath.Clean(path)
	matters := func(ev fsnotify.Event) bool {
		return filepath.Clean(ev.Name) == clean && !ev.Has(fsnotify.Chmod)
	}
	w.watch = watchFolder(filepath.Dir(path), watchSettle, matters, w.statChanged, w.report)
	return w
}

// Close stops the watcher; no change is reported after it returns on the
// goroutine post runs things on.
func (w *FileWatcher) Close() {
	if w.watch != nil {
		w.watch.Close()
	}
}

// statChanged is the poll: whether the file's existence, size or time
// differs from the last look.
func (w *FileWatcher) statChanged() bool {
	st, err := os.Stat(w.path)
	w.mu.Lock()
	defer w.mu.Unlock()
	differs := (err != nil) != (w.last == nil) ||
		(err == nil && (st.Size() != w.last.Size() || !st.ModTime().Equal(w.last.ModTime())))
	w.last = nil
	if err == nil {
		w.last = st
	}
	return differs
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
		if !w.watch.isClosed() {
			w.changed(c)
		}
	})
}
