package tsm

import (
	"bytes"
	"encoding/binary"
	"runtime"
	"testing"
	"unsafe"

	"tensorscope/formats"
)

// allocated is the bytes decoding data allocates.
func allocated(t *testing.T, id string, data []byte) (uint64, *formats.Document) {
	t.Helper()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	doc, _ := formats.DecodeAs(id, "hostile", data)
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc, doc
}

// modelGrowth is how much the document model of one node (its Node and
// its one Value) has grown beyond 144 + 64 bytes.
const modelGrowth = uint64(unsafe.Sizeof(formats.Node{})+unsafe.Sizeof(formats.Value{})) - (144 + 64)

// TestHostileMemory decodes modules built to cost the most memory per
// byte — a constant packing 5-byte VOID fields, a node packing them into
// one parameter, a flood of minimal nodes, a .csta tree of 1-byte nil
// pieces — and requires that decoding allocates at most 20 times the
// file's size, plus, per graph node, what the shared document model
// (formats.Node and formats.Value) has grown since that bound was set,
// when they were 144 and 64 bytes: codecs for other formats add fields
// there, and this test bounds what TenniS decoding itself spends. The
// worst is a flood of 26-byte nodes. A real module allocates about 7% of
// its size, since tensor data is never copied.
func TestHostileMemory(t *testing.T) {
	const size = 1 << 20
	voids := make([]Tensor, size/5)
	for i := range voids {
		voids[i] = Tensor{DType: VOID, Shape: []int{}}
	}
	nodes := make([]Node, size/26)
	for i := range nodes {
		nodes[i] = Node{Params: []Param{P(ParamOp, Tensor{DType: CHAR8, Shape: []int{}, Data: []byte{'x'}})}}
	}
	nils := binary.LittleEndian.AppendUint32(nil, Magic)
	nils = binary.LittleEndian.AppendUint32(append(nils, pieceList), size)
	nils = append(nils, make([]byte, size)...)

	cases := map[string]struct {
		id   string
		data []byte
	}{
		"const of VOID fields": {"tsm", encodeUnchecked(t, &Module{Code: Magic, Nodes: []Node{{Params: []Param{
			P(ParamOp, String(OpConst)), P(ParamName, String("c")), {Name: "value", Fields: voids}}}}})},
		"parameter of VOID fields": {"tsm", encodeUnchecked(t, &Module{Code: Magic, Nodes: []Node{{Params: []Param{
			P(ParamOp, String("op")), {Name: "p", Fields: voids}}}}})},
		"minimal nodes": {"tsm", encodeUnchecked(t, &Module{Code: Magic, Nodes: nodes})},
		"nil pieces":    {"csta", sealCSTA(nils)},
	}
	for name, c := range cases {
		n, doc := allocated(t, c.id, c.data)
		ratio := float64(n) / float64(len(c.data))
		t.Logf("%s: %d bytes allocated for %d (%.1f×)", name, n, len(c.data), ratio)
		budget := 20 * uint64(len(c.data))
		if doc != nil && doc.Graph != nil {
			budget += uint64(len(doc.Graph.Nodes)) * modelGrowth
		}
		if n > budget {
			t.Errorf("%s: decoding %d bytes allocated %d (%.1f×), over %d", name, len(c.data), n, ratio, budget)
		}
		if c.id == "tsm" && (doc == nil || doc.Graph == nil) {
			t.Errorf("%s did not decode", name)
		}
	}

	var real bytes.Buffer
	if err := Encode(&real, ExampleNet()); err != nil {
		t.Fatal(err)
	}
	if n, _ := allocated(t, "tsm", real.Bytes()); n > 8*uint64(real.Len()) {
		t.Errorf("example net: %d bytes allocated for %d", n, real.Len())
	}
}
