package viewmodel

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"tensorscope/formats"
	"tensorscope/tensor"
)

// Poster runs f on the UI goroutine. The ui package passes fyne.Do; tests
// pass a queue they drain themselves.
type Poster func(f func())

// Progress reports how much of a task is done; both are counts of the same
// unit (elements, bytes). It may be called from several goroutines. It is
// the tensor core's progress type, so tasks pass it straight through.
type Progress = tensor.ProgressFunc

// Task is background work that can be cancelled. Its results and progress
// reach the UI goroutine through the Poster it was started with, and never
// after Cancel returns on the UI goroutine.
type Task struct {
	cancel    context.CancelFunc
	cancelled atomic.Bool
	done      chan struct{}
}

// progressInterval bounds how often progress is posted to the UI.
const progressInterval = 50 * time.Millisecond

// StartTask runs work on a new goroutine on behalf of doc (nil for work
// that reads no document, such as opening one), through doc.Go: the
// document is acquired before StartTask returns and released when work
// returns (see formats.Document.Acquire), so closing the document cancels work and
// unmaps nothing under it; work runs under tensor.CatchFault, so a file
// truncated on disk gives tensor.ErrFault. onProgress (may be nil)
// receives a fraction in [0,1] at most every 50 ms; onDone receives the
// result unless the task was cancelled first (a closed document gives
// formats.ErrClosed). Both run through post.
func StartTask[T any](post Poster, doc *formats.Document, work func(ctx context.Context, progress Progress) (T, error),
	onProgress func(frac float64), onDone func(T, error)) *Task {
	ctx, cancel := context.WithCancel(context.Background())
	t := &Task{cancel: cancel, done: make(chan struct{})}
	report := t.progressReporter(post, onProgress)
	var v T
	run := func(ctx context.Context) (err error) {
		v, err = work(ctx, report)
		return err
	}
	finish := func(err error) {
		defer close(t.done)
		cancel()
		t.deliver(post, func() { onDone(v, err) })
	}
	if doc == nil {
		go func() { finish(tensor.CatchFault(func() error { return run(ctx) })) }()
		return t
	}
	if err := doc.Go(ctx, run, finish); err != nil {
		finish(err) // the document is closed: nothing ran
	}
	return t
}

// deliver posts f unless the task is cancelled before it runs.
func (t *Task) deliver(post Poster, f func()) {
	if t.cancelled.Load() {
		return
	}
	post(func() {
		if !t.cancelled.Load() {
			f()
		}
	})
}

// progressReporter posts progress fractions, at most one per
// progressInterval (and always the last), until the task is cancelled.
func (t *Task) progressReporter(post Poster, onProgress func(frac float64)) Progress {
	var mu sync.Mutex
	var last time.Time
	return func(done, total int64) {
		if onProgress == nil || total <= 0 || t.cancelled.Load() {
			return
		}
		mu.Lock()
		now := time.Now()
		if now.Sub(last) < progressInterval && done < total {
			mu.Unlock()
			return
		}
		last = now
		mu.Unlock()
		frac := float64(done) / float64(total)
		t.deliver(post, func() { onProgress(frac) })
	}
}

// Cancel stops the task; its onDone will not run. Safe on a nil Task.
func (t *Task) Cancel() {
	if t == nil {
		return
	}
	t.cancelled.Store(true)
	t.cancel()
}

// Finished reports whether the work function has returned.
func (t *Task) Finished() bool {
	select {
	case <-t.done:
		return true
	default:
		return false
	}
}

// Wait blocks until the work function has returned (tests).
func (t *Task) Wait() {
	if t != nil {
		<-t.done
	}
}

// Queue is a Poster for code that owns its "UI goroutine" itself — tests
// and headless rendering: posted functions wait in the queue until Drain
// runs them on the caller's goroutine.
type Queue struct {
	mu   sync.Mutex
	cond *sync.Cond
	fns  []func()
}

// NewQueue returns an empty queue.
func NewQueue() *Queue {
	q := &Queue{}
	q.cond = sync.NewCond(&q.mu)
	return q
}

// Post queues f; it is the Queue's Poster.
func (q *Queue) Post(f func()) {
	q.mu.Lock()
	q.fns = append(q.fns, f)
	q.mu.Unlock()
	q.cond.Broadcast()
}

// Drain runs queued functions on the calling goroutine until busy reports
// false with nothing queued, or until timeout; it reports whether it
// finished in time.
func (q *Queue) Drain(busy func() bool, timeout time.Duration) bool {
	deadline := time.Now().Add(timeout)
	for {
		q.mu.Lock()
		for len(q.fns) == 0 && busy() {
			if time.Now().After(deadline) {
				q.mu.Unlock()
				return false
			}
			// Wake up now and then: busy may turn false without a post.
			// The wake-up takes the lock, so it cannot fire between here
			// and Wait (which holds the lock until it is waiting) and be
			// lost, leaving Wait asleep for good.
			timer := time.AfterFunc(5*time.Millisecond, func() {
				q.mu.Lock()
				q.cond.Broadcast()
				q.mu.Unlock()
			})
			q.cond.Wait()
			timer.Stop()
		}
		fns := q.fns
		q.fns = nil
		q.mu.Unlock()
		if len(fns) == 0 {
			return true
		}
		for _, f := range fns {
			f()
		}
	}
}
