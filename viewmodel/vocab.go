package viewmodel

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"tensorscope/formats"
	"tensorscope/tensor"
	"tensorscope/viewmodel/textfmt"
)

// The metadata keys of a GGUF tokenizer's vocabulary: parallel arrays, one
// entry per token id (llama.cpp's gguf.md).
const (
	vocabTokensKey = "tokenizer.ggml.tokens"
	vocabScoresKey = "tokenizer.ggml.scores"
	vocabTypesKey  = "tokenizer.ggml.token_type"
	vocabMergesKey = "tokenizer.ggml.merges"
)

// VocabColumn is a column of the vocabulary table; Row's cells are in
// this order.
type VocabColumn int

const (
	VocabID VocabColumn = iota
	VocabToken
	VocabScore
	VocabType
	VocabMerge
)

// VocabColumnTitles head the columns.
var VocabColumnTitles = [...]string{"id", "token", "score", "type", "merge"}

// tokenTypeNames are llama.cpp's token types (llama_token_type).
var tokenTypeNames = []string{"undefined", "normal", "unknown", "control", "user-defined", "unused", "byte"}

// Vocabulary is a tokenizer's parallel arrays seen as one table: a row per
// token id with its text, score and type. Entries are read from the file
// as rows are shown, so a 150,000-token vocabulary costs what is visible.
type Vocabulary struct {
	tokens, scores, types *formats.LazyList
	merges                *formats.LazyList
	ids                   []string // the tree ids of the arrays, to recognise them when selected

	mergeOnce sync.Once
	mergeOf   map[string]int // a merge's result → its rank (index in merges)
}

// Vocabulary returns the file's tokenizer vocabulary, or nil when the
// metadata has no token list.
func (t *MetaTree) Vocabulary() *Vocabulary {
	v := &Vocabulary{}
	for i, c := range t.root.Children {
		if c.Lazy == nil {
			continue
		}
		id := strconv.Itoa(i)
		switch c.Name {
		case vocabTokensKey:
			v.tokens = c.Lazy
		case vocabScoresKey:
			v.scores = c.Lazy
		case vocabTypesKey:
			v.types = c.Lazy
		case vocabMergesKey:
			v.merges = c.Lazy
		default:
			continue
		}
		v.ids = append(v.ids, id)
	}
	if v.tokens == nil || v.tokens.Raw == nil {
		return nil
	}
	if v.merges != nil && v.merges.Raw == nil {
		v.merges = nil // not an array of strings
	}
	// Arrays of another length are not this vocabulary's columns.
	for _, l := range []**formats.LazyList{&v.scores, &v.types} {
		if *l != nil && (*l).Len != v.tokens.Len {
			*l = nil
		}
	}
	return v
}

// Len is the number of tokens.
func (v *Vocabulary) Len() int { return v.tokens.Len }

// Holds reports whether the metadata node id is one of the vocabulary's
// arrays, which the table shows together.
func (v *Vocabulary) Holds(id string) bool {
	for _, x := range v.ids {
		if x == id {
			return true
		}
	}
	return false
}

// Title heads the table: "Vocabulary — 32,000 tokens, scores and types;
// 61,249 merges".
func (v *Vocabulary) Title() string {
	cols := []string{"tokens"}
	if v.scores != nil {
		cols = append(cols, "scores")
	}
	if v.types != nil {
		cols = append(cols, "types")
	}
	title := "Vocabulary — " + formats.GroupDigits(int64(v.Len())) + " " + strings.Join(cols, ", ")
	if i := strings.LastIndex(title, ", "); i >= 0 {
		title = title[:i] + " and " + title[i+2:]
	}
	if v.merges != nil {
		title += "; " + formats.GroupDigits(int64(v.merges.Len)) + " merges"
	}
	return title
}

// Columns are the table's columns: id and token, and score, type and
// merge where the tokenizer has them.
func (v *Vocabulary) Columns() []VocabColumn {
	cols := []VocabColumn{VocabID, VocabToken}
	for _, c := range []struct {
		col  VocabColumn
		list *formats.LazyList
	}{{VocabScore, v.scores}, {VocabType, v.types}, {VocabMerge, v.merges}} {
		if c.list != nil {
			cols = append(cols, c.col)
		}
	}
	return cols
}

// Row is token id i as the table shows it: id, token (whitespace and
// bytes made visible), score, type, and the merge that makes it ("a b
// (rank 12)", empty for a token no merge makes). A file truncated on disk
// since it was opened shows its lost entries as unreadable.
func (v *Vocabulary) Row(i int) [5]string {
	var row [5]string
	if i < 0 || i >= v.Len() {
		return row
	}
	row[0] = strconv.Itoa(i)
	err := tensor.CatchFault(func() error {
		row[1] = VisibleToken(v.tokens.Raw(i))
		if v.scores != nil {
			row[2] = textfmt.Value(v.scores.At(i))
		}
		if v.types != nil {
			row[3] = tokenTypeName(v.types.At(i))
		}
		if v.merges != nil {
			if rank, ok := v.mergeRanks()[string(v.tokens.Raw(i))]; ok {
				raw := v.merges.Raw(rank)
				sp := bytes.IndexByte(raw, ' ')
				row[4] = VisibleToken(raw[:sp]) + " " + VisibleToken(raw[sp+1:]) + " (rank " + strconv.Itoa(rank) + ")"
			}
		}
		return nil
	})
	if err != nil {
		row[1], row[2], row[3], row[4] = UnreadableBytes, "", "", ""
	}
	return row
}

// mergeRanks maps what each merge makes to its rank, built on first use:
// merge "a b" makes the token "ab" (BPE tokens hold no spaces; the
// vocabulary spells them Ġ), and the first merge that makes a token wins.
func (v *Vocabulary) mergeRanks() map[string]int {
	v.mergeOnce.Do(func() {
		v.mergeOf = make(map[string]int, v.merges.Len)
		for r := 0; r < v.merges.Len; r++ {
			raw := v.merges.Raw(r)
			sp := bytes.IndexByte(raw, ' ')
			if sp < 0 {
				continue
			}
			made := string(raw[:sp]) + string(raw[sp+1:])
			if _, seen := v.mergeOf[made]; !seen {
				v.mergeOf[made] = r
			}
		}
	})
	return v.mergeOf
}

func tokenTypeName(x any) string {
	var n int64
	switch t := x.(type) {
	case int32:
		n = int64(t)
	case int64:
		n = t
	case uint32:
		n = int64(t)
	default:
		return textfmt.Value(x)
	}
	if n >= 0 && n < int64(len(tokenTypeNames)) {
		return tokenTypeNames[n]
	}
	return strconv.FormatInt(n, 10)
}

// VisibleToken spells a token so that every byte of it shows: a space as
// ␣, other whitespace, control characters and bytes that are not UTF-8 as
// <0xNN> (as llama.cpp names byte tokens), the empty token as ∅.
func VisibleToken(b []byte) string {
	if len(b) == 0 {
		return "∅"
	}
	var out strings.Builder
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		switch {
		case r == utf8.RuneError && n <= 1:
			fmt.Fprintf(&out, "<0x%02X>", b[0])
		case r == ' ':
			out.WriteRune('␣')
		case r < 0x80 && (unicode.IsSpace(r) || unicode.IsControl(r)):
			fmt.Fprintf(&out, "<0x%02X>", r)
		case unicode.IsSpace(r) || unicode.IsControl(r):
			fmt.Fprintf(&out, "<U+%04X>", r)
		default:
			out.Write(b[:n])
		}
		b = b[n:]
	}
	return out.String()
}

// Find looks for query from row from on (wrapping round) and returns the
// row found, or −1. A query of digits (or "#digits", "id digits") is a
// token id to jump to; other text is looked for in the tokens as the file
// holds them, ␣ standing for a space and <0xNN> for a byte, so that what
// the table shows can be typed back.
func (v *Vocabulary) Find(query string, from int) int {
	q := strings.TrimSpace(query)
	if q == "" {
		return -1
	}
	digits := strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(q, "#"), "id"))
	if id, err := strconv.Atoi(digits); err == nil && digits != "" {
		if id >= 0 && id < v.Len() {
			return id
		}
		return -1
	}
	// The text as typed, and as VisibleToken's spellings undone: a byte
	// token of SentencePiece holds the text "<0x0A>", a GPT-2 token the
	// byte itself.
	needles := [][]byte{[]byte(query)}
	if b := tokenBytes(query); !bytes.Equal(b, needles[0]) {
		needles = append(needles, b)
	}
	n := v.Len()
	found := -1
	tensor.CatchFault(func() error {
		for k := 0; k < n; k++ {
			i := (from + k) % n
			if i < 0 {
				i += n
			}
			for _, needle := range needles {
				if bytes.Contains(v.tokens.Raw(i), needle) {
					found = i
					return nil
				}
			}
		}
		return nil
	})
	return found
}

// tokenBytes undoes VisibleToken's spellings in a query.
func tokenBytes(q string) []byte {
	q = strings.ReplaceAll(q, "␣", " ")
	var out []byte
	for len(q) > 0 {
		if len(q) >= 6 && strings.HasPrefix(q, "<0x") && q[5] == '>' {
			if b, err := strconv.ParseUint(q[3:5], 16, 8); err == nil {
				out = append(out, byte(b))
				q = q[6:]
				continue
			}
		}
		out = append(out, q[0])
		q = q[1:]
	}
	return out
}
