package formats

import (
	"strconv"
)

// LazyList is a long array of metadata values (a tokenizer's 150,000
// tokens) that stays in the file: the metadata tree shows it as one node
// summarised by Summary, and a table reads its entries on demand through At.
// Building a tree node per entry would cost far more than the file.
type LazyList struct {
	Len  int    // number of entries
	Elem string // what an entry is, singular: "string", "float32", "array"
	// At returns entry i (0 ≤ i < Len) as a value of the kinds Attr.Value
	// holds ([]any for nested arrays). It must be safe to call from any
	// goroutine and must not fail: the codec checked the entries when it
	// indexed them.
	At func(i int) any
	// Raw, when set, returns entry i of a list of strings as the file's
	// bytes, valid while the document is open, without copying them: the
	// JSON writer reads a 150,000-token vocabulary without a string per
	// token. Nil for other lists.
	Raw func(i int) []byte
}

// NewLazyList returns a leaf node standing for list.
func NewLazyList(name string, list *LazyList) *Meta {
	return &Meta{Name: name, Lazy: list}
}

// Summary is "102,400 strings": the count and the entries' kind.
func (l *LazyList) Summary() string {
	noun := l.Elem
	if l.Len != 1 {
		noun += "s"
	}
	return GroupDigits(int64(l.Len)) + " " + noun
}

// GroupDigits writes n with thousands separated by commas: 102,400.
func GroupDigits(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := false
	if n < 0 {
		neg, s = true, s[1:]
	}
	out := make([]byte, 0, len(s)+len(s)/3+1)
	if neg {
		out = append(out, '-')
	}
	for i := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	return string(out)
}
