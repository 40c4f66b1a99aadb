package viewmodel

import (
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
)

// watchPoll is how often the fallback, where inotify is unavailable, looks
// at the disk.
const watchPoll = 2 * time.Second

// folderWatch is the machinery FileWatcher and Follower share: it watches
// one folder and calls fire once the folder has been quiet for settle after
// an event that matters. Watching the folder, not a file, sees a file
// replaced by a rename (how training jobs write checkpoints) as well as one
// written in place. Where the system has no file events it asks poll every
// watchPoll whether something changed instead.
type folderWatch struct {
	settle time.Duration
	fire   func()

	mu     sync.Mutex
	timer  *time.Timer
	closed bool
	stop   chan struct{}
	fsw    *fsnotify.Watcher
}

// watchFolder starts watching dir: matters says which events count, poll
// stands in for events where there are none. fire runs on a goroutine of
// its own.
func watchFolder(dir string, settle time.Duration, matters func(fsnotify.Event) bool, poll func() bool, fire func()) *folderWatch {
	w := &folderWatch{settle: settle, fire: fire, stop: make(chan struct{})}
	fsw, err := fsnotify.NewWatcher()
	if err == nil {
		if err = fsw.Add(dir); err != nil {
			fsw.Close()
		}
	}
	if err != nil {
		go w.polling(poll)
		return w
	}
	w.fsw = fsw
	go w.events(matters)
	return w
}

func (w *folderWatch) events(matters func(fsnotify.Event) bool) {
	for {
		select {
		case ev, ok := <-w.fsw.Events:
			if !ok {
				return
			}
			if matters(ev) {
				w.kick()
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

func (w *folderWatch) polling(changed func() bool) {
	t := time.NewTicker(watchPoll)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			if changed() {
				w.kick()
			}
		case <-w.stop:
			return
		}
	}
}

// kick (re)starts the quiet period after which fire runs.
func (w *folderWatch) kick() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return
	}
	if w.timer != nil {
		w.timer.Stop()
	}
	w.timer = time.AfterFunc(w.settle, w.fire)
}

// isClosed reports whether Close has been called: a report made on
// another goroutine checks it where it is delivered.
func (w *folderWatch) isClosed() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.closed
}

// Close stops watching; fire is not started again.
func (w *folderWatch) Close() {
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
