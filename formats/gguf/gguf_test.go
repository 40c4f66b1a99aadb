package gguf

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tensorscope/formats"
	"tensorscope/internal/samples"
	"tensorscope/tensor"
)

func sampleFiles(t *testing.T) []string {
	t.Helper()
	root := samples.Dir(t, "gguf")
	var out []string
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".gguf") {
			out = append(out, p)
		}
		return nil
	})
	if len(out) < 15 {
		t.Fatalf("found only %d GGUF samples under %s", len(out), root)
	}
	return out
}

func samplePath(t *testing.T, rel string) string {
	t.Helper()
	return filepath.Join(samples.Dir(t, "gguf"), rel)
}

func open(t *testing.T, path string) *formats.Document {
	t.Helper()
	doc, err := formats.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { doc.Close() })
	return doc
}

func TestEverySampleOpens(t *testing.T) {
	for _, p := range sampleFiles(t) {
		doc, err := formats.Open(p)
		if strings.Contains(p, "FUGG") {
			// The pre-release draft (magic "FUGG") is no GGUF file.
			if !errors.Is(err, formats.ErrUnknownFormat) {
				t.Errorf("%s: want unknown format, got %v", p, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", p, err)
			continue
		}
		if doc.Format != "gguf" || doc.Version != "3" {
			t.Errorf("%s: format %s version %s", p, doc.Format, doc.Version)
		}
		if len(doc.Warnings) > 0 && !strings.Contains(p, "00002-of") {
			t.Errorf("%s: warnings %v", p, doc.Warnings)
		}
		for _, e := range fileTensors(doc) {
			if !e.HasData() {
				t.Errorf("%s: tensor %s has no data: %s", p, e.Name, e.Note)
			}
			if e.Offset%32 != 0 {
				t.Errorf("%s: tensor %s at %d is not aligned", p, e.Name, e.Offset)
			}
		}
		doc.Close()
	}
}

func TestHeaderAndShapes(t *testing.T) {
	doc := open(t, samplePath(t, "models/stories260K.gguf"))
	want := []string{"magic", "version", "tensor_count", "metadata_kv_count"}
	for i, f := range doc.Header {
		if f.Name != want[i] || f.Offset != []int64{0, 4, 8, 16}[i] {
			t.Errorf("header field %d: %s @%d", i, f.Name, f.Offset)
		}
	}
	if !strings.Contains(doc.Header[1].Meaning, "little-endian") {
		t.Errorf("version meaning %q does not name the byte order", doc.Header[1].Meaning)
	}
	if len(doc.Tensors) != 48 {
		t.Fatalf("%d tensors", len(doc.Tensors))
	}
	// GGUF stores ne innermost first: token_embd is ne = [64, 512], i.e.
	// 512 rows of 64 in row-major order.
	e := doc.Tensor("token_embd.weight")
	if e == nil || !equalInts(e.Shape, []int{512, 64}) || e.DType != tensor.Float32 {
		t.Fatalf("token_embd.weight: %+v", e)
	}
	tokens := doc.Metadata.Child("tokenizer.ggml.tokens")
	if tokens == nil || tokens.Lazy == nil || tokens.Lazy.Len != 512 || tokens.Lazy.Summary() != "512 strings" {
		t.Fatalf("tokens: %+v", tokens)
	}
	if tokens.Lazy.At(0) != "<unk>" || tokens.Lazy.At(1) != "<s>" {
		t.Errorf("tokens[0], [1] = %q, %q", tokens.Lazy.At(0), tokens.Lazy.At(1))
	}
	scores := doc.Metadata.Child("tokenizer.ggml.scores")
	if scores == nil || scores.Lazy == nil || scores.Lazy.Elem != "float32" {
		t.Fatalf("scores: %+v", scores)
	}
}

func TestEveryValueType(t *testing.T) {
	doc := open(t, samplePath(t, "edge-cases/kv-and-tensor-types-align64.gguf"))
	m := doc.Metadata
	want := map[string]any{
		"general.alignment": uint32(64), "test.u8": uint8(255), "test.i8": int8(-128),
		"test.u16": uint16(65535), "test.i16": int16(-32768), "test.u32": uint32(math.MaxUint32),
		"test.i32": int32(math.MinInt32), "test.u64": uint64(math.MaxUint64), "test.i64": int64(math.MinInt64),
		"test.f32": float32(3.5), "test.f64": -1e300, "test.bool": true, "test.str": "héllo ✓ 日本",
	}
	for k, v := range want {
		if c := m.Child(k); c == nil || c.Value != v {
			t.Errorf("%s = %#v, want %#v", k, c, v)
		}
	}
	nested := m.Child("test.arr_nested")
	if nested == nil || !nested.List || len(nested.Children) != 2 || !nested.Children[0].List {
		t.Fatalf("nested: %+v", nested)
	}
	dtypes := map[string]tensor.DType{"t.i8": tensor.Int8, "t.i16": tensor.Int16, "t.i32": tensor.Int32,
		"t.i64": tensor.Int64, "t.f64": tensor.Float64, "t.f16": tensor.Float16, "t.f32_4d": tensor.Float32}
	for name, dt := range dtypes {
		e := doc.Tensor(name)
		if e == nil || e.DType != dt || e.Offset%64 != 0 {
			t.Errorf("%s: %+v", name, e)
		}
	}
	if e := doc.Tensor("t.f32_4d"); !equalInts(e.Shape, []int{2, 1, 3, 2}) {
		t.Errorf("t.f32_4d shape %v", e.Shape)
	}
}

func TestSplitSet(t *testing.T) {
	first := samplePath(t, "quantized-llama.cpp/split/synth-llama256-IQ1_S-00001-of-00002.gguf")
	doc := open(t, first)
	if len(fileTensors(doc)) != 12 || len(doc.Warnings) != 0 {
		t.Fatalf("%d tensors, warnings %v", len(fileTensors(doc)), doc.Warnings)
	}
	shards := doc.Shards()
	if len(shards) != 1 || shards[0].Mapped() {
		t.Fatalf("shards %v (mapped before use)", shards)
	}
	e := doc.Tensor("blk.0.ffn_up.weight")
	if e == nil || e.DType != tensor.GGMLIQ1_S {
		t.Fatalf("ffn_up: %+v", e)
	}
	if _, err := e.Load(context.Background()); err != nil {
		t.Fatal(err)
	}
	if !shards[0].Mapped() {
		t.Errorf("loading a tensor of shard 2 did not map it")
	}

	// The first shard alone: a warning, the rest still readable.
	dir := t.TempDir()
	data, err := os.ReadFile(first)
	if err != nil {
		t.Fatal(err)
	}
	lone := filepath.Join(dir, filepath.Base(first))
	os.WriteFile(lone, data, 0o644)
	doc2 := open(t, lone)
	if len(fileTensors(doc2)) != 6 || len(doc2.Warnings) != 2 ||
		!strings.Contains(doc2.Warnings[0].Message, "missing") {
		t.Errorf("lone shard: %d tensors, warnings %v", len(fileTensors(doc2)), doc2.Warnings)
	}
}

// TestBigEndian makes a big-endian copy of stories260K and checks that it
// gives the same metadata and bit-identical tensors.
func TestBigEndian(t *testing.T) {
	path := samplePath(t, "models/stories260K.gguf")
	le, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	be, err := toBigEndian(le)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(le, be) {
		t.Fatal("conversion changed nothing")
	}
	a, err := formats.OpenBytes("le.gguf", le)
	if err != nil {
		t.Fatal(err)
	}
	b, err := formats.OpenBytes("be.gguf", be)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.Header[1].Meaning, "big-endian") {
		t.Errorf("big-endian file's version meaning: %q", b.Header[1].Meaning)
	}
	ja, _ := a.Metadata.MarshalJSON()
	jb, _ := b.Metadata.MarshalJSON()
	if !bytes.Equal(ja, jb) {
		t.Errorf("metadata differs")
	}
	if len(a.Tensors) != len(b.Tensors) {
		t.Fatalf("%d vs %d tensors", len(a.Tensors), len(b.Tensors))
	}
	for i, ea := range a.Tensors {
		eb := b.Tensors[i]
		ta, err := ea.Load(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		tb, err := eb.Load(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if !equalInts(ta.Shape(), tb.Shape()) || ta.DType() != tb.DType() {
			t.Fatalf("%s: %v vs %v", ea.Name, ta, tb)
		}
		va, vb := float32s(t, ta), float32s(t, tb)
		for k := range va {
			if math.Float32bits(va[k]) != math.Float32bits(vb[k]) {
				t.Fatalf("%s[%d]: %g vs %g", ea.Name, k, va[k], vb[k])
			}
		}
	}
}

func float32s(t *testing.T, x *tensor.Tensor) []float32 {
	t.Helper()
	x, err := x.ToFloat32(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	n := x.Len()
	raw := x.Storage().Bytes()[x.Offset() : x.Offset()+4*n]
	out := make([]float32, n)
	for i := range out {
		out[i] = math.Float32frombits(binary.LittleEndian.Uint32(raw[4*i:]))
	}
	return out
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// fileTensors leaves out the derived views of quantised tensors.
func fileTensors(doc *formats.Document) []*formats.TensorEntry {
	var out []*formats.TensorEntry
	for _, e := range doc.Tensors {
		if e.Role != formats.RoleDerived {
			out = append(out, e)
		}
	}
	return out
}

func TestQuantViewsListed(t *testing.T) {
	doc := open(t, samplePath(t, "quantized-llama.cpp/synth-llama256-Q4_K_M.gguf"))
	want := map[string][]int{
		"blk.0.attn_q.weight ▸ scales":           {256, 1},
		"blk.0.attn_q.weight ▸ mins":             {256, 1},
		"blk.0.attn_q.weight ▸ sub-block scales": {256, 8},
		"blk.0.attn_q.weight ▸ sub-block mins":   {256, 8},
		"blk.0.attn_q.weight ▸ codes":            {256, 256},
		"output.weight ▸ sub-block scales":       {512, 16},
	}
	for name, shape := range want {
		e := doc.Tensor(name)
		if e == nil || !equalInts(e.Shape, shape) || e.Role != formats.RoleDerived {
			t.Errorf("%s: %+v", name, e)
			continue
		}
		x, err := e.Load(context.Background())
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if !equalInts(x.Shape(), shape) {
			t.Errorf("%s loads as %v", name, x.Shape())
		}
	}
	if doc.Tensor("output_norm.weight ▸ scales") != nil {
		t.Error("float32 tensors have no scales")
	}
	// The scales view is the blocks' float16 d fields, read in place.
	e := doc.Tensor("token_embd.weight")
	s, _ := doc.Tensor("token_embd.weight ▸ scales").Load(context.Background())
	d := binary.LittleEndian.Uint16(doc.Bytes()[e.Offset+144*3:])
	if v, _ := s.Float64At([]int{3, 0}); float32(v) != tensor.Float16ToFloat32(d) {
		t.Errorf("scale of block 3: %g, file has %g", v, tensor.Float16ToFloat32(d))
	}
}
