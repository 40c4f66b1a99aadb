package gguf

import (
	"bytes"
	"context"
	"fmt"
	"testing"
	"time"

	"tensorscope/formats"
	"tensorscope/tensor"
)

// vocabKVs is a tokenizer of n tokens with scores, types and merges, as
// llama.cpp's converters write one.
func vocabKVs(n int) []KV {
	tokens := make([]string, n)
	scores := make([]float32, n)
	types := make([]int32, n)
	merges := make([]string, n)
	for i := range tokens {
		tokens[i] = fmt.Sprintf("▁tok%06d", i)
		scores[i] = -float32(i)
		types[i] = 1
		merges[i] = fmt.Sprintf("▁t ok%d", i)
	}
	return []KV{
		{"general.architecture", "llama"},
		{"general.alignment", uint32(32)},
		{"tokenizer.ggml.model", "gpt2"},
		{"tokenizer.ggml.tokens", tokens},
		{"tokenizer.ggml.scores", scores},
		{"tokenizer.ggml.token_type", types},
		{"tokenizer.ggml.merges", merges},
	}
}

func TestWriteHeaderRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	specs := []TensorSpec{{"a.weight", 12, []int{2, 256}}, {"b", 0, []int{3}}}
	start, offs, err := WriteHeader(&buf, vocabKVs(100), specs, 32)
	if err != nil {
		t.Fatal(err)
	}
	data := append(buf.Bytes(), make([]byte, offs[1]+12-start)...)
	doc, err := formats.OpenBytes("w.gguf", data)
	if err != nil {
		t.Fatal(err)
	}
	files := fileTensors(doc)
	if len(doc.Warnings) != 0 || len(files) != 2 {
		t.Fatalf("%v %d", doc.Warnings, len(files))
	}
	a := files[0]
	if a.DType != tensor.GGMLQ4_K || a.Shape[0] != 2 || a.Shape[1] != 256 || a.Offset != offs[0] || a.NBytes != 288 {
		t.Errorf("a: %+v", a)
	}
	if m := doc.Metadata.Child("tokenizer.ggml.merges"); m == nil || m.Lazy == nil || m.Lazy.At(99) != "▁t ok99" {
		t.Errorf("merges %+v", m)
	}
	if _, err := a.Load(context.Background()); err != nil {
		t.Error(err)
	}
}

// BenchmarkOpenVocab102k opens a 102,400-token vocabulary file (tokens,
// scores, types and merges: about 4 MB) and labels its metadata tree: what
// the viewer does before it can draw the Metadata tab.
func BenchmarkOpenVocab102k(b *testing.B) {
	var buf bytes.Buffer
	if _, _, err := WriteHeader(&buf, vocabKVs(102400), nil, 32); err != nil {
		b.Fatal(err)
	}
	data := buf.Bytes()
	b.SetBytes(int64(len(data)))
	b.ReportMetric(float64(len(data))/(1<<20), "file-MiB")
	start := time.Now()
	for b.Loop() {
		doc, err := formats.OpenBytes("vocab.gguf", data)
		if err != nil {
			b.Fatal(err)
		}
		if doc.Metadata.Child("tokenizer.ggml.merges").Lazy.Summary() != "102,400 strings" {
			b.Fatal("summary")
		}
	}
	b.ReportMetric(float64(time.Since(start).Microseconds())/1e3/float64(b.N), "ms/open")
}
