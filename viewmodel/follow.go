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
	watch    *folderWatch
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
	f := &Follower{dir: dir, post: post, next: next, rejected: map[string]int64{}}
	always := func(fsnotify.Event) bool { return true }
	f.watch = watchFolder(dir, followSettle, always, func() bool { return true }, f.check)
	f.watch.kick()
	return f, nil
}

var errNotFolder = errors.New("not a folder")

// Close stops following; nothing is reported after it returns on the
// goroutine post runs things on.
func (f *Follower) Close() { f.watch.Close() }

// check reports the newest model file if it is new and complete; a file
// still growing is looked at again after another pause.
func (f *Follower) check() {
	path, size, ok := newestModel(f.dir)
	f.mu.Lock()
	skip := !ok || path == f.current || f.rejected[path] == size
	f.mu.Unlock()
	if skip || f.watch.isClosed() {
		return
	}
	time.Sleep(followSettle) // the size must hold still
	if st, err := os.Stat(path); err != nil || st.Size() != size {
		f.watch.kick()
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
		if !f.watch.isClosed() {
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
