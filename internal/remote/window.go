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
	lru      list.List // of *extent
	bytes    int64     // fetched bytes held
	pinned   int64     // of which pinned
	reserved int64     // bytes being fetched, not held yet
	limit    int64
	// landed is closed (and replaced) whenever fetched bytes are entered
	// or given up: a reader short of room waits for it while other
	// fetches are in flight.
	landed chan struct{}
}{limit: envLimit(), landed: make(chan struct{})}

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

// InUse returns the fetched bytes pinned by readers and those being
// fetched.
func InUse() int64 {
	cache.Lock()
	defer cache.Unlock()
	return cache.pinned + cache.reserved
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

	owner    map[int64]*extent // by block; under cache's lock
	inflight map[int64]*flight // by block, those being fetched; under cache's lock
	closed   bool              // under cache's lock
	faults   atomic.Int64      // faults served (growing fetch sizes)
	// mapMu is held (read) while fetched bytes are mapped into the
	// window, and by Close (write) before it unmaps the window.
	mapMu   sync.RWMutex
	closing bool // under mapMu
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
	w := &Window{File: f, owner: map[int64]*extent{}, inflight: map[int64]*flight{}}
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
	if err := w.store(0, first); err != nil {
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
	w.mapMu.Lock()
	w.closing = true
	w.mapMu.Unlock()
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
// called. Several Ensure calls on one window fetch at once; a block
// another call is already fetching is waited for, never fetched twice.
// It fails with ErrCacheFull when the missing bytes do not fit beside the
// pinned ones.
func (w *Window) Ensure(ctx context.Context, off, n int64, progress func(done, total int64)) (unpin func(), err error) {
	if w.reg == nil || n <= 0 {
		return func() {}, nil
	}
	if off < 0 || off+n > w.File.size {
		return nil, fmt.Errorf("%s: bytes [%d, %d) lie outside the %d-byte file", w.File.Target, off, off+n, w.File.size)
	}
	first, last := off/BlockSize, (off+n-1)/BlockSize
	var pins pinSet
	var done, total atomic.Int64
	report := func(k int64) {
		d := done.Add(k)
		if progress != nil {
			progress(d, total.Load())
		}
	}
	for {
		missing, waits, need, err := w.pinAndPlan(first, last, &pins)
		var short *roomWait
		if errors.As(err, &short) {
			// No room until fetches in flight land (prefetched bytes
			// can then be dropped): wait for one, and plan again.
			select {
			case <-short.landed:
				continue
			case <-ctx.Done():
				w.unpin(pins.list)
				return nil, ctx.Err()
			}
		}
		if err != nil {
			w.unpin(pins.list)
			return nil, err
		}
		total.Add(need)
		for _, f := range waits {
			total.Add(f.n)
		}
		if len(missing) > 0 {
			if err := w.fetch(ctx, missing, report, &pins); err != nil {
				w.unpin(pins.list)
				return nil, err
			}
		}
		if len(waits) == 0 {
			break
		}
		// Blocks other calls were fetching: once they are in, plan again
		// (they are pinned then, or fetched here if that fetch failed).
		for _, f := range waits {
			select {
			case <-f.done:
				report(f.n)
			case <-ctx.Done():
				w.unpin(pins.list)
				return nil, ctx.Err()
			}
		}
	}
	var once sync.Once
	return func() { once.Do(func() { w.unpin(pins.list) }) }, nil
}

// Prefetch starts fetching, in the background, the blocks of bytes [off,
// off+n) that are neither fetched nor being fetched, once they are at
// least half of the range (so that a reader moving forward through a
// file, asking to prefetch what lies ahead of it, fetches in batches of
// large requests). They are entered unpinned, behind no reader: the
// cache drops them first. What does not fit in the cache beside the
// pinned bytes is not fetched. It returns at once; cancelling ctx stops
// the fetches.
func (w *Window) Prefetch(ctx context.Context, off, n int64) {
	if w.reg == nil || off < 0 || off >= w.File.size || n <= 0 {
		return
	}
	n = min(n, w.File.size-off)
	pieces := w.planPrefetch(off/BlockSize, (off+n-1)/BlockSize, n)
	if len(pieces) > 0 {
		go w.fetch(ctx, pieces, func(int64) {}, nil)
	}
}

func (w *Window) planPrefetch(first, last, n int64) []piece {
	cache.Lock()
	defer cache.Unlock()
	if w.closed {
		return nil
	}
	var missing []piece
	var need int64
	for b := first; b <= last; b++ {
		if w.owner[b] != nil || w.inflight[b] != nil {
			continue
		}
		var bn int64
		missing, bn = w.addBlock(missing, b)
		need += bn
	}
	if 2*need < n {
		return nil
	}
	// Room: the least recently used unpinned extents go (those behind the
	// reader); what still does not fit is left for later.
	for len(missing) > 0 && cache.bytes+cache.reserved+need > cache.limit {
		back := cache.lru.Back()
		for back != nil && back.Value.(*extent).pins > 0 {
			back = back.Prev()
		}
		if back == nil {
			k := len(missing) - 1
			need -= missing[k].n
			missing = missing[:k]
			continue
		}
		evictLocked(back.Value.(*extent))
	}
	cache.reserved += need
	w.startFlights(missing)
	return missing
}

// pinSet is the extents one Ensure has pinned.
type pinSet struct {
	mu   sync.Mutex
	list []*extent
	has  map[*extent]bool
}

func (p *pinSet) add(e *extent) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.has[e] {
		return false
	}
	if p.has == nil {
		p.has = map[*extent]bool{}
	}
	p.has[e] = true
	p.list = append(p.list, e)
	return true
}

// roomWait: the cache has no room for a reader's blocks until fetches in
// flight land.
type roomWait struct{ landed chan struct{} }

func (*roomWait) Error() string { return "waiting for room in the remote cache" }

// A flight is a piece being fetched: other readers of its blocks wait
// for done.
type flight struct {
	off, n int64
	done   chan struct{}
}

type piece struct {
	off, n int64
	f      *flight
}

// pinAndPlan pins the fetched extents over blocks [first, last] not
// pinned by pins yet, makes room for the missing blocks and marks them
// in flight, returning them as pieces, and the flights of other callers
// that hold some of the blocks.
func (w *Window) pinAndPlan(first, last int64, pins *pinSet) (missing []piece, waits []*flight, need int64, err error) {
	cache.Lock()
	defer cache.Unlock()
	if w.closed {
		return nil, nil, 0, fmt.Errorf("%s: closed", w.File.Target)
	}
	for b := first; b <= last; b++ {
		if e := w.owner[b]; e != nil {
			if pins.add(e) {
				pin(e)
			}
			continue
		}
		if f := w.inflight[b]; f != nil {
			if k := len(waits) - 1; k < 0 || waits[k] != f {
				waits = append(waits, f)
			}
			continue
		}
		var bn int64
		missing, bn = w.addBlock(missing, b)
		need += bn
	}
	for cache.bytes+cache.reserved+need > cache.limit {
		back := cache.lru.Back()
		for back != nil && back.Value.(*extent).pins > 0 {
			back = back.Prev()
		}
		if back == nil {
			if cache.reserved > 0 {
				return nil, nil, 0, &roomWait{cache.landed}
			}
			return nil, nil, 0, fmt.Errorf("%w: %d more bytes are needed of %s beside %d bytes in use (the budget is %d bytes; raise it with --remote-cache or %s)",
				ErrCacheFull, need, w.File.Target, cache.pinned, cache.limit, CacheEnv)
		}
		evictLocked(back.Value.(*extent))
	}
	cache.reserved += need
	w.startFlights(missing)
	return missing, waits, need, nil
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

// Requests in flight at once, over all windows, and per Ensure.
var fetchSlots = make(chan struct{}, maxFetches)

const maxFetches = 16

// fetch gets the pieces in parallel and maps each as it arrives, pinned
// (added to pins) unless pins is nil. Every piece's flight ends, fetched
// or not.
func (w *Window) fetch(ctx context.Context, pieces []piece, report func(int64), pins *pinSet) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var mu sync.Mutex
	var firstErr error
	next := make(chan piece)
	var wg sync.WaitGroup
	for range min(parallelPieces, len(pieces)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range next {
				err := ctx.Err()
				if err == nil {
					err = w.fetchPiece(ctx, p, report, pins)
				} else {
					w.land(p, false, nil)
				}
				if err != nil {
					mu.Lock()
					if firstErr == nil {
						firstErr = err
						cancel()
					}
					mu.Unlock()
				}
			}
		}()
	}
	for _, p := range pieces {
		next <- p
	}
	close(next)
	wg.Wait()
	if firstErr == nil && ctx.Err() != nil {
		firstErr = ctx.Err()
	}
	return firstErr
}

// Buffers the fetched bytes pass through, kept for the process's life:
// memory it has written before is much cheaper to receive into than new
// pages (about 2 GB/s against 0.3 GB/s for a new mapping on the 2-core
// VM; see docs/PERFORMANCE.md), and the block file is then written by
// the kernel.
var buffers = make(chan []byte, maxFetches)

const bufferSize = 1 << 20

func getBuffer() []byte {
	select {
	case b := <-buffers:
		return b
	default:
		return make([]byte, bufferSize)
	}
}

func putBuffer(b []byte) {
	select {
	case buffers <- b:
	default:
	}
}

// fetchPiece reads a piece into the block file, through a reused buffer,
// maps it into the window and enters it in the cache, pinned.
func (w *Window) fetchPiece(ctx context.Context, p piece, report func(int64), pins *pinSet) error {
	select {
	case fetchSlots <- struct{}{}:
	case <-ctx.Done():
		w.land(p, false, nil)
		return ctx.Err()
	}
	buf := getBuffer()
	var last int64
	err := w.File.CopyAt(ctx, w.reg, buf, p.off, p.n, func(n int64) {
		report(n - last)
		last = n
	})
	putBuffer(buf)
	<-fetchSlots
	if err != nil {
		w.mapMu.RLock()
		if !w.closing {
			w.reg.discard(p.off, p.n)
		}
		w.mapMu.RUnlock()
		w.land(p, false, nil)
		return err
	}
	return w.land(p, true, pins)
}

// land ends a piece's flight: when fetched, its bytes are mapped and
// entered, pinned in pins unless pins is nil; when not, the blocks are
// free to fetch again.
func (w *Window) land(p piece, fetched bool, pins *pinSet) (err error) {
	if fetched {
		// Mapped outside the cache's lock (populating the pages takes a
		// while, and other pieces map at the same time), but under the
		// window's mapping lock, so that Close never unmaps the window
		// while a piece is being mapped into it.
		w.mapMu.RLock()
		if w.closing {
			err = fmt.Errorf("%s: closed", w.File.Target)
		} else {
			err = w.reg.publish(p.off, p.n)
		}
		w.mapMu.RUnlock()
	}
	cache.Lock()
	cache.reserved -= p.n
	close(cache.landed)
	cache.landed = make(chan struct{})
	for b := p.off / BlockSize; b*BlockSize < p.off+p.n; b++ {
		if w.inflight[b] == p.f {
			delete(w.inflight, b)
		}
	}
	if fetched && err == nil {
		if w.closed {
			err = fmt.Errorf("%s: closed", w.File.Target)
		} else {
			for _, e := range w.enterLocked(p.off, p.n, pins != nil) {
				if pins != nil {
					pins.add(e)
				}
			}
		}
	}
	cache.Unlock()
	close(p.f.done)
	return err
}

// store maps data at off as one extent, unpinned (the first block, read
// when the window opens).
func (w *Window) store(off int64, data []byte) error {
	if err := w.reg.fill(off, data); err != nil {
		return err
	}
	cache.Lock()
	defer cache.Unlock()
	w.enterLocked(off, int64(len(data)), false)
	return nil
}

// enterLocked enters mapped bytes [off, off+n) in the cache, in extents
// of at most extentSize bytes, so that a range pinned at a fetch's edge
// (a block two tensors share) holds little of it.
func (w *Window) enterLocked(off, n int64, pinned bool) []*extent {
	var out []*extent
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
		out = append(out, e)
	}
	return out
}

// extentSize is the largest unit the cache pins and drops.
const extentSize = 1 << 20

// addBlock adds block b to the pieces to fetch, joined to the last piece
// when they touch and the piece has room, and returns its size.
func (w *Window) addBlock(missing []piece, b int64) ([]piece, int64) {
	boff := b * BlockSize
	bn := min(int64(BlockSize), w.File.size-boff)
	if k := len(missing) - 1; k >= 0 && missing[k].off+missing[k].n == boff && missing[k].n+bn <= pieceSize {
		missing[k].n += bn
	} else {
		missing = append(missing, piece{off: boff, n: bn})
	}
	return missing, bn
}

// startFlights marks the pieces' blocks as in flight, each piece one
// fetch that later readers of its blocks wait for. The caller holds the
// cache's lock and has reserved the pieces' bytes.
func (w *Window) startFlights(missing []piece) {
	for i := range missing {
		m := &missing[i]
		m.f = &flight{off: m.off, n: m.n, done: make(chan struct{})}
		for b := m.off / BlockSize; b*BlockSize < m.off+m.n; b++ {
			w.inflight[b] = m.f
		}
	}
}
