package safetensors

import (
	"encoding/json"
	"fmt"
	"strconv"
	"unicode/utf8"
)

// scanner reads the JSON of headers and indexes in one pass without
// reflection: a checkpoint of 30,000 tensors has 30,000 entries to read at
// every opening, which encoding/json's Decoder takes ten times longer to
// go through. It accepts exactly RFC 8259 JSON; positions in its errors are
// offsets into its text.
type scanner struct {
	b   []byte
	pos int
}

type scanError struct {
	pos int
	msg string
}

func (e *scanError) Error() string { return e.msg }

func (s *scanner) fail(format string, args ...any) error {
	return &scanError{pos: s.pos, msg: fmt.Sprintf(format, args...)}
}

func (s *scanner) ws() {
	for s.pos < len(s.b) {
		switch s.b[s.pos] {
		case ' ', '\t', '\n', '\r':
			s.pos++
		default:
			return
		}
	}
}

// peek returns the next byte after whitespace, 0 at the end.
func (s *scanner) peek() byte {
	s.ws()
	if s.pos >= len(s.b) {
		return 0
	}
	return s.b[s.pos]
}

func (s *scanner) expect(c byte) error {
	if got := s.peek(); got != c {
		if got == 0 {
			return s.fail("expected %q, found the end of the JSON", c)
		}
		return s.fail("expected %q, found %q", c, got)
	}
	s.pos++
	return nil
}

// members calls fn for each key of an object, positioned at its value;
// fn must consume the value. key is valid until the scanner next moves
// (it lies in the text unless it had escapes).
func (s *scanner) members(fn func(key []byte, keyAt int) error) error {
	if err := s.expect('{'); err != nil {
		return err
	}
	if s.peek() == '}' {
		s.pos++
		return nil
	}
	for {
		s.ws()
		keyAt := s.pos
		key, err := s.strBytes()
		if err != nil {
			return err
		}
		if err := s.expect(':'); err != nil {
			return err
		}
		if err := fn(key, keyAt); err != nil {
			return err
		}
		switch s.peek() {
		case ',':
			s.pos++
		case '}':
			s.pos++
			return nil
		default:
			return s.fail("expected ',' or '}' after the value of %q", key)
		}
	}
}

// strPlain marks the bytes a string holds as they are: ASCII but for
// control characters, the quote and the backslash.
var strPlain = func() (t [256]bool) {
	for c := 0x20; c < 0x80; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// strBytes reads a string: its bytes in the text when it has no escapes,
// else a decoded copy.
func (s *scanner) strBytes() ([]byte, error) {
	if err := s.expect('"'); err != nil {
		return nil, err
	}
	start := s.pos
	plain := true
	b := s.b
	for s.pos < len(b) {
		c := b[s.pos]
		if strPlain[c] {
			s.pos++
			continue
		}
		switch {
		case c == '"':
			s.pos++
			if plain {
				return b[start : s.pos-1 : s.pos-1], nil
			}
			var out string
			if err := json.Unmarshal(b[start-1:s.pos], &out); err != nil {
				return nil, &scanError{pos: start - 1, msg: "invalid string: " + err.Error()}
			}
			return []byte(out), nil
		case c == '\\':
			plain = false
			s.pos += 2
		case c < 0x20:
			return nil, s.fail("control character %#x in a string", c)
		default:
			r, n := utf8.DecodeRune(b[s.pos:])
			if r == utf8.RuneError && n == 1 {
				return nil, s.fail("invalid UTF-8 in a string")
			}
			s.pos += n
		}
	}
	return nil, &scanError{pos: start - 1, msg: "string not closed before the end of the JSON"}
}

// interned holds the strings every header repeats (its field names and
// dtype names): a checkpoint's 30,000 entries need no copy of them each.
var interned = func() map[string]string {
	m := map[string]string{"dtype": "dtype", "shape": "shape", "data_offsets": "data_offsets", "__metadata__": "__metadata__"}
	for name := range dtypes {
		m[name] = name
	}
	return m
}()

// maxInterned is the length of the longest interned string: longer ones
// (tensor and file names) skip the lookup, which was 8% of opening a
// checkpoint of 30,000 tensors.
var maxInterned = func() int {
	n := 0
	for s := range interned {
		n = max(n, len(s))
	}
	return n
}()

// intern returns b as a string, shared when it is one of the interned.
func intern(b []byte) string {
	if len(b) <= maxInterned {
		if s, ok := interned[string(b)]; ok { // the lookup does not copy b
			return s
		}
	}
	return string(b)
}

// uints appends to dst an array of non-negative integers, field of
// tensor name (which name it in errors, built only then: a header has
// tens of thousands of these).
func (s *scanner) uints(dst []int64, name []byte, field string) ([]int64, error) {
	what := func() string { return fmt.Sprintf("tensor %q %s", name, field) }
	if err := s.expect('['); err != nil {
		return nil, err
	}
	if s.peek() == ']' {
		s.pos++
		return dst, nil
	}
	for {
		s.ws()
		start := s.pos
		var v int64
		for s.pos < len(s.b) && s.b[s.pos] >= '0' && s.b[s.pos] <= '9' {
			v = v*10 + int64(s.b[s.pos]-'0') // exact up to 18 digits
			s.pos++
		}
		digits := s.b[start:s.pos]
		if len(digits) == 0 || (len(digits) > 1 && digits[0] == '0') {
			return nil, &scanError{pos: start, msg: fmt.Sprintf("%s: expected a non-negative integer", what())}
		}
		if len(digits) > 18 {
			var err error
			if v, err = strconv.ParseInt(string(digits), 10, 64); err != nil {
				return nil, &scanError{pos: start, msg: fmt.Sprintf("%s: %s is too large", what(), digits)}
			}
		}
		dst = append(dst, v)
		switch s.peek() {
		case ',':
			s.pos++
		case ']':
			s.pos++
			return dst, nil
		default:
			return nil, s.fail("%s: expected ',' or ']'", what())
		}
	}
}

// maxTreeDepth bounds the nesting of a header's values.
const maxTreeDepth = 64

// value skips any JSON value, returning its text; depth is bounded.
func (s *scanner) value(depth int) ([]byte, error) {
	if depth > maxTreeDepth {
		return nil, s.fail("nested more than %d deep", maxTreeDepth)
	}
	s.ws()
	start := s.pos
	switch c := s.peek(); {
	case c == '{':
		err := s.members(func([]byte, int) error { _, err := s.value(depth + 1); return err })
		return s.b[start:s.pos], err
	case c == '[':
		s.pos++
		if s.peek() == ']' {
			s.pos++
			return s.b[start:s.pos], nil
		}
		for {
			if _, err := s.value(depth + 1); err != nil {
				return nil, err
			}
			switch s.peek() {
			case ',':
				s.pos++
			case ']':
				s.pos++
				return s.b[start:s.pos], nil
			default:
				return nil, s.fail("expected ',' or ']'")
			}
		}
	case c == '"':
		_, err := s.strBytes()
		return s.b[start:s.pos], err
	case c == 0:
		return nil, s.fail("expected a value, found the end of the JSON")
	default:
		for s.pos < len(s.b) && isScalarByte(s.b[s.pos]) {
			s.pos++
		}
		lit := s.b[start:s.pos]
		if len(lit) == 0 || !json.Valid(lit) {
			s.pos = start
			return nil, s.fail("expected a JSON value, found %q", truncate(lit))
		}
		return lit, nil
	}
}

func isScalarByte(c byte) bool {
	return c == '-' || c == '+' || c == '.' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}

func truncate(b []byte) string {
	if len(b) > 16 {
		return string(b[:16]) + "…"
	}
	return string(b)
}
