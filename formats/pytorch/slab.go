package pytorch

// slab hands out the unpickler's most numerous values from blocks: a
// checkpoint of 2,000 tensors builds about 10,000 tuples and as many item
// lists (a tensor's size, stride and arguments), and one allocation each
// was a fifth of the allocations of an open. A block is at most a few
// kilobytes, so a hostile pickle gains nothing from it: each value still
// takes the bytes of the opcodes that made it.
type slab struct {
	tuples   []pyTuple
	anys     []any
	tensors  []pyTensor
	storages []pyStorage
	blobs    []blob
	ints     []int64
}

const (
	slabTuples = 256  // pyTuples (and tensors, storages, blobs) per block
	slabAnys   = 1024 // item slots (and ints) per block
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

// tensor returns a new tensor holding t.
func (s *slab) tensor(t pyTensor) *pyTensor {
	if len(s.tensors) == cap(s.tensors) {
		s.tensors = make([]pyTensor, 0, slabTuples)
	}
	s.tensors = append(s.tensors, t)
	return &s.tensors[len(s.tensors)-1]
}

// storage returns a new storage holding st.
func (s *slab) storage(st pyStorage) *pyStorage {
	if len(s.storages) == cap(s.storages) {
		s.storages = make([]pyStorage, 0, slabTuples)
	}
	s.storages = append(s.storages, st)
	return &s.storages[len(s.storages)-1]
}

// blob returns a new blob holding b.
func (s *slab) blob(b blob) *blob {
	if len(s.blobs) == cap(s.blobs) {
		s.blobs = make([]blob, 0, slabTuples)
	}
	s.blobs = append(s.blobs, b)
	return &s.blobs[len(s.blobs)-1]
}

// intList is intList with the ints taken from a block (a tensor's size
// and stride).
func (s *slab) intList(v any) ([]int64, bool) {
	its, ok := items(v)
	if !ok {
		return nil, false
	}
	n := len(its)
	if n > slabMaxRun {
		return intList(v)
	}
	if cap(s.ints)-len(s.ints) < n {
		s.ints = make([]int64, 0, slabAnys)
	}
	start := len(s.ints)
	for _, it := range its {
		x, ok := asInt(it)
		if !ok {
			s.ints = s.ints[:start]
			return nil, false
		}
		s.ints = append(s.ints, x)
	}
	return s.ints[start:len(s.ints):len(s.ints)], true
}
