package viewmodel

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"tensorscope/formats"
	"tensorscope/viewmodel/textfmt"
)

// MetaTree adapts the metadata tree to a tree widget: node ids are paths of
// child indices ("", "0", "0/3", ...), the root being "".
type MetaTree struct{ root *formats.Meta }

// NewMetaTree wraps root (which may be nil).
func NewMetaTree(root *formats.Meta) *MetaTree {
	if root == nil {
		root = formats.NewObject("")
	}
	return &MetaTree{root: root}
}

// Empty reports a tree with nothing to show.
func (t *MetaTree) Empty() bool { return len(t.root.Children) == 0 }

// Node returns the node at id, or nil.
func (t *MetaTree) Node(id string) *formats.Meta {
	n := t.root
	if id == "" {
		return n
	}
	for _, part := range strings.Split(id, "/") {
		i, err := strconv.Atoi(part)
		if err != nil || n.IsLeaf() || i < 0 || i >= len(n.Children) {
			return nil
		}
		n = n.Children[i]
	}
	return n
}

// Tensor returns the index in doc of the tensor node id shows, or -1.
func (t *MetaTree) Tensor(id string, doc *formats.Document) int {
	n := t.Node(id)
	if n == nil || n.Tensor == "" || doc == nil {
		return -1
	}
	for i, e := range doc.Tensors {
		if e.Name == n.Tensor {
			return i
		}
	}
	return -1
}

// Children returns the ids of id's children.
func (t *MetaTree) Children(id string) []string {
	n := t.Node(id)
	if n == nil || n.IsLeaf() {
		return nil
	}
	out := make([]string, len(n.Children))
	for i := range n.Children {
		if id == "" {
			out[i] = strconv.Itoa(i)
		} else {
			out[i] = id + "/" + strconv.Itoa(i)
		}
	}
	return out
}

// IsBranch reports whether id has (or may have) children.
func (t *MetaTree) IsBranch(id string) bool {
	n := t.Node(id)
	return n != nil && !n.IsLeaf()
}

// Label is what the tree shows for id: "name: value" for leaves, "name {3}"
// or "name [10]" for objects and lists.
func (t *MetaTree) Label(id string) string {
	n := t.Node(id)
	if n == nil {
		return ""
	}
	name := n.Name
	if name == "" {
		name = "·"
	}
	if n.Lazy != nil {
		return name + ": " + n.Lazy.Summary()
	}
	if n.IsLeaf() {
		return name + ": " + textfmt.Value(n.Value)
	}
	if n.List {
		return fmt.Sprintf("%s [%d]", name, len(n.Children))
	}
	return fmt.Sprintf("%s {%d}", name, len(n.Children))
}

// CopyText is what Copy Value puts on the clipboard: a leaf's value as
// text (strings unquoted), a subtree as indented JSON.
func (t *MetaTree) CopyText(id string) string {
	n := t.Node(id)
	if n == nil {
		return ""
	}
	if n.IsLeaf() && n.Lazy == nil {
		if s, ok := n.Value.(string); ok {
			return s
		}
		return textfmt.Value(n.Value)
	}
	b, err := json.MarshalIndent(n, "", "  ")
	if err != nil {
		return err.Error()
	}
	return string(b)
}

// Path is a dotted path to id for display ("training.stages[0].epochs").
func (t *MetaTree) Path(id string) string {
	if id == "" {
		return ""
	}
	var b strings.Builder
	n := t.root
	for _, part := range strings.Split(id, "/") {
		i, err := strconv.Atoi(part) // ids are the tree's own; a stale one ends the walk
		if err != nil || n.IsLeaf() || i < 0 || i >= len(n.Children) {
			break
		}
		if n.List {
			fmt.Fprintf(&b, "[%d]", i)
		} else {
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(n.Children[i].Name)
		}
		n = n.Children[i]
	}
	return b.String()
}
