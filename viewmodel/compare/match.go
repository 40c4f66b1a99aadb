package compare

import (
	"fmt"
	"slices"
	"strings"

	"tensorscope/formats"
)

// TensorPair is a tensor of file A matched with one of file B. It is named
// by A's tensor.
type TensorPair struct {
	Name string
	A, B *formats.TensorEntry
}

// Matching is how the tensors of two files correspond: the pairs in A's
// order, and the names found in only one file (in that file's order).
type Matching struct {
	Pairs        []TensorPair
	OnlyA, OnlyB []string
}

// Renames maps a tensor name of file A to the name it has in file B
// (`diff --map OLD=NEW`).
type Renames map[string]string

// ParseRename parses "OLD=NEW" into r, refusing empty sides and a second
// rename of the same tensor.
func (r Renames) ParseRename(s string) error {
	old, new, ok := strings.Cut(s, "=")
	if !ok || old == "" || new == "" {
		return fmt.Errorf("want OLD=NEW (a tensor of the first file, its name in the second), not %q", s)
	}
	if prev, dup := r[old]; dup {
		return fmt.Errorf("%q is already mapped to %q", old, prev)
	}
	r[old] = new
	return nil
}

// comparable reports whether an entry takes part in matching: tensors
// without data in the file (activations, benchmark weights) are the
// graph's business, not the values'; derived views (a block-quantised
// tensor's scales and codes) are parts of a tensor compared as a whole.
func comparable(e *formats.TensorEntry) bool { return e.HasData() && e.Role != formats.RoleDerived }

// MatchTensors pairs the tensors with data of a and b by name, after
// renaming A's names through renames. Two files with one such tensor each
// are paired whatever their names. A rename naming a tensor that a (or b)
// does not have is an error, so that a mistyped --map does not pass
// silently.
func MatchTensors(a, b *formats.Document, renames Renames) (Matching, error) {
	ta, tb := withData(a), withData(b)
	for old, new := range renames {
		if !slices.ContainsFunc(ta, named(old)) {
			return Matching{}, fmt.Errorf("--map %s=%s: the first file has no tensor %q with data", old, new, old)
		}
		if !slices.ContainsFunc(tb, named(new)) {
			return Matching{}, fmt.Errorf("--map %s=%s: the second file has no tensor %q with data", old, new, new)
		}
	}
	if len(ta) == 1 && len(tb) == 1 {
		return Matching{Pairs: []TensorPair{{Name: ta[0].Name, A: ta[0], B: tb[0]}}}, nil
	}
	// Repeated names pair up in order: the k-th of A with the k-th of B.
	byName := map[string][]*formats.TensorEntry{}
	for _, e := range tb {
		byName[e.Name] = append(byName[e.Name], e)
	}
	var m Matching
	used := map[*formats.TensorEntry]bool{}
	for _, e := range ta {
		key := e.Name
		if n, ok := renames[key]; ok {
			key = n
		}
		if cands := byName[key]; len(cands) > 0 {
			m.Pairs = append(m.Pairs, TensorPair{Name: e.Name, A: e, B: cands[0]})
			byName[key] = cands[1:]
			used[cands[0]] = true
			continue
		}
		m.OnlyA = append(m.OnlyA, e.Name)
	}
	for _, e := range tb {
		if !used[e] {
			m.OnlyB = append(m.OnlyB, e.Name)
		}
	}
	return m, nil
}

func withData(d *formats.Document) []*formats.TensorEntry {
	var out []*formats.TensorEntry
	for _, e := range d.Tensors {
		if comparable(e) {
			out = append(out, e)
		}
	}
	return out
}

// named matches a tensor entry by name.
func named(name string) func(*formats.TensorEntry) bool {
	return func(e *formats.TensorEntry) bool { return e.Name == name }
}
