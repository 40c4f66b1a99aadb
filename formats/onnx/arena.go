package onnx

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
		a.chunk = make([]T, 0, arenaChunk)
	}
	at := len(a.chunk)
	a.chunk = a.chunk[:at+n]
	return a.chunk[at : at : at+n]
}

// copy returns src's elements in a slice of the arena; nil when src is empty.
func (a *arena[T]) copy(src []T) []T {
	if len(src) == 0 {
		return nil
	}
	return append(a.take(len(src)), src...)
}
