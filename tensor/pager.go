package tensor

import "context"

// A Pager makes a storage's bytes readable on demand: a remote file whose
// bytes are fetched when they are needed and dropped when memory for them
// runs short. Passes over a tensor that read it in chunks (statistics) ask
// the pager for each chunk's bytes before reading them and release them
// after, so a tensor larger than the memory for fetched bytes is read in
// pieces, and the fetch of later chunks overlaps the work on earlier ones.
type Pager interface {
	// Page makes bytes [off, off+n) of the storage readable until release
	// is called. The pass will ask next for the ahead bytes that follow,
	// in order: the pager may fetch them early.
	Page(ctx context.Context, off, n, ahead int) (release func(), err error)
}

// SetPager gives the storage a pager. Set it before any tensor over the
// storage is read.
func (s *Storage) SetPager(p Pager) { s.pager = p }

// Pager is the storage's pager, nil for bytes that are simply there.
func (s *Storage) Pager() Pager { return s.pager }

// page asks t's storage's pager, if it has one, for the bytes elements
// [lo, hi) of l (made from t) occupy.
func (t *Tensor) page(ctx context.Context, l *layout, lo, hi int64) (release func(), err error) {
	p := t.storage.pager
	if p == nil || lo >= hi {
		return func() {}, nil
	}
	start, end := t.ByteExtent()
	whole := end
	if l.ascending() {
		start, end = t.addrBytes(l.addrOf(lo), l.addrOf(hi-1), l.size)
	}
	return p.Page(ctx, start, end-start, max(whole-end, 0))
}

// addrBytes is the bytes from the element at address first to the one at
// last (addresses in the layout's units), both included.
func (t *Tensor) addrBytes(first, last, size int) (start, end int) {
	if t.dtype.Packed() {
		ue, ub := t.dtype.UnitElems(), t.dtype.UnitBytes()
		return t.offset + floorDiv(first, ue)*ub, t.offset + floorDiv(last, ue)*ub + ub
	}
	return first, last + size
}

// ascending reports whether the addresses of l's elements grow with their
// iteration index, so that the elements of a range of indices lie between
// the first's address and the last's.
func (l *layout) ascending() bool {
	extent := l.size // from an element's address to the end of the last element inside it
	if l.inner > 1 {
		if l.istride < l.size {
			return false
		}
		extent += (l.inner - 1) * l.istride
	}
	for k := len(l.outer) - 1; k >= 0; k-- {
		if l.outer[k] > 1 {
			if l.ostride[k] < extent {
				return false
			}
			extent += (l.outer[k] - 1) * l.ostride[k]
		}
	}
	return true
}
