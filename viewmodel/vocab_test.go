package viewmodel

import (
	"bytes"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"tensorscope/formats"
	"tensorscope/formats/gguf"
	"tensorscope/internal/samples"
)

func vocabOf(t *testing.T, name string) *Vocabulary {
	t.Helper()
	doc, err := formats.Open(filepath.Join(samples.Dir(t, "gguf/vocab-only"), name))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { doc.Close() })
	v := NewMetaTree(doc.Metadata).Vocabulary()
	if v == nil {
		t.Fatalf("%s: no vocabulary", name)
	}
	return v
}

// TestVocabularyRowsOfLlamaSPM reads llama's SentencePiece vocabulary as
// one table: the parallel tokens, scores and types of each id.
func TestVocabularyRowsOfLlamaSPM(t *testing.T) {
	v := vocabOf(t, "ggml-vocab-llama-spm.gguf")
	if v.Len() != 32000 || v.Title() != "Vocabulary — 32,000 tokens, scores and types" || len(v.Columns()) != 4 {
		t.Errorf("%d tokens, title %q", v.Len(), v.Title())
	}
	for _, want := range [][5]string{
		{"0", "<unk>", "0", "unknown"},
		{"1", "<s>", "0", "control"},
		{"13", "<0x0A>", "0", "byte"},
		{"31999", "", "", "normal"},
	} {
		id, _ := strconv.Atoi(want[0])
		got := v.Row(id)
		if want[1] == "" {
			want[1], want[2] = got[1], got[2]
		}
		if got != want {
			t.Errorf("row %s: %q, want %q", want[0], got, want)
		}
	}
	if got := v.Row(32000); got != [5]string{} {
		t.Errorf("row past the end: %q", got)
	}
	// Find by id, by text (wrapping round), and a byte token as shown.
	if got := v.Find("#1000", 0); got != 1000 {
		t.Errorf("find #1000: %d", got)
	}
	if got := v.Find("40000", 0); got != -1 {
		t.Errorf("find an id past the end: %d", got)
	}
	first := v.Find("▁the", 0)
	if first < 0 || !strings.Contains(v.Row(first)[1], "▁the") {
		t.Fatalf("find ▁the: row %d %q", first, v.Row(first))
	}
	if next := v.Find("▁the", first+1); next <= first {
		t.Errorf("find next ▁the after %d: %d", first, next)
	}
	if got := v.Find("▁the", v.Len()-1); got != first {
		t.Errorf("find ▁the from the last row does not wrap to %d: %d", first, got)
	}
	if got := v.Find("<0x0A>", 0); got != 13 {
		t.Errorf("find <0x0A>: %d", got)
	}
	if got := v.Find("no such token ∰", 0); got != -1 {
		t.Errorf("find nothing: %d", got)
	}
}

// TestVisibleToken: whitespace, control characters and stray bytes show.
func TestVisibleToken(t *testing.T) {
	for in, want := range map[string]string{
		" the":     "␣the",
		"a\nb\tc":  "a<0x0A>b<0x09>c",
		"\xff\xfe": "<0xFF><0xFE>",
		"":         "∅",
		"▁hello":   "▁hello",
		"é\u00a0x": "é<U+00A0>x",
		"[CLS]":    "[CLS]",
	} {
		if got := VisibleToken([]byte(in)); got != want {
			t.Errorf("VisibleToken(%q) = %q, want %q", in, got, want)
		}
		if in != "" {
			if got := string(tokenBytes(VisibleToken([]byte(in)))); got != in && !(in == "é\u00a0x") {
				t.Errorf("tokenBytes(VisibleToken(%q)) = %q", in, got)
			}
		}
	}
}

// BenchmarkVocabularyFind looks for a token no entry holds in a vocabulary
// of 150,000 (the worst case: every token read), as the find box does on
// the UI goroutine at each keystroke.
func BenchmarkVocabularyFind(b *testing.B) {
	const n = 150000
	tokens := make([]string, n)
	for i := range tokens {
		tokens[i] = "▁tok" + strconv.Itoa(i)
	}
	var buf bytes.Buffer
	if _, _, err := gguf.WriteHeader(&buf, []gguf.KV{{Key: "tokenizer.ggml.tokens", Value: tokens}}, nil, 32); err != nil {
		b.Fatal(err)
	}
	doc, err := formats.OpenBytes("vocab.gguf", buf.Bytes())
	if err != nil {
		b.Fatal(err)
	}
	defer doc.Close()
	v := NewMetaTree(doc.Metadata).Vocabulary()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if v.Find("no such token", 0) != -1 {
			b.Fatal("found")
		}
	}
}

// TestVocabularyMerges: a BPE tokenizer's merges show beside the tokens
// they make, with their rank; a token no merge makes has none.
func TestVocabularyMerges(t *testing.T) {
	// Long enough to stay in the file as lazy lists, as real ones do.
	tokens := []string{"a", "b", "ab", "c", "abc", "Ġ", "Ġa"}
	merges := []string{"a b", "ab c", "Ġ a", "a bc"}
	for i := 0; i < 1000; i++ {
		tokens = append(tokens, "t"+strconv.Itoa(i))
		merges = append(merges, "u"+strconv.Itoa(i)+" x")
	}
	var buf bytes.Buffer
	kvs := []gguf.KV{{Key: "tokenizer.ggml.tokens", Value: tokens}, {Key: "tokenizer.ggml.merges", Value: merges}}
	if _, _, err := gguf.WriteHeader(&buf, kvs, nil, 32); err != nil {
		t.Fatal(err)
	}
	doc, err := formats.OpenBytes("bpe.gguf", buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	defer doc.Close()
	v := NewMetaTree(doc.Metadata).Vocabulary()
	if v == nil || !slices.Equal(v.Columns(), []VocabColumn{VocabID, VocabToken, VocabMerge}) || v.Title() != "Vocabulary — 1,007 tokens; 1,004 merges" {
		t.Fatalf("vocabulary %v", v)
	}
	for id, want := range map[int]string{0: "", 2: "a b (rank 0)", 4: "ab c (rank 1)", 6: "Ġ a (rank 2)"} {
		if got := v.Row(id)[4]; got != want {
			t.Errorf("merge of token %d: %q, want %q", id, got, want)
		}
	}
}
