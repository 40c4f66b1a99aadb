package tensor

import (
	"sort"
)

// layout is a view reduced to the fewest dimensions that address the same
// elements in the same order: size-1 dimensions are dropped and dimensions
// laid out one inside the other are merged. Iteration walks it as runs along
// the innermost dimension — a contiguous view is a single run.
type layout struct {
	data    []byte // the whole storage
	base    int    // address of element 0 (see Tensor.addrSize: bytes, or element numbers when packed)
	size    int    // what one stride step moves the address by
	outer   []int  // sizes of the dimensions outside the innermost, outermost first
	ostride []int  // their strides in address units
	inner   int    // length of the innermost dimension
	istride int    // its stride in address units
	n       int64  // number of elements
}

// newLayout builds t's layout. With anyOrder the dimensions may be
// reordered by decreasing stride so that memory is walked forwards; only
// order-insensitive computations (statistics, histograms) may ask for it.
func newLayout(t *Tensor, anyOrder bool) layout {
	l := layout{data: t.storage.data, base: t.base(), size: t.addrSize(), n: int64(t.Len())}
	type dim struct{ size, stride int }
	shape, strides := t.physical()
	dims := make([]dim, 0, len(shape))
	for i, d := range shape {
		if d != 1 {
			dims = append(dims, dim{d, strides[i]})
		}
	}
	if anyOrder {
		sort.SliceStable(dims, func(i, j int) bool { return dims[i].stride > dims[j].stride })
	}
	merged := dims[:0]
	for _, d := range dims {
		if k := len(merged) - 1; k >= 0 && merged[k].stride == d.size*d.stride {
			merged[k] = dim{merged[k].size * d.size, d.stride}
			continue
		}
		merged = append(merged, d)
	}
	if len(merged) == 0 {
		merged = append(merged, dim{1, 1})
	}
	last := merged[len(merged)-1]
	l.inner, l.istride = last.size, last.stride*l.size
	for _, d := range merged[:len(merged)-1] {
		l.outer = append(l.outer, d.size)
		l.ostride = append(l.ostride, d.stride*l.size)
	}
	return l
}

// dense reports whether the elements are adjacent in storage in iteration
// order, so that they can be read as one byte slice.
func (l *layout) dense() bool {
	return l.n == 0 || (len(l.outer) == 0 && (l.inner == 1 || l.istride == l.size))
}

// runs calls fn for each run of elements with iteration index in [lo, hi):
// n elements starting at byte offset off, istride bytes apart.
func (l *layout) runs(lo, hi int64, fn func(off, n int)) {
	if lo >= hi {
		return
	}
	inner := int64(l.inner)
	q, r := lo/inner, int(lo%inner)
	// Decompose the run index q into outer coordinates, innermost last.
	var idxBuf [8]int
	idx := idxBuf[:0]
	if len(l.outer) <= len(idxBuf) {
		idx = idxBuf[:len(l.outer)]
	} else {
		idx = make([]int, len(l.outer))
	}
	off := l.base
	for k := len(l.outer) - 1; k >= 0; k-- {
		d := int64(l.outer[k])
		idx[k] = int(q % d)
		q /= d
		off += idx[k] * l.ostride[k]
	}
	left := hi - lo
	for left > 0 {
		n := l.inner - r
		if int64(n) > left {
			n = int(left)
		}
		fn(off+r*l.istride, n)
		left -= int64(n)
		r = 0
		// Advance the outer odometer.
		for k := len(l.outer) - 1; k >= 0; k-- {
			idx[k]++
			off += l.ostride[k]
			if idx[k] < l.outer[k] {
				break
			}
			off -= idx[k] * l.ostride[k]
			idx[k] = 0
		}
	}
}
