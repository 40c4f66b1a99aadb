package viewmodel

import (
	"fmt"
	"strings"

	"tensorscope/formats"
	"tensorscope/viewmodel/textfmt"
)

// Grouping the tensor list by dotted name prefix: blk.12.attn_q.weight sits
// under blk ▸ 12, model.layers.12.self_attn.q_proj.weight under model.layers
// ▸ 12 ▸ self_attn. A group with a single child is merged into it, so chains
// without branches take one row. Groups show their tensor count, parameter
// count and bytes, and collapse and expand.

// tensorGroup is a node of the name tree built from the filtered rows.
type tensorGroup struct {
	path     string // full prefix: "blk.12"
	label    string // what this row shows: "12", or "model.layers" when merged
	groups   []*tensorGroup
	tensors  []int // document indices of tensors directly in this group
	leafName map[int]string
	count    int
	params   int64
	bytes    int64
}

// treeRow is one visible row: a group or a tensor.
type treeRow struct {
	group *tensorGroup // nil for a tensor row
	index int          // document index of a tensor row
	label string       // tensor rows: the name below the group
	depth int
}

// Grouped reports whether the list shows the name tree.
func (l *TensorList) Grouped() bool { return l.grouped }

// SetGrouped switches between the flat list and the name tree.
func (l *TensorList) SetGrouped(on bool) {
	l.grouped = on
	l.refresh()
}

// IsGroup reports whether row is a group of the name tree.
func (l *TensorList) IsGroup(row int) bool {
	return l.grouped && row >= 0 && row < len(l.tree) && l.tree[row].group != nil
}

// ToggleGroup collapses or expands the group at row.
func (l *TensorList) ToggleGroup(row int) {
	if !l.IsGroup(row) {
		return
	}
	if l.collapsed == nil {
		l.collapsed = map[string]bool{}
	}
	path := l.tree[row].group.path
	l.collapsed[path] = !l.collapsed[path]
	l.refresh()
}

// GroupExpanded reports whether the group at row shows its children.
func (l *TensorList) GroupExpanded(row int) bool {
	return l.IsGroup(row) && !l.collapsed[l.tree[row].group.path]
}

// buildTree groups l.rows (filtered and sorted) and flattens the visible part.
func (l *TensorList) buildTree() {
	root := &tensorGroup{leafName: map[int]string{}}
	for _, i := range l.rows {
		root.add(l.entries[i], i, l.entries[i].Name)
	}
	root.merge()
	l.tree = l.tree[:0]
	l.flatten(root, 0)
}

func (g *tensorGroup) add(e *formats.TensorEntry, index int, rest string) {
	// Views derived from another tensor (a quantised tensor's scales) are
	// listed in the group but add nothing to its counts.
	if e.Role != formats.RoleDerived {
		g.count++
		g.params += max(elements(e), 0)
		g.bytes += e.NBytes
	}
	head, tail, ok := strings.Cut(rest, ".")
	if !ok || tail == "" {
		g.tensors = append(g.tensors, index)
		g.leafName[index] = rest
		return
	}
	var child *tensorGroup
	for _, c := range g.groups {
		if c.label == head {
			child = c
			break
		}
	}
	if child == nil {
		path := head
		if g.path != "" {
			path = g.path + "." + head
		}
		child = &tensorGroup{path: path, label: head, leafName: map[int]string{}}
		g.groups = append(g.groups, child)
	}
	child.add(e, index, tail)
}

// merge folds groups that have a single child into that child.
func (g *tensorGroup) merge() {
	for i, c := range g.groups {
		c.merge()
		switch {
		case len(c.groups) == 1 && len(c.tensors) == 0:
			only := c.groups[0]
			only.label = c.label + "." + only.label
			g.groups[i] = only
		case len(c.groups) == 0 && len(c.tensors) == 1:
			// A lone tensor: shown at this level with its longer name.
			idx := c.tensors[0]
			g.tensors = append(g.tensors, idx)
			g.leafName[idx] = c.label + "." + c.leafName[idx]
			g.groups[i] = nil
		}
	}
	kept := g.groups[:0]
	for _, c := range g.groups {
		if c != nil {
			kept = append(kept, c)
		}
	}
	g.groups = kept
}

func (l *TensorList) flatten(g *tensorGroup, depth int) {
	// Tensors and groups keep the order the (sorted) rows gave them: groups
	// first in order of their first tensor, then this level's tensors.
	for _, c := range g.groups {
		l.tree = append(l.tree, treeRow{group: c, depth: depth})
		if !l.collapsed[c.path] {
			l.flatten(c, depth+1)
		}
	}
	for _, idx := range g.tensors {
		l.tree = append(l.tree, treeRow{index: idx, label: g.leafName[idx], depth: depth})
	}
}

// treeCell is Cell for the name tree.
func (l *TensorList) treeCell(row int, col TensorColumn) string {
	r := l.tree[row]
	indent := strings.Repeat("   ", r.depth)
	if r.group == nil {
		if col == ColName {
			return indent + "   " + r.label
		}
		return l.flatCell(r.index, col)
	}
	g := r.group
	switch col {
	case ColName:
		mark := "▾ "
		if l.collapsed[g.path] {
			mark = "▸ "
		}
		return fmt.Sprintf("%s%s%s (%d)", indent, mark, g.label, g.count)
	case ColDType:
		return "group"
	case ColShape:
		return CompactCount(g.params) + " params"
	case ColSize:
		return textfmt.Bytes(g.bytes)
	}
	return ""
}

// treeRowOf finds tensor i in the tree, expanding the groups that hide it.
func (l *TensorList) treeRowOf(i int) int {
	for r, row := range l.tree {
		if row.group == nil && row.index == i {
			return r
		}
	}
	found := false
	for _, idx := range l.rows {
		found = found || idx == i
	}
	if !found {
		return -1
	}
	name := l.entries[i].Name
	changed := false
	for path, c := range l.collapsed {
		if c && strings.HasPrefix(name, path+".") {
			l.collapsed[path] = false
			changed = true
		}
	}
	if !changed {
		return -1
	}
	l.refresh()
	return l.treeRowOf(i)
}

// CompactCount writes a parameter count in three digits: 852, 852.5K, 7.24B.
func CompactCount(n int64) string {
	units := []struct {
		div  float64
		name string
	}{{1e12, "T"}, {1e9, "B"}, {1e6, "M"}, {1e3, "K"}}
	for _, u := range units {
		if float64(n) >= u.div {
			v := float64(n) / u.div
			switch {
			case v >= 100:
				return fmt.Sprintf("%.0f%s", v, u.name)
			case v >= 10:
				return fmt.Sprintf("%.1f%s", v, u.name)
			}
			return fmt.Sprintf("%.2f%s", v, u.name)
		}
	}
	return fmt.Sprint(n)
}
