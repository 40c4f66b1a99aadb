package viewmodel

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

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

// running counts tasks whose work function has not returned, cancelled
// ones included: a cancelled task may still be reading a mapped file for a
// moment, and headless rendering must know when everything has settled.
var running atomic.Int64

// RunningTasks is the number of started tasks whose work has not returned
// yet, cancelled ones included. A task's result is posted before it stops
// counting, so once this is zero every result is in its Poster's hands.
func RunningTasks() int64 { return running.Load() }

// progressInterval bounds how often progress is posted to the UI.
const progressInterval = 50 * time.Millisecond

// StartTask runs work on a new goroutine. onProgress (may be nil) receives a
// fraction in [0,1] at most every 50 ms; onDone receives the result unless
// the task was cancelled first. Both run through post.
func StartTask[T any](post Poster, work func(ctx context.Context, progress Progress) (T, error),
	onProgress func(frac float64), onDone func(T, error)) *Task {
	ctx, cancel := context.WithCancel(context.Background())
	t := &Task{cancel: cancel, done: make(chan struct{})}
	var mu sync.Mutex
	var last time.Time
	report := func(done, total int64) {
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
		post(func() {
			if !t.cancelled.Load() {
				onProgress(frac)
			}
		})
	}
	running.Add(1)
	go func() {
		defer running.Add(-1) // last: after the result was posted
		defer close(t.done)
		defer cancel()
		v, err := work(ctx, report)
		if t.cancelled.Load() {
			return
		}
		post(func() {
			if !t.cancelled.Load() {
				onDone(v, err)
			}
		})
	}()
	return t
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
			timer := time.AfterFunc(5*time.Millisecond, q.cond.Broadcast)
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
