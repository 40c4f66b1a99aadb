package remote

import (
	"container/list"
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"
)

// BlockSize is the unit of fetching and caching: a fault fetches at
// least one block, and the cache drops whole blocks.
const BlockSize = 64 << 10

// Fetches of a range are split into pieces of at most pieceSize bytes,
// fetched by up to parallelPieces requests at a time.
const (
	pieceSize      = 8 << 20
	parallelPieces = 8
)

// ErrCacheFull: the bytes a reader needs at once do not fit in the cache
// beside the ranges other readers are using.
var ErrCacheFull = errors.New("the remote cache is full")

// DefaultCacheLimit is the cache's budget unless SetCacheLimit or
// TENSORSCOPE_REMOTE_CACHE say otherwise.
const DefaultCacheLimit = 1 << 30

// CacheEnv names the environment variable that sets the cache's budget:
// bytes, or a number with K, M, G (binary units).
const CacheEnv = "TENSORSCOPE_REMOTE_CACHE"

// The cache: every window's fetched blocks, as extents (the blocks of one
// fetch), least recently used last.
var cache = struct {
	sync.Mutex
	lru    list.List // of *extent
	bytes  int64     // fetched bytes held
	pinned int64     // of which pinned
	limit  int64
}{limit: envLimit()}

func envLimit() int64 {
	if v := os.Getenv(CacheEnv); v != "" {
		if n, err := ParseSize(v); err == nil && n > 0 {
			return n
		}
	}
	return DefaultCacheLimit
}

// ParseSize reads a byte count: "1073741824", "512M", "2G", "64K".
func ParseSize(s string) (int64, error) {
	s = strings.TrimSpace(strings.TrimSuffix(strings.TrimSuffix(strings.ToUpper(s), "B"), "I"))
	mult := int64(1)
	if s != "" {
		switch s[len(s)-1] {
		case 'K':
			mult = 1 << 10
		case 'M':
			mult = 1 << 20
		case 'G':
			mult = 1 << 30
		case 'T':
			mult = 1 << 40
		}
		if mult > 1 {
			s = s[:len(s)-1]
		}
	}
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil || n < 0 || n > (1<<62)/mult {
		return 0, fmt.Errorf("%q is not a size in bytes (such as 1073741824, 512M or 2G)", s)
	}
	return n * mult, nil
}

// SetCacheLimit sets the budget of fetched bytes held in memory for all
// remote files together.
func SetCacheLimit(n int64) {
	cache.Lock()
	cache.limit = n
	cache.Unlock()
}

// CacheLimit returns the budget.
func CacheLimit() int64 {
	cache.Lock()
	defer cache.Unlock()
	return cache.limit
}

// CachedBytes returns the fetched bytes currently held.
func CachedBytes() int64 {
	cache.Lock()
	defer cache.Unlock()
	return cache.bytes
}

type extent struct {
	w      *Window
	off, n int64 // bytes; off is a multiple of BlockSize
	pins   int
	elem   *list.Element
}

// Window is a remote file mapped into memory (see the package comment).
type Window struct {
	File *File
	reg  *region
	data []byte

	fetchMu sync.Mutex        // one fetch per window at a time
	owner   map[int64]*extent // by block; under cache's lock
	closed  bool              // under cache's lock
	faults  atomic.Int64      // faults served (growing fetch sizes)
}

var windows = struct {
	sync.Mutex
	list []*Window
}{}

// OpenWindow makes the file's first request and maps the file: the first
// block is readable, the rest faults until fetched.
func OpenWindow(ctx context.Context, t *Target, opts *Options) (*Window, error) {
	f, first, err := Open(ctx, t, BlockSize, opts)
	if err != nil {
		return nil, err
	}
	w := &Window{File: f, owner: map[int64]*extent{}}
	switch {
	case f.whole != nil:
		w.data = f.whole
		return w, nil
	case f.size == 0:
		w.data = []byte{}
		return w, nil
	}
	if w.reg, err = newRegion(f.size); err != nil {
		return nil, err
	}
	w.data = w.reg.mem
	if err := w.store(0, first, false); err != nil {
		w.reg.close()
		return nil, err
	}
	windows.Lock()
	windows.list = append(windows.list, w)
	windows.Unlock()
	return w, nil
}

// Bytes is the file's bytes: reading a block not fetched yet faults.
func (w *Window) Bytes() []byte { return w.data }

// Size is the file's size.
func (w *Window) Size() int64 { return w.File.size }

// WindowAt returns the open window whose bytes hold addr, and addr's
// offset in the file.
func WindowAt(addr uintptr) (*Window, int64, bool) {
	windows.Lock()
	defer windows.Unlock()
	for _, w := range windows.list {
		base := uintptr(unsafe.Pointer(unsafe.SliceData(w.data)))
		if addr >= base && addr < base+uintptr(len(w.data)) {
			return w, int64(addr - base), true
		}
	}
	return nil, 0, false
}

// Close unmaps the window and drops its blocks from the cache.
func (w *Window) Close() error {
	windows.Lock()
	for i, x := range windows.list {
		if x == w {
			windows.list = append(windows.list[:i], windows.list[i+1:]...)
			break
		}
	}
	windows.Unlock()
	cache.Lock()
	w.closed = true
	for _, e := range w.owner {
		if e.elem != nil {
			cache.lru.Remove(e.elem)
			e.elem = nil
			cache.bytes -= e.n
			if e.pins > 0 {
				cache.pinned -= e.n
			}
		}
	}
	w.owner = nil
	cache.Unlock()
	if w.reg == nil {
		return nil
	}
	return w.reg.close()
}

// Present reports whether bytes [off, off+n) are all fetched.
func (w *Window) Present(off, n int64) bool {
	if w.reg == nil {
		return true
	}
	cache.Lock()
	defer cache.Unlock()
	for b := off / BlockSize; b*BlockSize < off+n; b++ {
		if w.owner[b] == nil {
			return false
		}
	}
	return true
}

// FetchFault fetches the bytes around off, where a read faulted: from
// off's block on, 64 KiB for the first fault of the window, then four
// times more for the next ones up to 1 MiB (a header parsed forward
// needs few requests, and never more than 1 MiB is read past what it
// needs). It fails when off is already fetched (the fault
// was not for want of bytes).
func (w *Window) FetchFault(ctx context.Context, off int64) error {
	if w.reg == nil || off < 0 || off >= w.File.size {
		return fmt.Errorf("a fault at byte %d of %s is not for want of fetched bytes", off, w.File.Target)
	}
	if w.Present(off, 1) {
		return fmt.Errorf("a fault at byte %d of %s, which is fetched", off, w.File.Target)
	}
	k := min(w.faults.Add(1)-1, 2)
	n := int64(BlockSize) << (2 * k)
	start := off / BlockSize * BlockSize
	unpin, err := w.Ensure(ctx, start, min(n, w.File.size-start), nil)
	if err != nil {
		return err
	}
	unpin()
	return nil
}

// Ensure fetches whatever of bytes [off, off+n) is not fetched yet, in
// parallel pieces, calling progress (may be nil) with the bytes received
// of those missing, and pins the range: its blocks stay until unpin is
// called. It fails with ErrCacheFull when the missing bytes do not fit
// beside the pinned ones.
func (w *Window) Ensure(ctx context.Context, off, n int64, progress func(done, total int64)) (unpin func(), err error) {
	if w.reg == nil || n <= 0 {
		return func() {}, nil
	}
	if off < 0 || off+n > w.File.size {
		return nil, fmt.Errorf("%s: bytes [%d, %d) lie outside the %d-byte file", w.File.Target, off, off+n, w.File.size)
	}
	w.fetchMu.Lock()
	defer w.fetchMu.Unlock()
	first, last := off/BlockSize, (off+n-1)/BlockSize
	pins, missing, err := w.pinAndPlan(first, last)
	if err != nil {
		return nil, err
	}
	unpinAll := func() { w.unpin(pins) }
	var total int64
	for _, m := range missing {
		total += m.n
	}
	if total > 0 {
		if err := w.fetch(ctx, missing, total, progress, &pins); err != nil {
			unpinAll()
			return nil, err
		}
	}
	var once sync.Once
	return func() { once.Do(func() { w.unpin(pins) }) }, nil
}

type piece struct{ off, n int64 }

// pinAndPlan pins the fetched extents over blocks [first, last], makes
// room for the missing ones and returns them as pieces.
func (w *Window) pinAndPlan(first, last int64) ([]*extent, []piece, error) {
	cache.Lock()
	defer cache.Unlock()
	if w.closed {
		return nil, nil, fmt.Errorf("%s: closed", w.File.Target)
	}
	var pins []*extent
	var missing []piece
	var need int64
	for b := first; b <= last; b++ {
		if e := w.owner[b]; e != nil {
			if len(pins) == 0 || pins[len(pins)-1] != e {
				pin(e)
				pins = append(pins, e)
			}
			continue
		}
		boff := b * BlockSize
		bn := min(int64(BlockSize), w.File.size-boff)
		if k := len(missing) - 1; k >= 0 && missing[k].off+missing[k].n == boff && missing[k].n+bn <= pieceSize {
			missing[k].n += bn
		} else {
			missing = append(missing, piece{boff, bn})
		}
		need += bn
	}
	for cache.bytes+need > cache.limit {
		back := cache.lru.Back()
		for back != nil && back.Value.(*extent).pins > 0 {
			back = back.Prev()
		}
		if back == nil {
			for _, e := range pins {
				unpinLocked(e)
			}
			return nil, nil, fmt.Errorf("%w: %d more bytes are needed of %s beside %d bytes in use (the budget is %d bytes; raise it with --remote-cache or %s)",
				ErrCacheFull, need, w.File.Target, cache.pinned, cache.limit, CacheEnv)
		}
		evictLocked(back.Value.(*extent))
	}
	return pins, missing, nil
}

func pin(e *extent) {
	if e.pins == 0 {
		cache.pinned += e.n
	}
	e.pins++
	cache.lru.MoveToFront(e.elem)
}

func unpinLocked(e *extent) {
	e.pins--
	if e.pins == 0 && e.elem != nil {
		cache.pinned -= e.n
	}
}

func (w *Window) unpin(pins []*extent) {
	cache.Lock()
	defer cache.Unlock()
	for _, e := range pins {
		unpinLocked(e)
	}
}

// evictLocked drops an unpinned extent: its bytes fault again.
func evictLocked(e *extent) {
	cache.lru.Remove(e.elem)
	e.elem = nil
	cache.bytes -= e.n
	for b := e.off / BlockSize; b*BlockSize < e.off+e.n; b++ {
		delete(e.w.owner, b)
	}
	e.w.reg.drop(e.off, e.n)
}

// fetch gets the pieces in parallel and maps each as it arrives, pinned
// (appended to pins).
func (w *Window) fetch(ctx context.Context, pieces []piece, total int64, progress func(done, total int64), pins *[]*extent) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var done atomic.Int64
	var mu sync.Mutex
	var firstErr error
	next := make(chan piece)
	var wg sync.WaitGroup
	for range min(parallelPieces, len(pieces)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range next {
				var last int64
				err := w.fetchPiece(ctx, p, func(n int64) {
					d := done.Add(n - last)
					last = n
					if progress != nil {
						progress(d, total)
					}
				})
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = err
					cancel()
				}
				if err == nil {
					*pins = append(*pins, w.extentsOf(p)...)
				}
				mu.Unlock()
			}
		}()
	}
	for _, p := range pieces {
		if ctx.Err() != nil {
			break
		}
		next <- p
	}
	close(next)
	wg.Wait()
	if firstErr == nil && ctx.Err() != nil {
		firstErr = ctx.Err()
	}
	return firstErr
}

// fetchPiece reads a piece straight into the block file (through a
// writable mapping of its own) and then maps it into the window, pinned.
func (w *Window) fetchPiece(ctx context.Context, p piece, progress func(int64)) error {
	buf, unmap, err := w.reg.staging(p.off, p.n)
	if err != nil {
		return err
	}
	err = w.File.ReadAt(ctx, buf, p.off, progress)
	unmap()
	if err != nil {
		w.reg.discard(p.off, p.n)
		return err
	}
	return w.record(p.off, p.n, true)
}

// extentsOf returns the extents a fetched piece was entered as.
func (w *Window) extentsOf(p piece) []*extent {
	cache.Lock()
	defer cache.Unlock()
	var out []*extent
	for o := p.off; o < p.off+p.n; o += extentSize {
		if e := w.owner[o/BlockSize]; e != nil {
			out = append(out, e)
		}
	}
	return out
}

// store maps data at off as one extent, pinned when pinned is set.
func (w *Window) store(off int64, data []byte, pinned bool) error {
	return w.enter(off, int64(len(data)), pinned, func() error { return w.reg.fill(off, data) })
}

// record maps bytes [off, off+n) of the block file into the window and
// enters them in the cache.
func (w *Window) record(off, n int64, pinned bool) error {
	return w.enter(off, n, pinned, func() error { return w.reg.publish(off, n) })
}

// enter maps an extent (under the cache's lock, so that a window closed
// meanwhile, whose address space is gone, is never mapped into) and
// enters it in the cache.
func (w *Window) enter(off, n int64, pinned bool, mapIt func() error) error {
	cache.Lock()
	defer cache.Unlock()
	if w.closed {
		return fmt.Errorf("%s: closed", w.File.Target)
	}
	if err := mapIt(); err != nil {
		return err
	}
	// Entered in extents of at most extentSize bytes, so that a range
	// pinned at a fetch's edge (a block two tensors share) holds little
	// of it.
	for o := off; o < off+n; o += extentSize {
		e := &extent{w: w, off: o, n: min(extentSize, off+n-o)}
		e.elem = cache.lru.PushFront(e)
		cache.bytes += e.n
		if pinned {
			e.pins = 1
			cache.pinned += e.n
		}
		for b := o / BlockSize; b*BlockSize < o+e.n; b++ {
			w.owner[b] = e
		}
	}
	return nil
}

// extentSize is the largest unit the cache pins and drops.
const extentSize = 1 << 20
