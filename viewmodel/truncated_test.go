package viewmodel

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tensorscope/formats"
	"tensorscope/formats/gguf"
)

// A file truncated on disk under an open tab: the header pane's hex rows
// and the lazy vocabulary list read the mapped bytes on the UI goroutine,
// and must say the bytes are gone instead of crashing with SIGBUS (which
// ends this test binary on code without the fault guard).
func TestTruncatedFileUnderOpenViews(t *testing.T) {
	path := filepath.Join(t.TempDir(), "vocab.gguf")
	tokens := make([]string, 20000)
	for i := range tokens {
		tokens[i] = fmt.Sprintf("token-%05d", i)
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := gguf.WriteHeader(f, []gguf.KV{{Key: "general.name", Value: "v"}, {Key: "tokenizer.ggml.tokens", Value: tokens}}, nil, 32); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	doc, err := formats.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer doc.Close()
	hex := NewHeaderView(doc)
	hex.GoTo(200000)
	var list *formats.LazyList
	for _, m := range doc.Metadata.Children {
		if m.Lazy != nil {
			list = m.Lazy
		}
	}
	if list == nil {
		t.Fatal("no lazy list in the metadata")
	}
	if _, v := LazyListRow(list, 19999); v != `"token-19999"` {
		t.Fatalf("before truncation, row 19999 is %s", v)
	}

	if err := os.Truncate(path, 0); err != nil {
		t.Fatal(err)
	}
	if line := hex.Line(0); !strings.Contains(line, UnreadableBytes) {
		t.Errorf("hex row of a truncated file: %q", line)
	}
	if _, v := LazyListRow(list, 19999); v != UnreadableBytes {
		t.Errorf("token row of a truncated file: %q", v)
	}
}
