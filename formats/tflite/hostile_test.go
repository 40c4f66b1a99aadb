package tflite_test

import (
	"context"
	"encoding/binary"
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"

	"tensorscope/formats"
	"tensorscope/formats/tflite/tflitetest"
	"tensorscope/internal/benchcpu"
)

func decodeBytes(data []byte) (*formats.Document, error) {
	return formats.DecodeAs("tflite", "hostile.tflite", data)
}

func hasWarning(doc *formats.Document, substr string) bool {
	for _, w := range doc.Warnings {
		if strings.Contains(w.Message, substr) {
			return true
		}
	}
	return false
}

// whileModel: subgraph 0 runs WHILE(cond, body) with the given indices,
// and IF and CALL_ONCE naming the given subgraphs.
func whileModel(cond, body, branch, init int32) *tflitetest.Model {
	scalar := []tflitetest.Tensor{{Name: "x", Type: tflitetest.Int32, Shape: []int32{}}, {Name: "y", Type: tflitetest.Int32, Shape: []int32{}}}
	leaf := tflitetest.Subgraph{Name: "leaf", Tensors: scalar, Inputs: []int32{0}, Outputs: []int32{1},
		Ops: []tflitetest.Op{{Code: 0, Inputs: []int32{0, 0}, Outputs: []int32{1}}}}
	main := tflitetest.Subgraph{Name: "main", Tensors: scalar, Inputs: []int32{0}, Outputs: []int32{1},
		Ops: []tflitetest.Op{
			{Code: 1, Inputs: []int32{0}, Outputs: []int32{1}, Subgraphs: []int32{cond, body}},
			{Code: 2, Inputs: []int32{0}, Subgraphs: []int32{branch, branch}},
			{Code: 3, Subgraphs: []int32{init}},
		}}
	// Subgraph 2 runs subgraph 1 in a WHILE too: recursion when 1 runs 2.
	loop := tflitetest.Subgraph{Name: "loop", Tensors: scalar, Inputs: []int32{0}, Outputs: []int32{1},
		Ops: []tflitetest.Op{{Code: 1, Inputs: []int32{0}, Outputs: []int32{1}, Subgraphs: []int32{1, 1}}}}
	return &tflitetest.Model{Codes: []int32{tflitetest.Add, tflitetest.While, tflitetest.If, tflitetest.CallOnce},
		Subgraphs: []tflitetest.Subgraph{main, leaf, loop}, Buffers: [][]byte{nil}}
}

func TestWhileBodiesNest(t *testing.T) {
	doc, err := decodeBytes(whileModel(1, 1, 1, 1).Bytes())
	if err != nil {
		t.Fatal(err)
	}
	n := doc.Graph.Nodes[0]
	if n.Op != "WHILE" || len(n.Subgraphs) != 2 || n.Subgraphs[1].Graph.Nodes[0].Op != "ADD" {
		t.Fatalf("WHILE node %+v", n)
	}
	if n.Meaning.Category != formats.CategoryControlFlow {
		t.Errorf("WHILE category %v", n.Meaning.Category)
	}
	if len(doc.Graph.Nodes[1].Subgraphs) != 2 || len(doc.Graph.Nodes[2].Subgraphs) != 1 {
		t.Errorf("IF has %d subgraphs, CALL_ONCE %d", len(doc.Graph.Nodes[1].Subgraphs), len(doc.Graph.Nodes[2].Subgraphs))
	}
	if len(doc.Warnings) > 0 {
		t.Errorf("warnings: %v", doc.Warnings)
	}
}

func TestSubgraphIndexOutOfRangeIsAWarning(t *testing.T) {
	for _, c := range []struct {
		name                   string
		cond, body, branch, in int32
	}{{"WHILE", 1, 99, 1, 1}, {"IF", 1, 1, -5, 1}, {"CALL_ONCE", 1, 1, 1, 3}} {
		doc, err := decodeBytes(whileModel(c.cond, c.body, c.branch, c.in).Bytes())
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if !hasWarning(doc, c.name) || !hasWarning(doc, "the model has 3") {
			t.Errorf("%s: no warning naming the operator and the subgraph count: %v", c.name, doc.Warnings)
		}
		for _, w := range doc.Warnings {
			if w.Offset <= 0 {
				t.Errorf("%s: warning %q names no byte", c.name, w.Message)
			}
		}
	}
}

func TestRecursionBetweenSubgraphsIsCut(t *testing.T) {
	// main → WHILE body 2 → WHILE body 1 (leaf); and a self-recursive main.
	m := whileModel(1, 2, 1, 1)
	m.Subgraphs[2].Ops[0].Subgraphs = []int32{2, 0}
	doc, err := decodeBytes(m.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if !hasWarning(doc, "recursion") {
		t.Errorf("no warning about recursion: %v", doc.Warnings)
	}
}

func TestTruncatedAtEveryOffset(t *testing.T) {
	good := whileModel(1, 2, 1, 1).Bytes()
	for n := 0; n < len(good); n++ {
		_, _ = decodeBytes(good[:n])
	}
	chain := tflitetest.Chain(6).Bytes()
	for n := 0; n < len(chain); n++ {
		doc, err := decodeBytes(chain[:n])
		if err == nil {
			loadAll(doc)
		}
	}
}

func loadAll(doc *formats.Document) {
	for _, e := range doc.Tensors {
		if e.HasData() {
			if x, err := e.Load(context.Background()); err == nil {
				v := make([]float64, min(x.Len(), 64))
				_ = x.ReadFloat64s(0, v)
			}
		}
	}
}

func wantErrorAt(t *testing.T, data []byte, substr string) *formats.Error {
	t.Helper()
	_, err := decodeBytes(data)
	var fe *formats.Error
	if !errors.As(err, &fe) {
		t.Fatalf("want a *formats.Error saying %q, got %v", substr, err)
	}
	if fe.Offset < 0 || !strings.Contains(fe.Msg, substr) {
		t.Errorf("error %v: want an offset and %q", err, substr)
	}
	return fe
}

func TestOffsetPastTheEndIsAnErrorWithItsByte(t *testing.T) {
	good := tflitetest.Chain(2).Bytes()
	bad := append([]byte(nil), good...)
	binary.LittleEndian.PutUint32(bad, uint32(len(bad)+100))
	if fe := wantErrorAt(t, bad, "root table"); fe.Offset != 0 {
		t.Errorf("offset %d, want 0", fe.Offset)
	}
	// Every uoffset of the root table pointed past the end.
	root := binary.LittleEndian.Uint32(good)
	vt := int64(root) - int64(int32(binary.LittleEndian.Uint32(good[root:])))
	off := binary.LittleEndian.Uint16(good[vt+4+2*2:]) // Model.subgraphs
	bad = append([]byte(nil), good...)
	binary.LittleEndian.PutUint32(bad[int(root)+int(off):], 0x7fffff00)
	fe := wantErrorAt(t, bad, "Model.subgraphs")
	if fe.Offset != int64(root)+int64(off) {
		t.Errorf("offset %d, want %d", fe.Offset, int64(root)+int64(off))
	}
}

func TestVectorLengthPastTheEndIsAnError(t *testing.T) {
	good := tflitetest.Chain(2).Bytes()
	// The weight's buffer: 8·3·3·8·4 bytes; its length word precedes them.
	at := findLength(good, 8*3*3*8*4)
	if at < 0 {
		t.Fatal("no buffer length in the model")
	}
	bad := append([]byte(nil), good...)
	binary.LittleEndian.PutUint32(bad[at:], 1<<30)
	if fe := wantErrorAt(t, bad, "vector of"); fe.Offset != int64(at) {
		t.Errorf("offset %d, want %d", fe.Offset, at)
	}
}

func findLength(b []byte, n uint32) int {
	for i := 0; i+4 <= len(b); i += 4 {
		if binary.LittleEndian.Uint32(b[i:]) == n {
			return i
		}
	}
	return -1
}

func TestVtablePointingIntoItselfIsAnError(t *testing.T) {
	good := tflitetest.Chain(2).Bytes()
	root := binary.LittleEndian.Uint32(good)
	bad := append([]byte(nil), good...)
	binary.LittleEndian.PutUint32(bad[root:], 0)
	wantErrorAt(t, bad, "vtable")
	// A vtable overlapping the table's own offset.
	binary.LittleEndian.PutUint32(bad[root:], 2)
	wantErrorAt(t, bad, "vtable")
}

func TestBufferSmallerThanItsTensor(t *testing.T) {
	m := tflitetest.Chain(2)
	m.Subgraphs[0].Tensors[1].Shape = []int32{8, 3, 3, 9}
	doc, err := decodeBytes(m.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	e := doc.Tensor("weight")
	if e == nil || e.HasData() || !strings.Contains(e.Note, "short") || !hasWarning(doc, "needs") {
		t.Fatalf("weight %+v, warnings %v", e, doc.Warnings)
	}
	if _, err := e.Load(context.Background()); err == nil {
		t.Error("loading a tensor its buffer cannot hold succeeded")
	}
}

// addChain is a model of n ADD operators reading one tensor.
func addChain(n int) []byte {
	sg := tflitetest.Subgraph{Name: "big", Tensors: []tflitetest.Tensor{{Name: "x", Type: tflitetest.Float32, Shape: []int32{1}}}, Inputs: []int32{0}}
	sg.Ops = make([]tflitetest.Op, n)
	for i := range sg.Ops {
		sg.Ops[i] = tflitetest.Op{Code: 0, Inputs: []int32{0, 0}}
	}
	return (&tflitetest.Model{Codes: []int32{tflitetest.Add}, Subgraphs: []tflitetest.Subgraph{sg}, Buffers: [][]byte{nil}}).Bytes()
}

// TestMillionOperatorsInBoundedTimeAndMemory decodes 1,000,000 operators:
// time must grow about linearly from 10,000 (checked against that smaller model
// decoded on the same machine, so that load and the race detector do not
// matter; process CPU time, so that waiting for a core does not either)
// and memory stay under 1 GB.
func TestMillionOperatorsInBoundedTimeAndMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 1,000,000-operator model")
	}
	const n = 1_000_000
	small := addChain(n / 100)
	smallTook := time.Duration(1 << 62)
	for range 3 {
		start := benchcpu.ProcessTime()
		if _, err := decodeBytes(small); err != nil {
			t.Fatal(err)
		}
		smallTook = min(smallTook, benchcpu.ProcessTime()-start)
	}
	data := addChain(n)
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start, wall := benchcpu.ProcessTime(), time.Now()
	doc, err := decodeBytes(data)
	took, tookWall := benchcpu.ProcessTime()-start, time.Since(wall)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Graph.Nodes) != n+1 {
		t.Fatalf("%d nodes", len(doc.Graph.Nodes))
	}
	alloc := after.TotalAlloc - before.TotalAlloc
	t.Logf("%d operators (%d bytes): decoded in %v of CPU, %v wall (%d operators: %v of CPU), %d MB allocated",
		n, len(data), took, tookWall, n/100, smallTook, alloc>>20)
	if limit := 1000*smallTook + 2*time.Second; took > limit {
		t.Errorf("decoding took %v of CPU, more than 1000× the %v of a model 100× smaller (quadratic would be 10,000×)", took, smallTook)
	}
	if alloc > 1<<30 {
		t.Errorf("decoding allocated %d MB", alloc>>20)
	}
}
