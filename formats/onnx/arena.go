package onnx

import "unsafe"

// arena hands out small slices carved from shared chunks: a model of
// 100,000 nodes needs a few hundred allocations for their input, output
// and attribute lists instead of one or more per node. A slice's capacity
// is its length, so appending to it copies rather than overwriting a
// neighbour.
type arena[T any] struct{ chunk []T }

// arenaChunk is the elements per chunk; longer requests get their own slice.
const arenaChunk = 8192

// take returns an empty slice with room for exactly n elements.
func (a *arena[T]) take(n int) []T {
	if n > arenaChunk/8 {
		return make([]T, 0, n)
	}
	if cap(a.chunk)-len(a.chunk) < n {
		// Chunks double from small ones, so that a tiny file costs little.
		a.chunk = make([]T, 0, max(min(max(2*cap(a.chunk), 64), arenaChunk), n))
	}
	at := len(a.chunk)
	a.chunk = a.chunk[:at+n]
	return a.chunk[at : at : at+n]
}

// one returns a pointer to a new zero element.
func (a *arena[T]) one() *T {
	s := a.take(1)[:1]
	return &s[0]
}

// copy returns src's elements in a slice of the arena; nil when src is empty.
func (a *arena[T]) copy(src []T) []T {
	if len(src) == 0 {
		return nil
	}
	return append(a.take(len(src)), src...)
}

// decodeMemory is where one decode keeps the small things it reads: the
// text of names and the dims of tensors, in chunks rather than one
// allocation each.
type decodeMemory struct {
	text textArena
	dims arena[int]
}

// str returns b as a string kept in the arena, or a plain copy when m is nil.
func (m *decodeMemory) str(b []byte) string {
	if m == nil {
		return string(b)
	}
	return m.text.str(b)
}

// textArena copies strings into shared chunks of bytes. A chunk is never
// written again where a string lies, so the strings stay immutable; it is
// freed when none of its strings is referenced.
type textArena struct{ chunk []byte }

// textChunk is the bytes per chunk; longer strings get their own copy.
const textChunk = 64 << 10

func (a *textArena) str(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if len(b) > textChunk/16 {
		return string(b)
	}
	if cap(a.chunk)-len(a.chunk) < len(b) {
		a.chunk = make([]byte, 0, max(min(max(2*cap(a.chunk), 1024), textChunk), len(b)))
	}
	at := len(a.chunk)
	a.chunk = append(a.chunk, b...)
	return unsafe.String(&a.chunk[at], len(b))
}

// takeDims returns an empty slice with room for n dims.
func (m *decodeMemory) takeDims(n int) []int {
	if m == nil {
		return make([]int, 0, n)
	}
	return m.dims.take(n)
}
