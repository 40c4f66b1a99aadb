package tensor

// Prefaulting. The first pass over a freshly mapped file spends most of its
// time in page faults, one per 64 KiB or so, taken one after another by
// whichever worker touches the page. Asking the kernel to map a chunk's
// whole byte range in one call before reading it (MADV_POPULATE_READ on
// Linux) does the same work in a tight loop in the kernel, and each worker
// does it for its own chunk, so the faults of a large scan are taken in
// parallel and in bulk. Pages already mapped cost almost nothing to ask
// for again. Failures are ignored: the reads that follow fault as before
// (and a truncated file still becomes ErrFault).

// prefaultOn lets benchmarks compare with the kernel's own faulting.
var prefaultOn = true

// prefaultSlack bounds how much more than a chunk's own bytes its byte
// span may cover before prefaulting it is not worth it (a strided walk
// down a column touches one element per row).
const prefaultSlack = 4

// prefault maps in the storage bytes that elements [lo, hi) of layout l,
// made from t, occupy, when t's storage is a mapped file.
func (t *Tensor) prefault(l *layout, lo, hi int64) {
	if !prefaultOn || !t.storage.mapped || lo >= hi {
		return
	}
	if start, end, ok := t.span(l, lo, hi); ok {
		populate(t.storage.data, start, end)
	}
}

// release drops from memory the pages elements [lo, hi) of layout l
// occupy, once read, when t's storage drops behind (Storage.DropBehind).
func (t *Tensor) release(l *layout, lo, hi int64) {
	if !t.storage.dropBehind || lo >= hi {
		return
	}
	if start, end, ok := t.span(l, lo, hi); ok {
		release(t.storage.data, start, end)
	}
}

// span is the byte range of the storage that elements [lo, hi) of l
// occupy; ok is false when it covers much more than their own bytes (a
// strided walk down a column), where mapping it in or dropping it would
// cost more than it saves.
func (t *Tensor) span(l *layout, lo, hi int64) (start, end int, ok bool) {
	first, last := l.addrOf(lo), l.addrOf(hi-1)
	if first > last {
		first, last = last, first
	}
	if t.dtype.Packed() {
		ue, ub := t.dtype.UnitElems(), t.dtype.UnitBytes()
		start = t.offset + first/ue*ub
		end = t.offset + (last/ue+1)*ub
	} else {
		start, end = first, last+l.size
	}
	end = min(end, len(t.storage.data))
	bytesRead := (hi - lo) * int64(max(1, t.dtype.ElementBits()/8))
	if start < 0 || start >= end || int64(end-start) > prefaultSlack*bytesRead+64<<10 {
		return 0, 0, false
	}
	return start, end, true
}

// addrOf returns the address of the element with iteration index i.
func (l *layout) addrOf(i int64) int {
	inner := int64(l.inner)
	q, r := i/inner, int(i%inner)
	addr := l.base + r*l.istride
	for k := len(l.outer) - 1; k >= 0; k-- {
		d := int64(l.outer[k])
		addr += int(q%d) * l.ostride[k]
		q /= d
	}
	return addr
}
