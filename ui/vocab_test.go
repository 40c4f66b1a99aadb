package ui

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"tensorscope/formats"
	"tensorscope/formats/gguf"
	"tensorscope/internal/samples"
	"tensorscope/viewmodel"
)

// findVocab returns the vocabulary view's table and find box in pane.
func findVocab(t *testing.T, pane fyne.CanvasObject) (*keyTable, *keyEntry) {
	t.Helper()
	var table *keyTable
	var find *keyEntry
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		switch x := o.(type) {
		case *keyTable:
			table = x
			return
		case *keyEntry:
			find = x
			return
		case *fyne.Container:
			for _, c := range x.Objects {
				walk(c)
			}
			return
		}
		if w, ok := o.(fyne.Widget); ok {
			for _, c := range test.WidgetRenderer(w).Objects() {
				walk(c)
			}
		}
	}
	walk(pane)
	if table == nil || find == nil || !table.Visible() {
		t.Fatalf("no vocabulary table (table %v, find box %v)", table != nil, find != nil)
	}
	return table, find
}

// TestVocabularyTableOf150kTokens: a tokenizer of 150,000 tokens with
// scores and types shows at once as one table of id, token, score and
// type, built only for the rows on screen; typing finds a token by text
// (Enter: the next one) or jumps to an id, and the keys move from the
// find box through the table.
func TestVocabularyTableOf150kTokens(t *testing.T) {
	test.NewTempApp(t)
	const n = 150000
	tokens, scores, types := make([]string, n), make([]float32, n), make([]int32, n)
	for i := range tokens {
		tokens[i], scores[i], types[i] = fmt.Sprintf("tok%06d", i), -float32(i), 1
	}
	tokens[10], types[10] = " hello\n", 6
	tokens[140000] = "xhellox"
	var buf bytes.Buffer
	kvs := []gguf.KV{{Key: "general.name", Value: "v"}, {Key: "tokenizer.ggml.tokens", Value: tokens},
		{Key: "tokenizer.ggml.scores", Value: scores}, {Key: "tokenizer.ggml.token_type", Value: types}}
	if _, _, err := gguf.WriteHeader(&buf, kvs, nil, 32); err != nil {
		t.Fatal(err)
	}
	q := viewmodel.NewQueue()
	d := openFixture(t, q, "vocab.gguf", buf.Bytes())
	pane := newMetaPane(nil, d)
	w := goldenWindow(t, pane, 1000, 700)
	table, find := findVocab(t, pane)
	if rows, cols := table.Length(); rows != n || cols != 4 {
		t.Fatalf("the table has %d rows, %d columns", rows, cols)
	}
	cells := 0
	var count func(o fyne.CanvasObject)
	count = func(o fyne.CanvasObject) {
		if l, ok := o.(*widget.Label); ok && strings.HasPrefix(l.Text, "tok") {
			cells++
		}
		if c, ok := o.(*fyne.Container); ok {
			for _, x := range c.Objects {
				count(x)
			}
		} else if wd, ok := o.(fyne.Widget); ok {
			for _, x := range test.WidgetRenderer(wd).Objects() {
				count(x)
			}
		}
	}
	count(pane)
	if cells == 0 || cells > 200 {
		t.Errorf("%d token cells built: the table is not virtual", cells)
	}

	w.Canvas().Focus(find)
	test.Type(find, "hello")
	if table.row != 10 {
		t.Fatalf("typing hello selected row %d, want 10 (' hello\\n')", table.row)
	}
	find.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if table.row != 140000 {
		t.Errorf("Enter found row %d next, want 140000", table.row)
	}
	find.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if table.row != 10 {
		t.Errorf("Enter again found row %d, want 10 (wrapping round)", table.row)
	}
	if got := d.Meta.Vocabulary().Row(10); got != [5]string{"10", "␣hello<0x0A>", "-10", "byte", ""} {
		t.Errorf("row 10 reads %q", got)
	}
	find.SetText("")
	test.Type(find, "#123456")
	if table.row != 123456 {
		t.Errorf("#123456 selected row %d", table.row)
	}
	find.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown})
	if table.row != 123457 {
		t.Errorf("Down in the find box moved to row %d, want 123457", table.row)
	}
	if find.Text != "#123456" {
		t.Errorf("the keys typed into the find box: %q", find.Text)
	}
}

// TestGoldenVocabularyTable: llama's SentencePiece vocabulary, found at
// the byte token <0x0A>.
func TestGoldenVocabularyTable(t *testing.T) {
	test.NewTempApp(t)
	doc, err := formats.Open(filepath.Join(samples.Dir(t, "gguf/vocab-only"), "ggml-vocab-llama-spm.gguf"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { doc.Close() })
	v := viewmodel.NewMetaTree(doc.Metadata).Vocabulary()
	view := newVocabView(nil, v)
	w := goldenWindow(t, view.box, 700, 420)
	test.Type(view.find, "<0x0A>")
	if view.table.row != 13 {
		t.Fatalf("<0x0A> found row %d, want 13", view.table.row)
	}
	test.AssertRendersToImage(t, "vocab_table.png", w.Canvas())
}

// TestFileOfMetadataAloneOpensOnIt: a GGUF file holding a vocabulary and
// no tensors opens on its Metadata pane, not on an empty tensor list.
func TestFileOfMetadataAloneOpensOnIt(t *testing.T) {
	a := test.NewTempApp(t)
	var buf bytes.Buffer
	kvs := []gguf.KV{{Key: "general.name", Value: "v"}, {Key: "tokenizer.ggml.tokens", Value: []string{"a", "b"}}}
	if _, _, err := gguf.WriteHeader(&buf, kvs, nil, 32); err != nil {
		t.Fatal(err)
	}
	q := viewmodel.NewQueue()
	d := openFixture(t, q, "vocab.gguf", buf.Bytes())
	mw := NewMainWindow(a, Options{})
	t.Cleanup(mw.win.Close)
	dt := newPendingTab(mw, "vocab.gguf")
	mw.docTabs = append(mw.docTabs, dt)
	mw.tabs.Append(dt.item)
	dt.setDoc(d)
	if got := dt.panes.Selected().Text; got != "Metadata" {
		t.Errorf("a file of metadata alone opens on its %s pane", got)
	}
}
