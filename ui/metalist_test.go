package ui

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"tensorscope/formats/gguf"
	"tensorscope/viewmodel"
)

// findWidgets collects the trees, lists and labels under o.
func findWidgets(o fyne.CanvasObject, trees *[]*widget.Tree, lists *[]*widget.List, labels *[]string) {
	switch x := o.(type) {
	case *widget.Tree:
		*trees = append(*trees, x)
	case *widget.List:
		*lists = append(*lists, x)
	case *widget.Label:
		*labels = append(*labels, x.Text)
	case *container.Split:
		findWidgets(x.Leading, trees, lists, labels)
		findWidgets(x.Trailing, trees, lists, labels)
		return
	case *container.Scroll:
		findWidgets(x.Content, trees, lists, labels)
		return
	case *fyne.Container:
		for _, c := range x.Objects {
			findWidgets(c, trees, lists, labels)
		}
		return
	}
	if w, ok := o.(fyne.Widget); ok {
		for _, c := range test.WidgetRenderer(w).Objects() {
			findWidgets(c, trees, lists, labels)
		}
	}
}

// TestMetaPaneLazyList: a 20,000-string array is one tree row; selecting
// it fills the list beside the tree, which builds rows only for what shows.
// (A tokenizer's tokens show in the vocabulary table: vocab_test.go.)
func TestMetaPaneLazyList(t *testing.T) {
	test.NewTempApp(t)
	tokens := make([]string, 20000)
	for i := range tokens {
		tokens[i] = fmt.Sprintf("tok%05d", i)
	}
	var buf bytes.Buffer
	if _, _, err := gguf.WriteHeader(&buf, []gguf.KV{{Key: "general.name", Value: "v"}, {Key: "x.long_strings", Value: tokens}}, nil, 32); err != nil {
		t.Fatal(err)
	}
	q := viewmodel.NewQueue()
	d := openFixture(t, q, "vocab.gguf", buf.Bytes())
	pane := newMetaPane(nil, d)
	win := goldenWindow(t, pane, 1000, 700)
	_ = win
	var trees []*widget.Tree
	var lists []*widget.List
	var labels []string
	findWidgets(pane, &trees, &lists, &labels)
	if len(trees) != 1 || len(lists) != 1 {
		t.Fatalf("%d trees, %d lists", len(trees), len(lists))
	}
	list := lists[0]
	if list.Length() != 0 {
		t.Fatalf("list shows %d rows before a selection", list.Length())
	}
	trees[0].Select("1") // x.long_strings
	if list.Length() != 20000 {
		t.Fatalf("list length %d", list.Length())
	}
	list.ScrollToBottom()
	labels = nil
	findWidgets(pane, &trees, &lists, &labels)
	text := strings.Join(labels, "|")
	if !strings.Contains(text, "x.long_strings — 20,000 strings") || !strings.Contains(text, `"tok19999"`) || !strings.Contains(text, "19999") {
		t.Errorf("after scrolling to the end the pane shows %.300s", text)
	}
	if n := strings.Count(text, `"tok`); n > 200 {
		t.Errorf("%d token rows built: the list is not virtual", n)
	}
}
