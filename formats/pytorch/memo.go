package pytorch

// memo is the unpickler's memo: the values PUT (or MEMOIZE) stored by
// index for later GETs. Picklers number their entries 0, 1, 2, … in order,
// so entries live in a slice; an index out of that order (hand-written or
// hostile pickles) goes to a map, so that a large index never allocates
// the slots before it. A checkpoint of 2,000 tensors stores about 20,000
// entries, and a map of them cost a fifth of the open.
type memo struct {
	dense  []any // entries 0 … len-1, all stored
	sparse map[uint32]any
	n      int // entries stored
}

// reserve sizes the memo for a pickle of n bytes: picklers store about
// one entry per ten bytes of a checkpoint's pickle, and a PUT takes at
// least two, so n/8 slots rarely grow and never exceed what the pickle
// could fill.
func (m *memo) reserve(n int) {
	m.dense = make([]any, 0, min(n/8, maxMemo))
}

// len is the number of entries stored (MEMOIZE's next index).
func (m *memo) len() int { return m.n }

// has reports whether entry i is stored.
func (m *memo) has(i uint32) bool {
	_, ok := m.get(i)
	return ok
}

func (m *memo) put(i uint32, v any) {
	if int64(i) < int64(len(m.dense)) {
		m.dense[i] = v
		return
	}
	if _, ok := m.sparse[i]; ok {
		m.sparse[i] = v
		return
	}
	m.n++
	if int64(i) == int64(len(m.dense)) {
		m.dense = append(m.dense, v)
		return
	}
	if m.sparse == nil {
		m.sparse = map[uint32]any{}
	}
	m.sparse[i] = v
}

func (m *memo) get(i uint32) (any, bool) {
	if int64(i) < int64(len(m.dense)) {
		return m.dense[i], true
	}
	v, ok := m.sparse[i]
	return v, ok
}
