package pytorch

// slab hands out the unpickler's most numerous values from blocks: a
// checkpoint of 2,000 tensors builds about 10,000 tuples and as many item
// lists (a tensor's size, stride and arguments), and one allocation each
// was a fifth of the allocations of an open. A block is at most a few
// kilobytes, so a hostile pickle gains nothing from it: each value still
// takes the bytes of the opcodes that made it.
type slab struct {
	tuples []pyTuple
	anys   []any
}

const (
	slabTuples = 256  // pyTuples per block
	slabAnys   = 1024 // item slots per block
	slabMaxRun = 64   // longer item lists get an allocation of their own
)

// tuple returns a new tuple of items.
func (s *slab) tuple(items []any, depth int) *pyTuple {
	if len(s.tuples) == cap(s.tuples) {
		s.tuples = make([]pyTuple, 0, slabTuples)
	}
	s.tuples = append(s.tuples, pyTuple{items: items, depth: depth})
	return &s.tuples[len(s.tuples)-1]
}

// items returns a copy of src. Its capacity is its length, so appending to
// it (a list's APPEND) copies it out of the block instead of overwriting
// its neighbour.
func (s *slab) items(src []any) []any {
	n := len(src)
	if n == 0 {
		return nil
	}
	if n > slabMaxRun {
		return append([]any(nil), src...)
	}
	if cap(s.anys)-len(s.anys) < n {
		s.anys = make([]any, 0, slabAnys)
	}
	start := len(s.anys)
	s.anys = append(s.anys, src...)
	return s.anys[start:len(s.anys):len(s.anys)]
}
