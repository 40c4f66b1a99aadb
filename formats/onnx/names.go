package onnx

// The name table. Every value and tensor name is interned once and gets a
// nameID; what a name refers to (its first tensor, the initializer in
// scope, its value in the graph being built) is kept in slices indexed by
// that id rather than in maps keyed by the name: a model of 100,000 nodes
// looks names up about a million times, and a map of 200,000 strings
// misses the cache on nearly every one.

// nameID indexes builder.nameText and the slices beside it.
type nameID = int32

// noName marks an id slot that refers to nothing.
const noName = -1

// initRef is the initializer a name refers to in the graphs being read:
// the innermost graph that defines it, and its document tensor.
type initRef struct {
	graph  *graphProto
	tensor int32
}

// shadowed is an initRef a subgraph's initializer hid, restored when the
// subgraph is done.
type shadowed struct {
	id   nameID
	prev initRef
}

// sizeNames makes room for the names of a main graph of this many nodes
// and initializers (each names a value or a tensor) before they are
// interned: growing a map of 200,000 names step by step rehashes it a
// dozen times.
func (b *builder) sizeNames(n int) {
	if len(b.names) == 0 && n > 0 {
		b.names = make(map[string]nameID, n)
		b.nameText = make([]string, 0, n)
		b.tensorOf = make([]int32, 0, n)
		b.initOf = make([]initRef, 0, n)
		b.valueOf = make([]int32, 0, n)
	}
}

// intern returns one string per distinct name, copied out of the mapped
// file once, and its id: thousands of nodes share a few op types, and
// every value name appears at least twice.
func (b *builder) intern(raw []byte) (string, nameID) {
	if id, ok := b.names[string(raw)]; ok {
		return b.nameText[id], id
	}
	return b.addName(b.mem.str(raw))
}

// idOf is intern for a name already held as a string.
func (b *builder) idOf(name string) nameID {
	if id, ok := b.names[name]; ok {
		return id
	}
	_, id := b.addName(name)
	return id
}

func (b *builder) addName(s string) (string, nameID) {
	id := nameID(len(b.nameText))
	b.names[s] = id
	b.nameText = append(b.nameText, s)
	b.tensorOf = append(b.tensorOf, noName)
	b.initOf = append(b.initOf, initRef{tensor: noName})
	b.valueOf = append(b.valueOf, noName)
	return s, id
}

// nameTensor records that document tensor t bears name; the first tensor
// of a name is the one graphs refer to unless replace is set.
func (b *builder) nameTensor(name string, t int, replace bool) {
	id := b.idOf(name)
	if replace || b.tensorOf[id] == noName {
		b.tensorOf[id] = int32(t)
	}
}

// defineInit puts initializer tensor t of graph gp in scope under name,
// hiding an enclosing graph's initializer of that name until gp is done.
func (b *builder) defineInit(gp *graphProto, name string, t int) {
	id := b.idOf(name)
	gp.shadowed = append(gp.shadowed, shadowed{id, b.initOf[id]})
	b.initOf[id] = initRef{graph: gp, tensor: int32(t)}
}

// endScope takes gp's initializers out of scope.
func (b *builder) endScope(gp *graphProto) {
	for i := len(gp.shadowed) - 1; i >= 0; i-- {
		s := gp.shadowed[i]
		b.initOf[s.id] = s.prev
	}
	gp.shadowed = nil
}

// tensorNamed is the document tensor a name refers to in the graph being
// read: an initializer in scope, else the first tensor of that name
// (a Constant's output); noName when none.
func (b *builder) tensorNamed(id nameID) int32 {
	if t := b.initOf[id].tensor; t != noName {
		return t
	}
	return b.tensorOf[id]
}

// isInit reports whether the name is an initializer of gp itself.
func (b *builder) isInit(gp *graphProto, id nameID) bool { return b.initOf[id].graph == gp }
