package cli

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"tensorscope/formats/gguf"
	"tensorscope/internal/samples"
)

func ggufSample(t *testing.T, rel string) string {
	t.Helper()
	return filepath.Join(samples.Dir(t, "gguf"), rel)
}

func TestInfoJSONGGUF(t *testing.T) {
	doc := infoOf(t, ggufSample(t, "quantized-llama.cpp/synth-llama256-Q4_K_M.gguf"))
	dtypes := map[string]string{}
	files := 0
	for _, tn := range doc.Tensors {
		dtypes[tn.Name] = tn.DType
		if tn.Role != "derived" {
			files++
		}
	}
	if *doc.Format != "gguf" || *doc.Version != "3" || files != 12 {
		t.Fatalf("format %s version %s, %d tensors", *doc.Format, *doc.Version, files)
	}
	if dtypes["token_embd.weight ▸ scales"] != "float16" || dtypes["token_embd.weight ▸ codes"] != "int8" {
		t.Errorf("quantisation views: %v", dtypes)
	}
	// Block types by ggml's lowercase name, the rest by NumPy's.
	if dtypes["token_embd.weight"] != "q4_k" || dtypes["output.weight"] != "q6_k" || dtypes["output_norm.weight"] != "float32" {
		t.Errorf("dtypes %v", dtypes)
	}
	for _, tn := range doc.Tensors {
		if tn.Name == "token_embd.weight" && (!slices.Equal(tn.Shape, []int{512, 256}) || tn.NBytes != 512*144) {
			t.Errorf("token_embd.weight: %+v", tn)
		}
	}
}

func TestStatsRenderExportGGUF(t *testing.T) {
	p := ggufSample(t, "quantized-llama.cpp/synth-llama256-Q4_K_M.gguf")
	out, errOut, code := runChild(t, nil, "stats", "--json", p, "token_embd.weight")
	if code != 0 {
		t.Fatalf("stats: %d %s", code, errOut)
	}
	var st []struct {
		Name, DType string
		Count       int
		Min, Max    float64
		Std         float64
	}
	if err := json.Unmarshal([]byte(out), &st); err != nil || len(st) != 1 {
		t.Fatalf("%v: %s", err, out)
	}
	// The F32 source's weights are N(0, 0.02); Q4_K keeps that.
	if s := st[0]; s.DType != "q4_k" || s.Count != 131072 || math.Abs(s.Std-0.02) > 0.001 || s.Min > -0.05 || s.Max < 0.05 {
		t.Errorf("stats %+v", s)
	}

	// By default every file tensor, none of the derived views.
	out, _, code = runChild(t, nil, "stats", "--json", p)
	if code != 0 || strings.Contains(out, "▸") || strings.Count(out, `"name"`) != 12 {
		t.Errorf("default stats: %d, %.200s", code, out)
	}

	dir := t.TempDir()
	png := filepath.Join(dir, "h.png")
	if _, errOut, code := runChild(t, nil, "render", p, "--view", "heatmap", "--tensor", "blk.0.ffn_up.weight", "--size", "400x300", "--out", png); code != 0 {
		t.Fatalf("render: %s", errOut)
	}
	if b, err := os.ReadFile(png); err != nil || !strings.HasPrefix(string(b), "\x89PNG") {
		t.Errorf("render wrote no PNG: %v", err)
	}

	npy := filepath.Join(dir, "w.npy")
	if _, errOut, code := runChild(t, nil, "export", p, "--tensor", "blk.0.attn_q.weight", "--out", npy); code != 0 {
		t.Fatalf("export: %s", errOut)
	}
	b, err := os.ReadFile(npy)
	if err != nil || !strings.Contains(string(b[:128]), "'descr': '<f4'") || !strings.Contains(string(b[:128]), "(256, 256)") {
		t.Fatalf("npy header %q (%v)", b[:min(len(b), 128)], err)
	}
	hl := int(binary.LittleEndian.Uint16(b[8:]))
	vals := b[10+hl:]
	if len(vals) != 4*256*256 {
		t.Fatalf("%d bytes of values", len(vals))
	}
}

// BenchmarkInfoJSONSparse40GB makes a 40 GB model as a sparse file (700
// tensors, a 150,000-token vocabulary with merges) and times `tensorscope
// info --json` on it as a whole process, with its memory (see processRun).
func BenchmarkInfoJSONSparse40GB(b *testing.B) {
	path := filepath.Join(b.TempDir(), "big-model.gguf")
	size := writeSparseModel(b, path)
	b.ReportMetric(float64(size)/1e9, "file-GB")
	benchProcess(b, 0, "info", "--json", path)
}

func writeSparseModel(b *testing.B, path string) int64 {
	const vocab, hidden, kv, ff, layers = 150000, 8192, 1024, 28672, 77
	tokens := make([]string, vocab)
	merges := make([]string, vocab)
	scores := make([]float32, vocab)
	types := make([]int32, vocab)
	for i := range tokens {
		tokens[i] = fmt.Sprintf("Ġtok%d", i)
		merges[i] = fmt.Sprintf("Ġt ok%d", i)
		scores[i] = float32(-i)
		types[i] = 1
	}
	kvs := []gguf.KV{
		{Key: "general.architecture", Value: "llama"}, {Key: "general.name", Value: "sparse 40 GB benchmark model"},
		{Key: "llama.block_count", Value: uint32(layers)}, {Key: "llama.embedding_length", Value: uint32(hidden)},
		{Key: "tokenizer.ggml.model", Value: "gpt2"}, {Key: "tokenizer.ggml.tokens", Value: tokens},
		{Key: "tokenizer.ggml.scores", Value: scores}, {Key: "tokenizer.ggml.token_type", Value: types},
		{Key: "tokenizer.ggml.merges", Value: merges},
	}
	const q4k, q5k, q6k, f32 = 12, 13, 14, 0
	specs := []gguf.TensorSpec{{Name: "token_embd.weight", GGMLType: q6k, Shape: []int{vocab, hidden}}}
	for l := 0; l < layers; l++ {
		p := fmt.Sprintf("blk.%d.", l)
		specs = append(specs,
			gguf.TensorSpec{Name: p + "attn_norm.weight", GGMLType: f32, Shape: []int{hidden}},
			gguf.TensorSpec{Name: p + "attn_q.weight", GGMLType: q4k, Shape: []int{hidden, hidden}},
			gguf.TensorSpec{Name: p + "attn_k.weight", GGMLType: q4k, Shape: []int{kv, hidden}},
			gguf.TensorSpec{Name: p + "attn_v.weight", GGMLType: q6k, Shape: []int{kv, hidden}},
			gguf.TensorSpec{Name: p + "attn_output.weight", GGMLType: q4k, Shape: []int{hidden, hidden}},
			gguf.TensorSpec{Name: p + "ffn_norm.weight", GGMLType: f32, Shape: []int{hidden}},
			gguf.TensorSpec{Name: p + "ffn_gate.weight", GGMLType: q4k, Shape: []int{ff, hidden}},
			gguf.TensorSpec{Name: p + "ffn_up.weight", GGMLType: q4k, Shape: []int{ff, hidden}},
			gguf.TensorSpec{Name: p + "ffn_down.weight", GGMLType: q5k, Shape: []int{hidden, ff}})
	}
	specs = append(specs,
		gguf.TensorSpec{Name: "output_norm.weight", GGMLType: f32, Shape: []int{hidden}},
		gguf.TensorSpec{Name: "output.weight", GGMLType: q6k, Shape: []int{vocab, hidden}},
		gguf.TensorSpec{Name: "rope_freqs.weight", GGMLType: f32, Shape: []int{64}},
		gguf.TensorSpec{Name: "rope_factors_long.weight", GGMLType: f32, Shape: []int{64}},
		gguf.TensorSpec{Name: "rope_factors_short.weight", GGMLType: f32, Shape: []int{64}},
		gguf.TensorSpec{Name: "cls.bias", GGMLType: f32, Shape: []int{64}})
	if len(specs) != 700 {
		b.Fatalf("%d tensors", len(specs))
	}
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	_, offs, err := gguf.WriteHeader(f, kvs, specs, 32)
	if err != nil {
		b.Fatal(err)
	}
	// The data stays a hole: the file's size is the end of the last tensor.
	end := offs[len(offs)-1] + 64*4
	if err := f.Truncate(end); err != nil {
		b.Fatal(err)
	}
	return end
}
