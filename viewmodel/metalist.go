package viewmodel

import (
	"strconv"
	"strings"

	"tensorscope/formats"
	"tensorscope/tensor"
	"tensorscope/viewmodel/textfmt"
)

// LazyList returns the long array kept in the file at id (a tokenizer's
// tokens), or nil when id is an ordinary node.
func (t *MetaTree) LazyList(id string) *formats.LazyList {
	if n := t.Node(id); n != nil {
		return n.Lazy
	}
	return nil
}

// HasLazyLists reports whether any node of the tree is a lazy list, so that
// the pane makes room for the table that lists one.
func (t *MetaTree) HasLazyLists() bool { return hasLazy(t.root, 0) }

func hasLazy(m *formats.Meta, depth int) bool {
	if m.Lazy != nil {
		return true
	}
	if depth > 16 {
		return false
	}
	for _, c := range m.Children {
		if hasLazy(c, depth+1) {
			return true
		}
	}
	return false
}

// LazyListTitle heads the table of a lazy list: "tokenizer.ggml.tokens —
// 102,400 strings".
func (t *MetaTree) LazyListTitle(id string) string {
	l := t.LazyList(id)
	if l == nil {
		return ""
	}
	return t.Path(id) + " — " + l.Summary()
}

// LazyListRow is row i of a lazy list's table: the index and the entry as
// text. Only rows on screen are asked for, so a 150,000-entry vocabulary
// costs what is visible.
func LazyListRow(l *formats.LazyList, i int) (index, value string) {
	if l == nil || i < 0 || i >= l.Len {
		return "", ""
	}
	var v any
	// The entries are read from the mapped file, which may have been
	// truncated on disk since it was opened.
	if err := tensor.CatchFault(func() error { v = l.At(i); return nil }); err != nil {
		return strconv.Itoa(i), UnreadableBytes
	}
	return strconv.Itoa(i), formatLazyValue(v)
}

func formatLazyValue(v any) string {
	xs, ok := v.([]any)
	if !ok {
		return textfmt.Value(v)
	}
	var b strings.Builder
	b.WriteByte('[')
	for i, x := range xs {
		if i == textfmt.MaxListItems {
			b.WriteString(", …")
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(formatLazyValue(x))
	}
	b.WriteByte(']')
	return b.String()
}
