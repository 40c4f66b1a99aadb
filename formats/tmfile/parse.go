package tmfile

import (
	"encoding/binary"
	"fmt"
	"slices"

	"tensorscope/formats"
)

// Sizes of the fixed TM2 structs (natural C alignment, as Tengine writes them).
const (
	headerSize      = 12
	modelSize       = 16
	subgraphSize    = 36 // older writers; newer ones append offset_vo_sub_info
	subgraphSizeNew = 40
	subInfoSize     = 28
	nodeSize        = 28
	operatorSize    = 12
	tensorSize      = 32
	bufferSize      = 8
	stringSize      = 8
	quantParamSize  = 12
	attrSize        = 12

	// maxParamSize bounds the size a param struct is given when it is
	// measured as the distance to its TM2_Operator; the largest real one is
	// 76 bytes, so anything far beyond means the two are not neighbours.
	maxParamSize = 1024
)

// fileIndex remembers where the decoded objects are, for the document.
type fileIndex struct {
	headerPad    uint16
	root         int64
	subgraphVec  int64
	nSubgraphs   int
	subgraph     int64
	subgraphLen  int    // 36 or 40
	subInfoField uint32 // raw offset_vo_sub_info when subgraphLen is 40
	tensorAt     []int64
	bufferAt     []int64
	dataAt       []int64 // data offset of each buffer, -1 when absent
}

// parser decodes a whole file into a Model. Every read goes through a
// formats.Reader, so the first structural failure sticks and names its
// offset; optional parts are read with a scratch Reader and their failures
// become warnings.
type parser struct {
	data  []byte
	size  int64
	r     *formats.Reader
	m     *Model
	idx   *fileIndex
	warns []formats.Warning

	// budget is how many bytes of objects may still be decoded. Objects in
	// a valid file do not overlap, so their total size cannot exceed the
	// file; a crafted file whose offsets all point at one large vector
	// would otherwise make decoding allocate quadratically.
	budget int64

	u32Arena []uint32
	i32Arena []int32
	names    []byte
	pending  []pendingName
}

// Decode reads a tmfile into a Model; the Model's buffers and params view
// data, which must stay unchanged while the Model is used. Anomalies that do
// not stop reading are returned as warnings.
func Decode(data []byte) (*Model, []formats.Warning, error) {
	m, _, warns, err := parse(data)
	return m, warns, err
}

func parse(data []byte) (*Model, *fileIndex, []formats.Warning, error) {
	p := &parser{
		data:   data,
		size:   int64(len(data)),
		r:      formats.NewReader(data),
		m:      &Model{},
		idx:    &fileIndex{},
		budget: 2*int64(len(data)) + 4096,
	}
	p.header()
	if err := p.r.Err(); err != nil {
		return nil, nil, nil, err
	}
	p.finishNames()
	return p.m, p.idx, p.warns, nil
}

func (p *parser) warn(at int64, format string, args ...any) {
	p.warns = append(p.warns, formats.Warning{Offset: at, Message: fmt.Sprintf(format, args...)})
}

func (p *parser) ok() bool { return p.r.Err() == nil }

// seek moves to the object of size bytes at off, which was read from the
// field at byte from. An offset into the header or past the end is a
// failure naming both places.
func (p *parser) seek(off uint32, size int64, from int64, what string, n int) bool {
	if !p.ok() {
		return false
	}
	o := int64(off)
	if o >= headerSize && o+size <= p.size {
		p.r.SeekTo(o, what)
		return true
	}
	if n >= 0 {
		what = fmt.Sprintf(what, n)
	}
	if o < headerSize {
		p.r.Failf(from, "%s: offset %d (stored at byte %d) points into the %d-byte file header",
			what, off, from, headerSize)
		return false
	}
	what = fmt.Sprintf("%s (offset stored at byte %d)", what, from)
	p.r.SeekTo(o, what)
	p.r.Bytes(size, what)
	return false
}

// charge takes n bytes from the decoding budget.
func (p *parser) charge(n int64, at int64, what string) bool {
	p.budget -= n
	if p.budget < 0 && p.ok() {
		p.r.Failf(at, "%s: the file's objects overlap: decoding them would take more than twice the file's %d bytes", what, p.size)
	}
	return p.ok()
}

func (p *parser) header() {
	r := p.r
	p.m.VerMain = r.U16("ver_main")
	p.m.VerSub = r.U16("ver_sub")
	p.m.VerCompile = r.U16("ver_compile")
	p.idx.headerPad = r.U16("header padding")
	root := r.U32("offset_root")
	if !p.ok() {
		return
	}
	if p.m.VerMain != 2 {
		r.Failf(0, "ver_main is %d, want 2 (TM2)", p.m.VerMain)
		return
	}
	if p.idx.headerPad != 0 {
		p.warn(6, "header padding bytes hold 0x%04x: junk the writer left in the gap of TM2_Header; ignored", p.idx.headerPad)
	}
	if !p.seek(root, modelSize, 8, "root table (TM2_Model)", -1) {
		return
	}
	p.idx.root = int64(root)
	p.m.OrigFormat = r.I32("orig_format")
	p.m.SubFormat = r.I32("sub_format")
	vSub := r.U32("offset_vo_subgraphs")
	sName := r.U32("offset_s_mname")
	p.m.Name = p.str(sName, p.idx.root+12, "model name")
	p.subgraphs(vSub)
}

func (p *parser) subgraphs(vSub uint32) {
	r := p.r
	from := p.idx.root + 8
	if vSub == 0 {
		r.Failf(from, "the model has no subgraph vector (offset 0)")
		return
	}
	if !p.seek(vSub, 4, from, "subgraph vector", -1) {
		return
	}
	p.idx.subgraphVec = int64(vSub)
	n := r.Count(4, "subgraph vector")
	if !p.ok() {
		return
	}
	if n == 0 {
		r.Failf(int64(vSub), "the subgraph vector is empty")
		return
	}
	p.idx.nSubgraphs = n
	first := r.U32("subgraph offset")
	for i := 1; i < n; i++ {
		at := r.Offset()
		o := r.U32("subgraph offset")
		if o == first {
			p.warn(at, "subgraph vector entry %d repeats the first subgraph; only the first is read", i)
		} else {
			p.warn(at, "subgraph vector entry %d holds %d, junk: Tengine reads only the first subgraph, and so does this reader", i, o)
		}
	}
	p.subgraph(first, int64(vSub)+4)
}

func (p *parser) subgraph(off uint32, from int64) {
	r := p.r
	if !p.seek(off, subgraphSize, from, "subgraph (TM2_Subgraph)", -1) {
		return
	}
	sg := int64(off)
	p.idx.subgraph = sg
	m := p.m
	m.SubgraphID = r.U32("subgraph_id")
	m.GraphLayout = r.I32("graph_layout")
	m.ModelLayout = r.I32("model_layout")
	vIn := r.U32("offset_vi_input_indices")
	vOut := r.U32("offset_vi_output_indices")
	vNodes := r.U32("offset_vo_seq_nodes")
	vTensors := r.U32("offset_vo_tensors")
	vBuffers := r.U32("offset_vo_buffers")
	sName := r.U32("offset_s_sname")
	if !p.ok() {
		return
	}
	// Newer writers append offset_vo_sub_info. When the subgraph vector
	// follows 36 bytes later, the struct is the old one and those 4 bytes
	// are the vector's count.
	p.idx.subgraphLen = subgraphSize
	if sg+subgraphSizeNew <= p.size && p.idx.subgraphVec-sg != subgraphSize {
		p.idx.subgraphLen = subgraphSizeNew
		p.idx.subInfoField = binary.LittleEndian.Uint32(p.data[sg+36:])
	}
	for _, l := range []struct {
		name string
		v    int32
	}{{"graph_layout", m.GraphLayout}, {"model_layout", m.ModelLayout}} {
		if l.v != LayoutNCHW && l.v != LayoutNHWC {
			p.warn(sg+4, "subgraph %s is %d, neither NCHW (0) nor NHWC (1)", l.name, l.v)
		}
	}
	m.SubgraphName = p.str(sName, sg+32, "subgraph name")
	m.Inputs = p.u32s(vIn, sg+12, "subgraph input node indices")
	m.Outputs = p.u32s(vOut, sg+16, "subgraph output node indices")
	p.nodes(vNodes, sg+20)
	p.tensors(vTensors, sg+24)
	p.buffers(vBuffers, sg+28)
	// Tengine's loader reads sub_info only when the subgraph vector has
	// more than one entry; the field is uninitialised junk otherwise.
	if p.ok() && p.idx.nSubgraphs == 1 && p.idx.subInfoField != 0 {
		p.warn(sg+36, "offset_vo_sub_info holds %d, but the subgraph vector has one entry: junk the writer left; ignored", p.idx.subInfoField)
	}
	if p.ok() && p.idx.nSubgraphs > 1 && p.idx.subInfoField != 0 {
		p.optional(sg+36, "sub-graph info (offset_vo_sub_info)", func() {
			m.SubInfo = p.subInfo(p.idx.subInfoField, sg+36)
		})
	}
}

// optional runs read with a scratch Reader: a failure inside becomes a
// warning and leaves the main reader untouched.
func (p *parser) optional(at int64, what string, read func()) bool {
	if !p.ok() {
		return false
	}
	main := p.r
	p.r = formats.NewReader(p.data)
	read()
	err := p.r.Err()
	p.r = main
	if err != nil {
		p.warn(at, "%s is unreadable, ignored: %v", what, err)
		return false
	}
	return true
}

func (p *parser) subInfo(off uint32, from int64) []SubInfo {
	r := p.r
	if !p.seek(off, 4, from, "sub-graph info vector", -1) {
		return nil
	}
	n := r.Count(4, "sub-graph info vector")
	if !p.charge(int64(n)*(4+subInfoSize), int64(off), "sub-graph info vector") {
		return nil
	}
	offs := make([]uint32, n)
	for i := range offs {
		offs[i] = r.U32("sub-graph info offset")
	}
	out := make([]SubInfo, n)
	for i, o := range offs {
		at := int64(off) + 4 + 4*int64(i)
		if !p.seek(o, subInfoSize, at, "sub-graph info %d", i) {
			return nil
		}
		s := &out[i]
		s.ID = r.U32("subgraph_id")
		s.InputWaitCount = r.U32("input_wait_count")
		s.DataType = r.I32("data_type")
		vNodes := r.U32("offset_vi_node_list")
		vIn := r.U32("offset_vi_input_tensor")
		vOut := r.U32("offset_vi_output_tensor")
		sDev := r.U32("offset_s_device_name")
		base := int64(o)
		s.Nodes = p.u32s(vNodes, base+12, "sub-graph node list")
		s.InputTensors = p.u32s(vIn, base+16, "sub-graph input tensors")
		s.OutputTensors = p.u32s(vOut, base+20, "sub-graph output tensors")
		s.Device = p.str(sDev, base+24, "sub-graph device name")
	}
	if !p.ok() {
		return nil
	}
	return out
}

// offsets reads a TM2_Vector_offsets whose entries point at objects of
// objSize bytes, charging the budget for the objects too.
func (p *parser) offsets(off uint32, from int64, objSize int64, what string) []uint32 {
	if off == 0 || !p.seek(off, 4, from, what, -1) {
		return nil
	}
	n := p.r.Count(4, what)
	if !p.charge(int64(n)*(4+objSize), int64(off), what) || n == 0 {
		return nil
	}
	out := p.takeU32(n)
	for i := range out {
		out[i] = p.r.U32(what)
	}
	return out
}

// u32s reads a TM2_Vector_indices; offset 0 is an absent (empty) vector.
func (p *parser) u32s(off uint32, from int64, what string) []uint32 {
	if off == 0 || !p.seek(off, 4, from, what, -1) {
		return nil
	}
	n := p.r.Count(4, what)
	if !p.charge(4+4*int64(n), int64(off), what) || n == 0 {
		return nil
	}
	out := p.takeU32(n)
	for i := range out {
		out[i] = p.r.U32(what)
	}
	return out
}

// i32s reads a TM2_Vector_dims; offset 0 gives nil.
func (p *parser) i32s(off uint32, from int64, what string) []int32 {
	if off == 0 || !p.seek(off, 4, from, what, -1) {
		return nil
	}
	n := p.r.Count(4, what)
	if !p.charge(4+4*int64(n), int64(off), what) {
		return nil
	}
	out := p.takeI32(n)
	for i := range out {
		out[i] = p.r.I32(what)
	}
	return out
}

// f32s reads a TM2_Vector_floats (per = 1) or TM2_Vector_anchors (per = 4).
func (p *parser) f32s(off uint32, from int64, per int64, what string) []float32 {
	if off == 0 || !p.seek(off, 4, from, what, -1) {
		return nil
	}
	n := int64(p.r.Count(4*per, what)) * per
	if !p.charge(4+4*n, int64(off), what) {
		return nil
	}
	out := make([]float32, n)
	for i := range out {
		out[i] = p.r.F32(what)
	}
	return out
}

// str reads a TM2_String; offset 0 is the empty (absent) string. The
// stored size counts a trailing NUL that some writers omit; the string ends
// at the first NUL either way.
func (p *parser) str(off uint32, from int64, what string) string {
	b := p.strBytes(off, from, what)
	if len(b) == 0 {
		return ""
	}
	return string(b)
}

// name reads a TM2_String into *dst later: the names of all nodes and
// tensors are collected and become one allocation at the end (see
// finishNames), instead of one per name.
func (p *parser) name(dst *string, off uint32, from int64, what string) {
	b := p.strBytes(off, from, what)
	if len(b) == 0 {
		return
	}
	start := len(p.names)
	p.names = append(p.names, b...)
	p.pending = append(p.pending, pendingName{dst, int32(start), int32(len(p.names))})
}

type pendingName struct {
	dst        *string
	start, end int32
}

// expectNames makes room for n more names of about 16 bytes.
func (p *parser) expectNames(n int) {
	p.pending = slices.Grow(p.pending, n)
	p.names = slices.Grow(p.names, 16*n)
}

// nameOf is the name that will be stored in *dst, for messages written
// before finishNames.
func (p *parser) nameOf(dst *string) string {
	for k := len(p.pending) - 1; k >= 0; k-- {
		if n := p.pending[k]; n.dst == dst {
			return string(p.names[n.start:n.end])
		}
	}
	return *dst
}

func (p *parser) finishNames() {
	all := string(p.names)
	for _, n := range p.pending {
		*n.dst = all[n.start:n.end]
	}
	p.names, p.pending = nil, nil
}

func (p *parser) strBytes(off uint32, from int64, what string) []byte {
	if off == 0 || !p.seek(off, stringSize, from, what, -1) {
		return nil
	}
	at := int64(off)
	n := p.r.U32("string size")
	data := p.r.U32("string data offset")
	if n == 0 {
		return nil
	}
	if !p.seek(data, int64(n), at+4, what, -1) || !p.charge(int64(n), at, what) {
		return nil
	}
	b := p.r.Bytes(int64(n), what)
	for i, c := range b {
		if c == 0 {
			return b[:i]
		}
	}
	return b
}

// takeU32 hands out n elements of a shared arena: graphs of many small
// index vectors then cost a few large allocations instead of one each.
func (p *parser) takeU32(n int) []uint32 {
	if n > len(p.u32Arena) {
		if n > 1024 {
			return make([]uint32, n)
		}
		p.u32Arena = make([]uint32, p.arenaChunk())
	}
	s := p.u32Arena[:n:n]
	p.u32Arena = p.u32Arena[n:]
	return s
}

// arenaChunk sizes arena chunks to the file: no vector can hold more
// entries than a quarter of the file's bytes.
func (p *parser) arenaChunk() int {
	return int(min(max(p.size/16, 1024), 16384))
}

func (p *parser) takeI32(n int) []int32 {
	if n > len(p.i32Arena) {
		if n > 1024 {
			return make([]int32, n)
		}
		p.i32Arena = make([]int32, p.arenaChunk())
	}
	s := p.i32Arena[:n:n]
	p.i32Arena = p.i32Arena[n:]
	return s
}
