package viewmodel

import (
	"slices"
	"sort"
	"strings"

	"tensorscope/formats"
	"tensorscope/tensor"
	"tensorscope/viewmodel/textfmt"
)

// TensorColumn is a column of the tensor list.
type TensorColumn int

const (
	ColName TensorColumn = iota
	ColDType
	ColShape
	ColSize
	ColRole
	numTensorColumns
)

// TensorColumnTitles are the list's column headings.
var TensorColumnTitles = [numTensorColumns]string{"Name", "DType", "Shape", "Size", "Role"}

// TensorList is the filterable, sortable list of a document's tensors.
// Rows are indices into the document's tensors.
type TensorList struct {
	entries []*formats.TensorEntry
	filter  string
	sortCol TensorColumn
	desc    bool
	sorted  bool
	rows    []int

	// The name tree (tensortree.go): when grouped, rows of the list are
	// the visible rows of tree.
	grouped   bool
	collapsed map[string]bool
	tree      []treeRow
}

// NewTensorList lists entries in file order.
func NewTensorList(entries []*formats.TensorEntry) *TensorList {
	l := &TensorList{entries: entries}
	l.refresh()
	return l
}

// SetEntries replaces the entries (after a reload), keeping filter and sort.
func (l *TensorList) SetEntries(entries []*formats.TensorEntry) {
	l.entries = entries
	l.refresh()
}

// Len is the number of rows that pass the filter (in the name tree: the
// visible group and tensor rows).
func (l *TensorList) Len() int {
	if l.grouped {
		return len(l.tree)
	}
	return len(l.rows)
}

// Total is the number of tensors in the document.
func (l *TensorList) Total() int { return len(l.entries) }

// Entry returns the tensor shown in row, or nil for a group row.
func (l *TensorList) Entry(row int) *formats.TensorEntry {
	i := l.Index(row)
	if i < 0 {
		return nil
	}
	return l.entries[i]
}

// Index returns the document index of the tensor shown in row, or -1 for
// a group row of the name tree.
func (l *TensorList) Index(row int) int {
	if l.grouped {
		if l.tree[row].group != nil {
			return -1
		}
		return l.tree[row].index
	}
	return l.rows[row]
}

// RowOf returns the row showing document tensor index i, or -1 when it is
// filtered out (or inside a collapsed group, which it expands).
func (l *TensorList) RowOf(i int) int {
	if l.grouped {
		return l.treeRowOf(i)
	}
	for r, idx := range l.rows {
		if idx == i {
			return r
		}
	}
	return -1
}

// Cell is the text of a cell.
func (l *TensorList) Cell(row int, col TensorColumn) string {
	if l.grouped {
		return l.treeCell(row, col)
	}
	return l.flatCell(l.rows[row], col)
}

func (l *TensorList) flatCell(index int, col TensorColumn) string {
	e := l.entries[index]
	switch col {
	case ColName:
		return e.Name
	case ColDType:
		s := e.TypeString()
		if e.Quant != nil {
			s += " (quantised)"
		}
		return s
	case ColShape:
		return textfmt.Dims(e.Shape)
	case ColSize:
		if !e.HasData() && !e.HasText() {
			return "no data"
		}
		return textfmt.Bytes(storedBytes(e))
	case ColRole:
		return string(e.Role)
	}
	return ""
}

// DistinctCells returns the different texts column col takes over every
// entry, at most limit of them: what the column's width must fit. A
// column of few distinct values (DType, Role) is measured in a few calls
// however many tensors the file has.
func (l *TensorList) DistinctCells(col TensorColumn, limit int) []string {
	seen := map[string]bool{}
	var out []string
	for i := range l.entries {
		c := l.flatCell(i, col)
		if !seen[c] {
			seen[c] = true
			out = append(out, c)
			if len(out) == limit {
				break
			}
		}
	}
	return out
}

// LongestNames returns the n longest tensor names (by bytes): the
// candidates for the widest Name cell, measured without measuring all
// 30,000 names of a large checkpoint.
func (l *TensorList) LongestNames(n int) []string {
	names := make([]string, len(l.entries))
	for i, e := range l.entries {
		names[i] = e.Name
	}
	slices.SortFunc(names, func(a, b string) int { return len(b) - len(a) })
	return names[:min(n, len(names))]
}

// LongestCells returns the n longest texts (by bytes) column col takes
// over every entry: the candidates for its widest cell.
func (l *TensorList) LongestCells(col TensorColumn, n int) []string {
	cells := make([]string, len(l.entries))
	for i := range l.entries {
		cells[i] = l.flatCell(i, col)
	}
	slices.SortStableFunc(cells, func(a, b string) int { return len(b) - len(a) })
	return slices.Compact(cells[:min(n, len(cells))])
}

// Filter is the current filter text.
func (l *TensorList) Filter() string { return l.filter }

// SetFilter keeps the rows where every whitespace-separated word of text
// occurs (ignoring case) in the name, dtype, shape or role.
func (l *TensorList) SetFilter(text string) {
	l.filter = text
	l.refresh()
}

// SortBy sorts by col; choosing the sorted column again reverses the order,
// a third time returns to file order.
func (l *TensorList) SortBy(col TensorColumn) {
	switch {
	case !l.sorted || l.sortCol != col:
		l.sorted, l.sortCol, l.desc = true, col, false
	case !l.desc:
		l.desc = true
	default:
		l.sorted = false
	}
	l.refresh()
}

// Sort reports the sort column and direction; ok is false in file order.
func (l *TensorList) Sort() (col TensorColumn, desc, ok bool) {
	return l.sortCol, l.desc, l.sorted
}

func (l *TensorList) refresh() {
	words := strings.Fields(strings.ToLower(l.filter))
	l.rows = l.rows[:0]
	for i, e := range l.entries {
		if matchesAll(e, words) {
			l.rows = append(l.rows, i)
		}
	}
	defer func() {
		if l.grouped {
			l.buildTree()
		}
	}()
	if !l.sorted {
		return
	}
	less := l.lessFunc()
	sort.SliceStable(l.rows, func(a, b int) bool {
		x, y := l.entries[l.rows[a]], l.entries[l.rows[b]]
		if l.desc {
			return less(y, x)
		}
		return less(x, y)
	})
}

func (l *TensorList) lessFunc() func(a, b *formats.TensorEntry) bool {
	switch l.sortCol {
	case ColDType:
		return func(a, b *formats.TensorEntry) bool { return a.TypeString() < b.TypeString() }
	case ColShape:
		return func(a, b *formats.TensorEntry) bool { return elements(a) < elements(b) }
	case ColSize:
		return func(a, b *formats.TensorEntry) bool { return storedBytes(a) < storedBytes(b) }
	case ColRole:
		return func(a, b *formats.TensorEntry) bool { return a.Role < b.Role }
	}
	return func(a, b *formats.TensorEntry) bool { return naturalLess(a.Name, b.Name) }
}

func matchesAll(e *formats.TensorEntry, words []string) bool {
	if len(words) == 0 {
		return true
	}
	hay := strings.ToLower(e.Name + " " + e.TypeString() + " " + textfmt.Dims(e.Shape) + " " + string(e.Role))
	for _, w := range words {
		if !strings.Contains(hay, w) {
			return false
		}
	}
	return true
}

func elements(e *formats.TensorEntry) int64 {
	n, err := tensor.NumElements(e.Shape)
	if err != nil {
		return -1
	}
	return int64(n)
}

// storedBytes is the in-memory size of the tensor's values (not the
// possibly compressed size in the file).
func storedBytes(e *formats.TensorEntry) int64 {
	n := elements(e)
	if n < 0 || e.DType.Size() == 0 {
		return e.NBytes
	}
	if e.DType.Packed() {
		// Block and sub-byte types: their units as stored.
		if b, err := tensor.StorageBytes(e.DType, n); err == nil {
			return b
		}
		return e.NBytes
	}
	return n * int64(e.DType.Size())
}

// naturalLess orders "layer2" before "layer10".
func naturalLess(a, b string) bool {
	for a != "" && b != "" {
		da, db := leadingDigits(a), leadingDigits(b)
		if da > 0 && db > 0 {
			na, nb := strings.TrimLeft(a[:da], "0"), strings.TrimLeft(b[:db], "0")
			if len(na) != len(nb) {
				return len(na) < len(nb)
			}
			if na != nb {
				return na < nb
			}
			a, b = a[da:], b[db:]
			continue
		}
		if a[0] != b[0] {
			return a[0] < b[0]
		}
		a, b = a[1:], b[1:]
	}
	return len(a) < len(b)
}

func leadingDigits(s string) int {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}
