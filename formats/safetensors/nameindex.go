package safetensors

import "hash/maphash"

// nameIndex finds the items of a list by name: an open-addressing table
// of positions in the list, each slot holding the high half of its name's
// hash beside the position, so that a probe compares a name only when the
// hashes agree. Opening a checkpoint of 30,000 tensors asks for every
// name twice (is it new in the weight_map, where is it in its shard), and
// a map[string] spent a tenth of the time inserting its keys.
type nameIndex struct {
	slots []uint64 // hash>>32<<32 | position+1; 0 is free
	n     int
}

var nameSeed = maphash.MakeSeed()

// newNameIndex returns an index sized for about n names. It is filled
// to three quarters at most: the hashes' halves in the slots keep long
// probes cheap, and a smaller table is fewer fresh pages to fault in.
func newNameIndex(n int) nameIndex {
	size := 16
	for 3*size < 4*n {
		size *= 2
	}
	return nameIndex{slots: make([]uint64, size)}
}

// add returns the position of name when the index holds it already, else
// records it at position pos (nameAt spells the name at a position) and
// returns pos, false.
func (x *nameIndex) add(name string, pos int, nameAt func(int) string) (int, bool) {
	h := maphash.String(nameSeed, name)
	if i, ok := x.probe(h, name, nameAt); ok {
		return i, true
	}
	if 4*(x.n+1) > 3*len(x.slots) {
		x.grow(nameAt)
	}
	x.put(h, pos)
	x.n++
	return pos, false
}

// find returns the position of name.
func (x *nameIndex) find(name string, nameAt func(int) string) (int, bool) {
	if x.n == 0 {
		return 0, false
	}
	return x.probe(maphash.String(nameSeed, name), name, nameAt)
}

func (x *nameIndex) probe(h uint64, name string, nameAt func(int) string) (int, bool) {
	if len(x.slots) == 0 {
		return 0, false
	}
	mask := uint64(len(x.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		s := x.slots[i]
		if s == 0 {
			return 0, false
		}
		if s>>32 == h>>32 {
			if pos := int(uint32(s)) - 1; nameAt(pos) == name {
				return pos, true
			}
		}
	}
}

func (x *nameIndex) put(h uint64, pos int) {
	mask := uint64(len(x.slots) - 1)
	i := h & mask
	for x.slots[i] != 0 {
		i = (i + 1) & mask
	}
	x.slots[i] = h>>32<<32 | uint64(uint32(pos+1))
}

// grow doubles the table, hashing the names again.
func (x *nameIndex) grow(nameAt func(int) string) {
	old := x.slots
	x.slots = make([]uint64, max(2*len(old), 16))
	for _, s := range old {
		if s != 0 {
			pos := int(uint32(s)) - 1
			x.put(maphash.String(nameSeed, nameAt(pos)), pos)
		}
	}
}
