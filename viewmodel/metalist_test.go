package viewmodel

import (
	"fmt"
	"strings"
	"testing"

	"tensorscope/formats"
)

func TestMetaTreeLazyList(t *testing.T) {
	calls := 0
	tokens := &formats.LazyList{Len: 102400, Elem: "string", At: func(i int) any {
		calls++
		return fmt.Sprintf("tok%d", i)
	}}
	nested := &formats.LazyList{Len: 70, Elem: "array", At: func(i int) any { return []any{int32(i), "x"} }}
	root := formats.NewObject("",
		formats.Leaf("general.name", "m"),
		formats.NewObject("tokenizer", formats.NewLazyList("tokens", tokens), formats.NewLazyList("pairs", nested)))
	mt := NewMetaTree(root)
	if !mt.HasLazyLists() {
		t.Fatal("HasLazyLists false")
	}
	if got := mt.Label("1/0"); got != "tokens: 102,400 strings" {
		t.Errorf("label %q", got)
	}
	if mt.IsBranch("1/0") || mt.Children("1/0") != nil {
		t.Errorf("a lazy list must be a leaf of the tree, not 102,400 nodes")
	}
	if mt.LazyList("1/0") != tokens || mt.LazyList("0") != nil {
		t.Errorf("LazyList lookup")
	}
	if got := mt.LazyListTitle("1/0"); got != "tokenizer.tokens — 102,400 strings" {
		t.Errorf("title %q", got)
	}
	if calls != 0 {
		t.Errorf("labels read %d entries", calls)
	}
	if i, v := LazyListRow(tokens, 102399); i != "102399" || v != `"tok102399"` {
		t.Errorf("row: %s %s", i, v)
	}
	if _, v := LazyListRow(nested, 3); v != `[3, "x"]` {
		t.Errorf("nested row %s", v)
	}
	if i, v := LazyListRow(tokens, 102400); i != "" || v != "" {
		t.Errorf("row past the end: %q %q", i, v)
	}
	if calls != 1 {
		t.Errorf("rows read %d entries, want 1", calls)
	}
	if strings.Count(mt.CopyText("1/1"), "x") != 70 {
		t.Errorf("copy of a lazy list: %.80s", mt.CopyText("1/1"))
	}
}
