package pytorch

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"sort"
	"strconv"
	"strings"

	"tensorscope/formats"
	"tensorscope/tensor"
)

// Limits of the walks over the unpickled object. A pickle can refer to
// one list from many places (the memo), so a small file can describe a
// tree of 2^30 nodes: the walks stop at a budget instead.
const (
	maxVisits     = 1 << 22 // nodes the tensor naming visits
	maxMetaNodes  = 1 << 20 // nodes of the metadata tree
	maxQuantParam = 1 << 16 // per-channel scales read at open
	maxShownBytes = 4096    // bytes of a bytes object the metadata shows
)

// namedTensor is one tensor found in the object, under its key path.
type namedTensor struct {
	name string
	t    *pyTensor
	role formats.Role
	note string
}

// nameTensors walks the object and names every tensor by its key path,
// "." between keys; list and tuple indices are decimal. A bare tensor is
// "#0". A tensor reached twice (tied weights) is listed under both names.
func nameTensors(c *checkpoint, root any) []namedTensor {
	if t, ok := root.(*pyTensor); ok {
		return []namedTensor{{name: "#0", t: t, role: formats.RoleData}}
	}
	w := &walker{c: c, onPath: map[any]bool{}, budget: min(maxVisits, 1<<16+c.size)}
	w.walk(root, "", 0)
	return w.out
}

// walker keeps the path as segments and joins them only for a tensor: a
// repeated deep object would otherwise build long strings at every node.
type walker struct {
	c       *checkpoint
	out     []namedTensor
	onPath  map[any]bool
	segs    []string
	budget  int64
	stopped bool
}

func (w *walker) walk(v any, seg string, depth int) {
	if w.stopped {
		return
	}
	if depth > 0 {
		w.segs = append(w.segs, seg)
		defer func() { w.segs = w.segs[:len(w.segs)-1] }()
	}
	w.budget--
	if w.budget < 0 || depth > maxNesting {
		w.stopped = true
		w.c.warn(-1, "the object nests or repeats itself beyond what is walked (at %q): later tensors are not listed", strings.Join(w.segs, "."))
		return
	}
	switch x := v.(type) {
	case *pyTensor:
		w.out = append(w.out, namedTensor{name: strings.Join(w.segs, "."), t: x, role: formats.RoleWeight})
		return
	case *pyDict, *pyList, *pyTuple, *pyObject, *pySet:
		if w.onPath[v] {
			return // a reference to an enclosing container
		}
		w.onPath[v] = true
		defer delete(w.onPath, v)
	default:
		return
	}
	switch x := v.(type) {
	case *pyDict:
		for i, k := range x.keys {
			w.walk(x.vals[i], keyString(k), depth+1)
		}
	case *pyList:
		for i, it := range x.items {
			w.walk(it, strconv.Itoa(i), depth+1)
		}
	case *pyTuple:
		for i, it := range x.items {
			w.walk(it, strconv.Itoa(i), depth+1)
		}
	case *pySet:
		for i, it := range x.items {
			w.walk(it, strconv.Itoa(i), depth+1)
		}
	case *pyObject:
		w.walkObject(x, depth)
	}
}

// walkObject names the tensors of an inert object by its state's keys
// (an object's attributes), then its items, then its constructor's
// arguments under "args".
func (w *walker) walkObject(o *pyObject, depth int) {
	for _, part := range stateParts(o.state) {
		if d, ok := part.(*pyDict); ok {
			for i, k := range d.keys {
				w.walk(d.vals[i], keyString(k), depth+1)
			}
		} else if part != nil {
			w.walk(part, "state", depth+1)
		}
	}
	if o.dict != nil {
		for i, k := range o.dict.keys {
			w.walk(o.dict.vals[i], keyString(k), depth+1)
		}
	}
	for i, it := range o.list {
		w.walk(it, strconv.Itoa(i), depth+1)
	}
	for i, a := range o.args {
		if _, isClass := a.(*pyGlobal); isClass {
			continue
		}
		w.walk(a, "args."+strconv.Itoa(i), depth+1)
	}
}

// stateParts splits BUILD's state: a dict, or (dict, slots dict).
func stateParts(state any) []any {
	if t, ok := state.(*pyTuple); ok && len(t.items) == 2 {
		_, d0 := t.items[0].(*pyDict)
		_, d1 := t.items[1].(*pyDict)
		if (d0 || t.items[0] == nil) && (d1 || t.items[1] == nil) {
			return t.items
		}
	}
	return []any{state}
}

// keyString is a dict key as a path segment.
func keyString(k any) string {
	switch x := k.(type) {
	case string:
		return x
	case int64:
		return strconv.FormatInt(x, 10)
	case *big.Int:
		return x.String()
	case bool:
		if x {
			return "True"
		}
		return "False"
	case nil:
		return "None"
	case float64:
		return formatPyFloat(x)
	case pyBytes:
		return string(x)
	case *pyTuple:
		work := maxKeyWork
		return tupleKeyString(x, &work)
	}
	return typeName(k)
}

// tupleKeyString spells a tuple key, "…" past maxKeyWork elements.
func tupleKeyString(t *pyTuple, work *int) string {
	parts := make([]string, 0, len(t.items))
	for _, it := range t.items {
		*work--
		if *work < 0 {
			parts = append(parts, "…")
			break
		}
		if inner, ok := it.(*pyTuple); ok {
			parts = append(parts, tupleKeyString(inner, work))
		} else {
			parts = append(parts, keyString(it))
		}
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

func formatPyFloat(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	case math.IsNaN(f):
		return "nan"
	}
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if !strings.ContainsAny(s, ".eE") {
		s += ".0"
	}
	return s
}

// builder turns named tensors into the document's entries.
type builder struct {
	doc *formats.Document
	c   *checkpoint
}

func (b *builder) warn(at int64, format string, args ...any) {
	b.doc.Warn(at, format, args...)
}

// addTensors lists the named tensors and says which share a storage.
func (b *builder) addTensors(named []namedTensor) {
	blobs := make([]*blob, len(named))
	entries := make([]*formats.TensorEntry, len(named))
	for i, nt := range named {
		entries[i] = b.entry(nt)
		if nt.t.storage != nil {
			blobs[i] = nt.t.storage.blob
		}
	}
	markShared(entries, blobs)
	b.doc.Tensors = append(b.doc.Tensors, entries...)
}

// markShared tells each entry which others view its storage (blobs[i]
// is entries[i]'s, or nil).
func markShared(entries []*formats.TensorEntry, blobs []*blob) {
	// Most storages hold one tensor: remember the first, and make a list
	// only for a storage seen again.
	first := make(map[*blob]int, len(blobs))
	var shared map[*blob][]int
	for i, bl := range blobs {
		if bl == nil {
			continue
		}
		j, seen := first[bl]
		if !seen {
			first[bl] = i
			continue
		}
		if shared == nil {
			shared = map[*blob][]int{}
		}
		if shared[bl] == nil {
			shared[bl] = []int{j}
		}
		shared[bl] = append(shared[bl], i)
	}
	for _, idx := range shared {
		for _, i := range idx {
			var shown []string
			n := 0
			for _, j := range idx {
				if j != i && entries[j].Name != entries[i].Name {
					if n < 5 {
						shown = append(shown, entries[j].Name)
					}
					n++
				}
			}
			if n == 0 {
				continue
			}
			if n > 5 {
				shown = append(shown, fmt.Sprintf("and %d more", n-5))
			}
			e := entries[i]
			e.Attrs = append(e.Attrs, formats.Attr{Name: "shares storage with", Value: strings.Join(shown, ", ")})
		}
	}
}

// entry lists one tensor: its facts now, its data through a loader that
// views the storage in place.
func (b *builder) entry(nt namedTensor) *formats.TensorEntry {
	t := nt.t
	e := &formats.TensorEntry{Name: nt.name, DType: t.elem.dtype, TypeName: t.elem.name, Offset: -1, Role: nt.role, Note: nt.note}
	e.Shape = make([]int, len(t.size))
	for i, d := range t.size {
		e.Shape[i] = int(d)
	}
	if t.storage != nil {
		st := t.storage
		e.Attrs = append(e.Attrs, formats.Attr{Name: "storage", Value: st.key})
		if st.location != "" && st.location != "cpu" {
			e.Attrs = append(e.Attrs, formats.Attr{Name: "device", Value: st.location})
		}
		if t.offset != 0 {
			e.Attrs = append(e.Attrs, formats.Attr{Name: "storage offset", Value: t.offset})
		}
	}
	if !rowMajor(t.size, t.stride) {
		e.Attrs = append(e.Attrs, formats.Attr{Name: "stride", Value: append([]int64(nil), t.stride...)})
	}
	if t.parameter {
		e.Attrs = append(e.Attrs, formats.Attr{Name: "parameter", Value: true})
	}
	if t.requiresGrad {
		e.Attrs = append(e.Attrs, formats.Attr{Name: "requires_grad", Value: true})
	}
	if b.c.bigEnd {
		e.Attrs = append(e.Attrs, formats.Attr{Name: "byte order", Value: "big-endian"})
	}
	problem := b.check(t)
	if problem != "" {
		if e.Note == "" {
			e.Note = problem
		}
		b.warn(t.at, "tensor %q: %s", nt.name, problem)
		return e
	}
	st := t.storage
	bl := st.blob
	es := int64(t.elem.size)
	first := (st.elemOffset + t.offset) * es // in the blob
	span := viewSpan(t) * es
	if bl.at >= 0 {
		e.Offset = bl.at + first
	} else if bl.inf != nil {
		e.Attrs = append(e.Attrs, formats.Attr{Name: "compression", Value: "deflate"})
	}
	e.NBytes = span
	if t.quant != nil {
		q, err := b.quant(t.quant)
		if err != nil {
			e.Note = err.Error()
			b.warn(t.at, "tensor %q: %v", nt.name, err)
		} else {
			e.Quant = q
		}
	}
	shape := e.Shape
	strides := make([]int, len(t.stride))
	for i, s := range t.stride {
		strides[i] = int(s)
	}
	dt, bigEnd := t.elem.dtype, b.c.bigEnd
	e.SetLoader(func(ctx context.Context) (*tensor.Tensor, error) {
		s, err := bl.storage(ctx)
		if err != nil {
			return nil, err
		}
		v, err := tensor.NewStrided(s, first, dt, shape, strides)
		if err != nil {
			return nil, err
		}
		if bigEnd && dt.Size() > 1 {
			return v.BigEndian()
		}
		return v, nil
	})
	return e
}

// check says why a tensor view cannot be read, or "" when it can: every
// element must lie inside its storage, and the storage inside the file.
func (b *builder) check(t *pyTensor) string {
	if t.meta {
		return "a meta tensor: torch saved its shape only"
	}
	if !t.elem.dtype.Valid() {
		return fmt.Sprintf("torch's %s has no counterpart here: listed without data", t.elem)
	}
	if len(t.size) != len(t.stride) {
		return fmt.Sprintf("size %v and stride %v differ in length", t.size, t.stride)
	}
	for i, d := range t.size {
		if d < 0 {
			return fmt.Sprintf("size %v has a negative dimension", t.size)
		}
		if t.stride[i] < 0 {
			return fmt.Sprintf("stride %v is negative (torch never writes one)", t.stride)
		}
		if d > tensor.MaxElements {
			return fmt.Sprintf("size %v has more than 2^48 elements", t.size)
		}
	}
	ints := make([]int, len(t.size))
	for i, d := range t.size {
		ints[i] = int(d)
	}
	if _, err := tensor.NumElements(ints); err != nil {
		return fmt.Sprintf("size %v has more than 2^48 elements", t.size)
	}
	if t.offset < 0 {
		return fmt.Sprintf("storage offset %d is negative", t.offset)
	}
	st := t.storage
	if st == nil || st.blob == nil {
		return "no storage"
	}
	if st.blob.missing != "" {
		return st.blob.missing
	}
	es := int64(t.elem.size)
	if es != int64(st.elem.size) {
		return fmt.Sprintf("a %s view of a %s storage", t.elem, st.elem)
	}
	if st.numel > (math.MaxInt64-st.elemOffset)/max(es, 1) || (st.elemOffset+st.numel)*es > st.blob.size {
		return fmt.Sprintf("storage %q: %d elements of %d bytes need %d bytes, the file holds %d", st.key, st.numel, es, satMul(st.elemOffset+st.numel, es), st.blob.size)
	}
	last, ok := lastElement(t)
	if !ok || last >= st.numel {
		return fmt.Sprintf("the view (offset %d, size %v, stride %v) reaches element %s of a storage of %d elements", t.offset, t.size, t.stride, reachString(last, ok), st.numel)
	}
	return ""
}

func satMul(a, b int64) int64 {
	if b != 0 && a > math.MaxInt64/b {
		return math.MaxInt64
	}
	return a * b
}

func reachString(last int64, ok bool) string {
	if !ok {
		return "beyond 2^63"
	}
	return strconv.FormatInt(last, 10)
}

// lastElement is the index, in the storage, of the view's furthest
// element (-1 for an empty view); false when it overflows.
func lastElement(t *pyTensor) (int64, bool) {
	last := t.offset
	for i, d := range t.size {
		if d == 0 {
			return -1, true
		}
		s := t.stride[i]
		if s != 0 && d-1 > (math.MaxInt64-last)/s {
			return 0, false
		}
		last += (d - 1) * s
	}
	return last, true
}

// viewSpan is how many elements lie between the view's first and last
// elements, inclusive.
func viewSpan(t *pyTensor) int64 {
	last, ok := lastElement(t)
	if !ok || last < 0 {
		return 0
	}
	return last - t.offset + 1
}

func rowMajor(size, stride []int64) bool {
	if len(size) != len(stride) {
		return false
	}
	acc := int64(1)
	for i := len(size) - 1; i >= 0; i-- {
		if size[i] != 1 && stride[i] != acc {
			return false
		}
		acc *= size[i]
	}
	return true
}

// quant reads a quantised tensor's parameters; per-channel scales and
// zero points are small tensors of their own, read now.
func (b *builder) quant(q *quantParams) (*formats.Quant, error) {
	if q.scales == nil {
		return &formats.Quant{Scales: []float64{q.scale}, ZeroPoints: []int64{q.zeroPoint}}, nil
	}
	scales, err := b.smallValues(q.scales)
	if err != nil {
		return nil, fmt.Errorf("scales: %v", err)
	}
	zps, err := b.smallValues(q.zeroPoints)
	if err != nil {
		return nil, fmt.Errorf("zero points: %v", err)
	}
	if len(zps) != len(scales) {
		return nil, fmt.Errorf("%d scales and %d zero points", len(scales), len(zps))
	}
	out := &formats.Quant{Scales: scales, ZeroPoints: make([]int64, len(zps)), Axis: int(q.axis)}
	for i, z := range zps {
		out.ZeroPoints[i] = int64(math.Round(z))
	}
	return out, nil
}

func (b *builder) smallValues(t *pyTensor) ([]float64, error) {
	if p := b.check(t); p != "" {
		return nil, fmt.Errorf("%s", p)
	}
	if len(t.size) != 1 || t.size[0] > maxQuantParam {
		return nil, fmt.Errorf("shape %v: expected one dimension of at most %d", t.size, maxQuantParam)
	}
	st, err := t.storage.blob.storage(context.Background())
	if err != nil {
		return nil, err
	}
	v, err := tensor.NewStrided(st, (t.storage.elemOffset+t.offset)*int64(t.elem.size), t.elem.dtype, []int{int(t.size[0])}, []int{int(t.stride[0])})
	if err != nil {
		return nil, err
	}
	if b.c.bigEnd && t.elem.size > 1 {
		if v, err = v.BigEndian(); err != nil {
			return nil, err
		}
	}
	out := make([]float64, t.size[0])
	if err := tensor.CatchFault(func() error { return v.ReadFloat64s(0, out) }); err != nil {
		return nil, err
	}
	return out, nil
}

// Metadata.

// metaBuilder turns the unpickled object into the metadata tree.
type metaBuilder struct {
	nodes  int64
	budget int64
	// Linking tensor leaves to the document's tensors: the path of keys
	// to the node, the names listed, and each tensor's first name.
	segs   []string
	path   []byte            // segs joined by ".", rebuilt for each tensor leaf
	known  map[string]string // each name listed, to itself (one string shared)
	names  map[*pyTensor]string
	onPath map[any]bool
	cut    bool
}

// newMetaBuilder bounds the tree: about a node per two bytes of pickle,
// so that references repeated through the memo cannot multiply it.
func newMetaBuilder(fileSize int64) *metaBuilder {
	return &metaBuilder{onPath: map[any]bool{}, budget: min(maxMetaNodes, 1<<14+fileSize/2)}
}

// link lets tensor leaves name the document's tensors.
func (mb *metaBuilder) link(named []namedTensor) *metaBuilder {
	if mb.known == nil {
		mb.known, mb.names = make(map[string]string, len(named)), make(map[*pyTensor]string, len(named))
	}
	for _, nt := range named {
		mb.known[nt.name] = nt.name
		if _, ok := mb.names[nt.t]; !ok {
			mb.names[nt.t] = nt.name
		}
	}
	return mb
}

// metaOf is the tree of v named name.
func metaOf(name string, v any, mb *metaBuilder, depth int) *formats.Meta {
	if mb == nil {
		mb = newMetaBuilder(maxMetaNodes)
	}
	if depth > 0 {
		mb.segs = append(mb.segs, name)
		defer func() { mb.segs = mb.segs[:len(mb.segs)-1] }()
	}
	mb.nodes++
	if mb.nodes > mb.budget || depth > maxNesting {
		mb.cut = true
		return formats.Leaf(name, "… (not shown: the object is larger than the metadata pane shows)")
	}
	switch x := v.(type) {
	case *pyDict, *pyList, *pyTuple, *pyObject, *pySet:
		if mb.onPath[v] {
			return formats.Leaf(name, "<reference to an enclosing "+typeName(v)+">")
		}
		mb.onPath[v] = true
		defer delete(mb.onPath, v)
	case nil:
		return formats.Leaf(name, nil)
	case bool, int64, float64, string:
		return formats.Leaf(name, x)
	case *big.Int:
		return formats.Leaf(name, x.String())
	case pyBytes:
		if len(x) > maxShownBytes {
			return formats.Leaf(name, fmt.Sprintf("bytes of length %d", len(x)))
		}
		return formats.Leaf(name, formats.Bytes(x))
	case *pyComplex:
		return formats.Leaf(name, fmt.Sprintf("(%s%+gj)", formatPyFloat(x.re), x.im))
	case *pySlice:
		return formats.Leaf(name, fmt.Sprintf("slice(%s, %s, %s)", scalarString(x.start), scalarString(x.stop), scalarString(x.step)))
	case *pyGlobal:
		return formats.Leaf(name, "<"+x.full()+">")
	case *pyDType:
		return formats.Leaf(name, "torch."+x.name)
	case *pyDevice:
		return formats.Leaf(name, "device("+x.desc+")")
	case *pyQScheme:
		return formats.Leaf(name, "torch."+x.name)
	case *pyStorageType:
		return formats.Leaf(name, "<"+x.name+">")
	case *pyStorage:
		return formats.Leaf(name, fmt.Sprintf("storage %q: %d × %s", x.key, x.numel, x.elem))
	case *pyTensor:
		m := formats.Leaf(name, x.desc())
		mb.path = mb.path[:0]
		for i, seg := range mb.segs {
			if i > 0 {
				mb.path = append(mb.path, '.')
			}
			mb.path = append(mb.path, seg...)
		}
		if name, ok := mb.known[string(mb.path)]; ok {
			m.Tensor = name
		} else {
			m.Tensor = mb.names[x]
		}
		return m
	case *npScalar:
		return formats.Leaf(name, scalarValue(x.value()))
	case *npDType:
		return formats.Leaf(name, "numpy.dtype("+x.String()+")")
	case *npArray:
		return npMeta(name, x, mb, depth)
	default:
		return formats.Leaf(name, typeName(v))
	}
	switch x := v.(type) {
	case *pyDict:
		m := formats.NewObject(name)
		for i, k := range x.keys {
			m.Add(metaOf(keyString(k), x.vals[i], mb, depth+1))
		}
		if a, ok := x.attrs.(*pyDict); ok && len(a.keys) > 0 {
			m.Add(metaOf("__dict__", a, mb, depth+1))
		}
		return m
	case *pyList:
		return listMeta(name, x.items, mb, depth)
	case *pyTuple:
		return listMeta(name, x.items, mb, depth)
	case *pySet:
		return listMeta(name, x.items, mb, depth)
	case *pyObject:
		m := formats.NewObject(name, formats.Leaf("object of class", x.class))
		if len(x.args) > 0 {
			m.Add(listMeta("args", x.args, mb, depth+1))
		}
		if x.kwargs != nil {
			m.Add(metaOf("kwargs", x.kwargs, mb, depth+1))
		}
		for _, part := range stateParts(x.state) {
			if d, ok := part.(*pyDict); ok {
				for i, k := range d.keys {
					m.Add(metaOf(keyString(k), d.vals[i], mb, depth+1))
				}
			} else if part != nil {
				m.Add(metaOf("state", part, mb, depth+1))
			}
		}
		if x.dict != nil {
			for i, k := range x.dict.keys {
				m.Add(metaOf(keyString(k), x.dict.vals[i], mb, depth+1))
			}
		}
		if len(x.list) > 0 {
			m.Add(listMeta("items", x.list, mb, depth+1))
		}
		return m
	}
	return nil
}

func listMeta(name string, its []any, mb *metaBuilder, depth int) *formats.Meta {
	m := formats.NewList(name)
	for i, it := range its {
		m.Add(metaOf(strconv.Itoa(i), it, mb, depth+1))
	}
	return m
}

func npMeta(name string, a *npArray, mb *metaBuilder, depth int) *formats.Meta {
	if !a.built || a.dtype == nil {
		return formats.Leaf(name, "numpy.ndarray")
	}
	dims := make([]string, len(a.shape))
	for i, d := range a.shape {
		dims[i] = strconv.FormatInt(d, 10)
	}
	m := formats.NewObject(name, formats.Leaf("numpy array", fmt.Sprintf("%s[%s]", a.dtype, strings.Join(dims, ", "))))
	vals := a.elements(maxNPValues)
	if len(vals) > 0 {
		m.Add(listMeta("values", vals, mb, depth+1))
	}
	return m
}

// scalarValue keeps the kinds a Meta leaf holds.
func scalarValue(v any) any {
	switch x := v.(type) {
	case bool, int64, float64, string:
		return x
	case pyBytes:
		return formats.Bytes(x)
	case *pyComplex:
		return fmt.Sprintf("(%s%+gj)", formatPyFloat(x.re), x.im)
	}
	return fmt.Sprint(v)
}

func scalarString(v any) string {
	switch x := v.(type) {
	case nil:
		return "None"
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		return formatPyFloat(x)
	case string:
		return strconv.Quote(x)
	}
	return typeName(v)
}

// unknownMeta lists the classes the allow-list did not know: their
// objects are shown inert.
func unknownMeta(unknown map[string]int) *formats.Meta {
	if len(unknown) == 0 {
		return nil
	}
	names := make([]string, 0, len(unknown))
	for k := range unknown {
		names = append(names, k)
	}
	sort.Strings(names)
	m := formats.NewObject("classes shown inert (never loaded)")
	for _, n := range names {
		m.Add(formats.Leaf(n, int64(unknown[n])))
	}
	return m
}
