package viewmodel

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"

	"tensorscope/formats"
)

// followSettle is how long a folder must be quiet, and a file's size
// unchanged, before the newest file counts as completely written.
const followSettle = 700 * time.Millisecond

// Follower follows a training run's folder: it reports the newest model
// file in it once that file is completely written, and each newer one as
// it comes. A file counts as complete when its size has stopped changing
// and it decodes. Files are model files by their endings (the registered
// formats' usual extensions); the newest is the one modified last.
type Follower struct {
	dir  string
	post Poster
	next func(path string)

	mu       sync.Mutex
	current  string // the last file reported
	rejected map[string]int64
	timer    *time.Timer
	closed   bool
	fsw      *fsnotify.Watcher
	stop     chan struct{}
}

// FollowFolder starts following dir; next receives each newer complete
// file, through post. The newest file already there is reported first.
func FollowFolder(dir string, post Poster, next func(path string)) (*Follower, error) {
	st, err := os.Stat(dir)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		return nil, &os.PathError{Op: "follow", Path: dir, Err: errNotFolder}
	}
	f := &Follower{dir: dir, post: post, next: next, rejected: map[string]int64{}, stop: make(chan struct{})}
	if w, err := fsnotify.NewWatcher(); err == nil && w.Add(dir) == nil {
		f.fsw = w
		go f.events()
	} else {
		if w != nil {
			w.Close()
		}
		go f.poll()
	}
	f.kick()
	return f, nil
}

var errNotFolder = errors.New("not a folder")

// Close stops following; nothing is reported after it returns on the
// goroutine post runs things on.
func (f *Follower) Close() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		return
	}
	f.closed = true
	close(f.stop)
	if f.timer != nil {
		f.timer.Stop()
	}
	if f.fsw != nil {
		f.fsw.Close()
	}
}

func (f *Follower) events() {
	for {
		select {
		case _, ok := <-f.fsw.Events:
			if !ok {
				return
			}
			f.kick()
		case _, ok := <-f.fsw.Errors:
			if !ok {
				return
			}
		case <-f.stop:
			return
		}
	}
}

// poll stands in for file events where the system has none.
func (f *Follower) poll() {
	t := time.NewTicker(watchPoll)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			f.kick()
		case <-f.stop:
			return
		}
	}
}

// kick looks at the folder again once it has been quiet for followSettle.
func (f *Follower) kick() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		return
	}
	if f.timer != nil {
		f.timer.Stop()
	}
	f.timer = time.AfterFunc(followSettle, f.check)
}

// check reports the newest model file if it is new and complete; a file
// still growing is looked at again after another pause.
func (f *Follower) check() {
	path, size, ok := newestModel(f.dir)
	f.mu.Lock()
	if !ok || path == f.current || f.rejected[path] == size || f.closed {
		f.mu.Unlock()
		return
	}
	f.mu.Unlock()
	time.Sleep(followSettle) // the size must hold still
	if st, err := os.Stat(path); err != nil || st.Size() != size {
		f.kick()
		return
	}
	if !decodes(path) {
		f.mu.Lock()
		f.rejected[path] = size // not again until it changes
		f.mu.Unlock()
		return
	}
	f.mu.Lock()
	f.current = path
	f.mu.Unlock()
	f.post(func() {
		f.mu.Lock()
		closed := f.closed
		f.mu.Unlock()
		if !closed {
			f.next(path)
		}
	})
}

// decodes reports whether a file opens: a checkpoint cut short by a
// writer still at work does not.
func decodes(path string) bool {
	d, err := formats.Open(path)
	if err != nil {
		return false
	}
	d.Close()
	return true
}

// newestModel finds the model file in dir modified last (ties: the name
// that sorts last, so ckpt-2000 wins over ckpt-1000 written in the same
// second).
func newestModel(dir string) (path string, size int64, ok bool) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", 0, false
	}
	exts := SupportedExtensions()
	var best os.FileInfo
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".") || !slices.ContainsFunc(exts, func(x string) bool { return strings.HasSuffix(name, "."+x) }) {
			continue
		}
		info, err := e.Info()
		if err != nil || !info.Mode().IsRegular() {
			continue
		}
		if best == nil || info.ModTime().After(best.ModTime()) || (info.ModTime().Equal(best.ModTime()) && name > best.Name()) {
			best = info
		}
	}
	if best == nil {
		return "", 0, false
	}
	return filepath.Join(dir, best.Name()), best.Size(), true
}
