package onnx_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tensorscope/formats"
	"tensorscope/formats/onnx"
	"tensorscope/formats/onnx/onnxtest"
	"tensorscope/internal/fifo"
)

func decodeBytes(t *testing.T, data []byte) (*formats.Document, error) {
	t.Helper()
	return formats.DecodeAs("onnx", "hostile.onnx", data)
}

func hasWarning(doc *formats.Document, substr string) bool {
	for _, w := range doc.Warnings {
		if strings.Contains(w.Message, substr) {
			return true
		}
	}
	return false
}

func TestSubgraphsNested100000DeepStopWithAWarning(t *testing.T) {
	data := onnxtest.NestedIfs(100000)
	if !onnx.Sniff(data) {
		t.Fatal("the nested model is not sniffed as ONNX")
	}
	doc, err := decodeBytes(t, data)
	if err != nil {
		t.Fatal(err)
	}
	if !hasWarning(doc, "nested") {
		t.Errorf("no warning about nesting: %v", doc.Warnings)
	}
	depth := 0
	for g := doc.Graph; g != nil && len(g.Nodes) > 0 && len(g.Nodes[0].Subgraphs) > 0; g = g.Nodes[0].Subgraphs[0].Graph {
		depth++
	}
	if depth < 10 || depth > 100 {
		t.Errorf("decoded %d nested levels; want the bounded depth", depth)
	}
}

func TestLengthPastEndOfFileIsAnErrorWithItsOffset(t *testing.T) {
	m := onnxtest.Model{IRVersion: 8, Graph: onnxtest.Graph{Nodes: []onnxtest.Node{{Op: "Relu", Inputs: []string{"x"}, Outputs: []string{"y"}}}}}
	good := m.Marshal()
	// Every truncation of the file must fail cleanly or decode, never panic.
	for n := 0; n < len(good); n++ {
		_, _ = decodeBytes(t, good[:n])
	}
	// The graph's length says 100 bytes more than the file has.
	bad := append([]byte(nil), good...)
	at := len(m.AppendHeader(nil)) + 1 // the graph field's length byte
	bad[at] += 100
	_, err := decodeBytes(t, bad)
	var fe *formats.Error
	if !errors.As(err, &fe) {
		t.Fatalf("want a *formats.Error, got %v", err)
	}
	if fe.Offset != int64(at) || !strings.Contains(fe.Msg, "bytes") {
		t.Errorf("error %v: want the offset %d of the length", err, at)
	}
}

func TestExternalDataOutsideTheFolderIsRefused(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "models")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	// A file the model must never reach, one folder up.
	if err := os.WriteFile(filepath.Join(dir, "secret.bin"), make([]byte, 64), 0o644); err != nil {
		t.Fatal(err)
	}
	locations := []string{"../../etc/passwd", "/etc/passwd", "../secret.bin", "a/../../secret.bin"}
	var inits []onnxtest.Tensor
	for i, loc := range locations {
		inits = append(inits, onnxtest.Tensor{Name: fmt.Sprintf("w%d", i), DataType: 1, Dims: []int64{4},
			External: [][2]string{{"location", loc}, {"offset", "0"}, {"length", "16"}}})
	}
	m := onnxtest.Model{IRVersion: 8, Graph: onnxtest.Graph{Initializers: inits}}
	path := filepath.Join(sub, "model.onnx")
	if err := os.WriteFile(path, m.Marshal(), 0o644); err != nil {
		t.Fatal(err)
	}
	doc, err := formats.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer doc.Close()
	for i, loc := range locations {
		e := doc.Tensor(fmt.Sprintf("w%d", i))
		if e == nil || e.HasData() {
			t.Errorf("%s: tensor %v must be listed without data", loc, e)
		}
		if _, err := e.Load(context.Background()); err == nil {
			t.Errorf("%s: loaded", loc)
		}
	}
	if n := len(doc.Shards()); n != 0 {
		t.Errorf("%d external files registered; none may be", n)
	}
	refused := 0
	for _, w := range doc.Warnings {
		if strings.Contains(w.Message, "refused") {
			refused++
		}
	}
	if refused != len(locations) {
		t.Errorf("%d refusal warnings, want %d: %v", refused, len(locations), doc.Warnings)
	}
}

func TestExternalDataInsideTheFolderHonoursOffsetAndLength(t *testing.T) {
	dir := t.TempDir()
	payload := append(make([]byte, 8), onnxtest.Float32s(1, 2, 3, 4, 5, 6)...)
	if err := os.WriteFile(filepath.Join(dir, "weights.bin"), payload, 0o644); err != nil {
		t.Fatal(err)
	}
	m := onnxtest.Model{IRVersion: 8, Graph: onnxtest.Graph{Initializers: []onnxtest.Tensor{
		{Name: "w", DataType: 1, Dims: []int64{2, 2}, External: [][2]string{{"location", "weights.bin"}, {"offset", "12"}, {"length", "16"}}},
		{Name: "gone", DataType: 1, Dims: []int64{3}, External: [][2]string{{"location", "missing.bin"}}},
	}}}
	path := filepath.Join(dir, "model.onnx")
	if err := os.WriteFile(path, m.Marshal(), 0o644); err != nil {
		t.Fatal(err)
	}
	doc, err := formats.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer doc.Close()
	if doc.Shards()[0].Mapped() {
		t.Error("opening mapped the external file")
	}
	got := loadFloats(t, doc.Tensor("w"))
	if fmt.Sprint(got) != "[2 3 4 5]" {
		t.Errorf("w = %v, want [2 3 4 5] (offset 12 skips 8 zero bytes and the value 1)", got)
	}
	gone := doc.Tensor("gone")
	if gone.HasData() || fmt.Sprint(gone.Shape) != "[3]" || !hasWarning(doc, "missing.bin") {
		t.Errorf("missing file: entry %+v, warnings %v", gone, doc.Warnings)
	}
}

func loadFloats(t *testing.T, e *formats.TensorEntry) []float64 {
	t.Helper()
	if e == nil {
		t.Fatal("no such tensor")
	}
	x, err := e.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	out := make([]float64, x.Len())
	if err := x.ReadFloat64s(0, out); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestRawDataShorterThanDimsIsAWarning(t *testing.T) {
	m := onnxtest.Model{IRVersion: 8, Graph: onnxtest.Graph{Initializers: []onnxtest.Tensor{
		{Name: "short", DataType: 1, Dims: []int64{1000, 1000}, Raw: onnxtest.Float32s(1, 2, 3)},
		{Name: "typed", DataType: 7, Dims: []int64{5}, Int64Data: []int64{1, 2}},
	}}}
	doc, err := decodeBytes(t, m.Marshal())
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"short", "typed"} {
		e := doc.Tensor(name)
		if e.HasData() {
			t.Errorf("%s: has data", name)
		}
		if !hasWarning(doc, fmt.Sprintf("%q", name)) {
			t.Errorf("%s: no warning in %v", name, doc.Warnings)
		}
	}
}

func TestNodeWithAMillionInputs(t *testing.T) {
	inputs := make([]string, 1_000_000)
	for i := range inputs {
		inputs[i] = fmt.Sprintf("i%d", i)
	}
	m := onnxtest.Model{IRVersion: 8, Graph: onnxtest.Graph{Nodes: []onnxtest.Node{{Op: "Concat", Inputs: inputs, Outputs: []string{"y"}}}}}
	data := m.Marshal()
	doc, err := decodeBytes(t, data)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(doc.Graph.Nodes[0].Inputs); n != len(inputs) {
		t.Errorf("%d inputs decoded, want %d", n, len(inputs))
	}
}

// External data in a FIFO is refused with a warning, without waiting for
// a writer.
func TestExternalDataInAFIFOIsRefused(t *testing.T) {
	dir := t.TempDir()
	fifo.Make(t, filepath.Join(dir, "weights.bin"))
	m := onnxtest.Model{IRVersion: 8, Graph: onnxtest.Graph{Initializers: []onnxtest.Tensor{
		{Name: "w", DataType: 1, Dims: []int64{4}, External: [][2]string{{"location", "weights.bin"}}},
	}}}
	path := filepath.Join(dir, "model.onnx")
	if err := os.WriteFile(path, m.Marshal(), 0o644); err != nil {
		t.Fatal(err)
	}
	var doc *formats.Document
	var err error
	fifo.Within(t, 5*time.Second, "opening a model whose external data is a FIFO", func() { doc, err = formats.Open(path) })
	if err != nil {
		t.Fatal(err)
	}
	defer doc.Close()
	w := doc.Tensor("w")
	if w.HasData() || !strings.Contains(w.Note, "cannot be read") || !hasWarning(doc, "named pipe (FIFO), not a regular file") {
		t.Errorf("w: %+v, warnings %v", w, doc.Warnings)
	}
}

// External data that starts, or runs, past the end of its file is a
// warning at open naming the tensor and the byte range (the file's size
// comes from the stat that checks it), and the tensor is listed without
// data.
func TestExternalDataPastTheEndIsAWarning(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "weights.bin"), make([]byte, 64), 0o644); err != nil {
		t.Fatal(err)
	}
	m := onnxtest.Model{IRVersion: 8, Graph: onnxtest.Graph{Initializers: []onnxtest.Tensor{
		{Name: "fits", DataType: 1, Dims: []int64{4}, External: [][2]string{{"location", "weights.bin"}, {"offset", "48"}, {"length", "16"}}},
		{Name: "beyond", DataType: 1, Dims: []int64{4}, External: [][2]string{{"location", "weights.bin"}, {"offset", "4096"}}},
		{Name: "overruns", DataType: 1, Dims: []int64{4}, External: [][2]string{{"location", "weights.bin"}, {"offset", "32"}, {"length", "40"}}},
		{Name: "short", DataType: 1, Dims: []int64{8}, External: [][2]string{{"location", "weights.bin"}, {"offset", "40"}}},
	}}}
	path := filepath.Join(dir, "model.onnx")
	if err := os.WriteFile(path, m.Marshal(), 0o644); err != nil {
		t.Fatal(err)
	}
	doc, err := formats.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer doc.Close()
	for _, c := range []struct{ name, bytes string }{{"beyond", "bytes 4096..4112"}, {"overruns", "bytes 32..72"}, {"short", "bytes 40..72"}} {
		e := doc.Tensor(c.name)
		if e.HasData() || !strings.Contains(e.Note, "past the end") ||
			!hasWarning(doc, fmt.Sprintf("tensor %q: external data weights.bin holds 64 bytes, but the tensor's %s run past its end", c.name, c.bytes)) {
			t.Errorf("%s: note %q, warnings %v", c.name, e.Note, doc.Warnings)
		}
	}
	if got := loadFloats(t, doc.Tensor("fits")); len(got) != 4 || len(doc.Warnings) != 3 {
		t.Errorf("fits: %v; warnings %v", got, doc.Warnings)
	}
}
