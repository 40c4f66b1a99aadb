package tensor

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
)

// Long computations split the elements into at most maxChunks chunks that
// workers (one per GOMAXPROCS) take in turn. Each chunk's partial result is
// stored by chunk index and merged in chunk order, so results do not depend
// on scheduling or on the number of cores. Within a chunk, work proceeds in
// steps of cancelStep elements, between which the context is checked and
// progress is reported.
const (
	maxChunks  = 256
	minChunk   = 1 << 16
	cancelStep = 1 << 16
)

// ProgressFunc receives the number of elements processed so far and the
// total (for two-pass operations, twice the element count). It is called
// from worker goroutines, possibly concurrently and so not always in
// increasing order, at most 100 times per operation (once per percent), and
// must be cheap and goroutine-safe. If the work completes, one call has
// done == total.
type ProgressFunc func(done, total int64)

// chunkPlan divides n elements into equal chunks of whole steps.
type chunkPlan struct {
	n, size int64
	count   int
}

func planChunks(n int64) chunkPlan {
	size := max((n+maxChunks-1)/maxChunks, minChunk)
	size = (size + cancelStep - 1) / cancelStep * cancelStep
	return chunkPlan{n: n, size: size, count: int((n + size - 1) / size)}
}

func (p chunkPlan) bounds(c int) (lo, hi int64) {
	lo = int64(c) * p.size
	return lo, min(lo+p.size, p.n)
}

// progressMeter throttles a ProgressFunc to one call per percent
// completed.
type progressMeter struct {
	fn    ProgressFunc
	total int64
	done  atomic.Int64
	pct   atomic.Int64
}

func newProgressMeter(fn ProgressFunc, total int64) *progressMeter {
	return &progressMeter{fn: fn, total: total}
}

func (m *progressMeter) add(k int64) {
	if m == nil || m.fn == nil || m.total <= 0 {
		return
	}
	d := m.done.Add(k)
	p := d * 100 / m.total
	for {
		old := m.pct.Load()
		if p <= old {
			return
		}
		if m.pct.CompareAndSwap(old, p) {
			m.fn(d, m.total)
			return
		}
	}
}

// parallel runs work(c) for every chunk c in [0, count) on up to GOMAXPROCS
// goroutines. newWorker is called once per goroutine to set up its scratch
// state and returns the per-chunk function. The first error (a cancelled
// context, normally) stops further chunks and is returned.
func parallel(ctx context.Context, count int, newWorker func() func(c int) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	workers := min(runtime.GOMAXPROCS(0), count)
	if workers <= 1 {
		return CatchFault(func() error {
			work := newWorker()
			for c := range count {
				if err := work(c); err != nil {
					return err
				}
			}
			return nil
		})
	}
	var (
		next    atomic.Int64
		stop    atomic.Bool
		errOnce sync.Once
		first   error
		wg      sync.WaitGroup
	)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := CatchFault(func() error {
				work := newWorker()
				for !stop.Load() {
					c := int(next.Add(1) - 1)
					if c >= count {
						return nil
					}
					if err := work(c); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				errOnce.Do(func() { first = err })
				stop.Store(true)
			}
		}()
	}
	wg.Wait()
	return first
}

// steps calls fn on consecutive sub-ranges of [lo, hi) of at most
// cancelStep elements, checking ctx before each and reporting progress
// after each.
func steps(ctx context.Context, lo, hi int64, meter *progressMeter, fn func(lo, hi int64)) error {
	for lo < hi {
		if err := ctx.Err(); err != nil {
			return err
		}
		end := min(lo+cancelStep, hi)
		fn(lo, end)
		meter.add(end - lo)
		lo = end
	}
	return nil
}
