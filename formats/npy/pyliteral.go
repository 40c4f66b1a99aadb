package npy

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"
)

// pyValue is a parsed Python literal: string, int64 (or *big.Int when it
// does not fit), bool, nil (None), pyTuple, pyList or *pyDict.
type pyValue any

type (
	pyTuple []pyValue
	pyList  []pyValue
)

// pyDict keeps its keys in file order.
type pyDict struct {
	keys   []string
	values map[string]pyValue
}

// maxLiteralDepth bounds nesting (NumPy's nested structured dtypes are a few
// levels deep): a hostile header of a million '[' must not recurse without
// bound.
const maxLiteralDepth = 64

// literalParser parses the subset of Python literals NumPy writes with
// repr(): dicts with string keys, tuples, lists, strings, integers (with
// Python 2's L suffix), True, False and None. Offsets in its errors are
// relative to the start of the text; the caller adds the header's place.
type literalParser struct {
	s             string
	pos           int
	trailingComma bool // the last item of the sequence being read ended with ','
}

type literalError struct {
	pos int
	msg string
}

func (e *literalError) Error() string { return e.msg }

func (p *literalParser) fail(format string, args ...any) error {
	return &literalError{pos: p.pos, msg: fmt.Sprintf(format, args...)}
}

// parseLiteral parses s as one Python literal followed only by whitespace.
func parseLiteral(s string) (pyValue, error) {
	p := &literalParser{s: s}
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.skipSpace()
	if p.pos != len(p.s) {
		return nil, p.fail("expected the end of the header, found %q", p.peekText())
	}
	return v, nil
}

func (p *literalParser) peekText() string {
	rest := p.s[p.pos:]
	if len(rest) > 12 {
		rest = rest[:12] + "…"
	}
	return rest
}

func (p *literalParser) skipSpace() {
	for p.pos < len(p.s) {
		switch p.s[p.pos] {
		case ' ', '\t', '\n', '\r', '\f', '\v':
			p.pos++
		default:
			return
		}
	}
}

func (p *literalParser) value(depth int) (pyValue, error) {
	if depth > maxLiteralDepth {
		return nil, p.fail("literal nested more than %d deep", maxLiteralDepth)
	}
	p.skipSpace()
	if p.pos >= len(p.s) {
		return nil, p.fail("expected a value, found the end of the header")
	}
	switch c := p.s[p.pos]; {
	case c == '{':
		return p.dict(depth)
	case c == '(':
		items, err := p.sequence(depth, '(', ')')
		return pyTuple(items), err
	case c == '[':
		items, err := p.sequence(depth, '[', ']')
		return pyList(items), err
	case c == '\'' || c == '"':
		return p.str()
	case c == 'b' && p.pos+1 < len(p.s) && (p.s[p.pos+1] == '\'' || p.s[p.pos+1] == '"'):
		p.pos++ // b'...' (field titles written by Python 2 as bytes)
		return p.str()
	case c == 'u' && p.pos+1 < len(p.s) && (p.s[p.pos+1] == '\'' || p.s[p.pos+1] == '"'):
		p.pos++ // u'...' (Python 2 unicode)
		return p.str()
	case c == '-' || c == '+' || (c >= '0' && c <= '9'):
		return p.integer()
	default:
		for _, kw := range []struct {
			word string
			val  pyValue
		}{{"True", true}, {"False", false}, {"None", nil}} {
			if strings.HasPrefix(p.s[p.pos:], kw.word) {
				p.pos += len(kw.word)
				return kw.val, nil
			}
		}
		return nil, p.fail("expected a Python literal, found %q", p.peekText())
	}
}

// sequence parses a tuple or list; a trailing comma is allowed, and a
// one-element tuple needs it, as in Python.
func (p *literalParser) sequence(depth int, open, close byte) ([]pyValue, error) {
	p.pos++ // open
	items := []pyValue{}
	for {
		p.skipSpace()
		if p.pos < len(p.s) && p.s[p.pos] == close {
			p.pos++
			if open == '(' && len(items) == 1 && !p.trailingComma {
				// (x) is x in Python, not a tuple.
				return nil, &literalError{pos: p.pos - 1, msg: "a parenthesised value without a comma is not a tuple"}
			}
			p.trailingComma = false
			return items, nil
		}
		v, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		items = append(items, v)
		p.skipSpace()
		if p.pos >= len(p.s) {
			return nil, p.fail("expected ',' or %q, found the end of the header", close)
		}
		p.trailingComma = false
		switch p.s[p.pos] {
		case ',':
			p.pos++
			p.trailingComma = true
		case close:
		default:
			return nil, p.fail("expected ',' or %q, found %q", close, p.peekText())
		}
	}
}

func (p *literalParser) dict(depth int) (pyValue, error) {
	p.pos++ // {
	d := &pyDict{values: map[string]pyValue{}}
	for {
		p.skipSpace()
		if p.pos < len(p.s) && p.s[p.pos] == '}' {
			p.pos++
			return d, nil
		}
		keyAt := p.pos
		k, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		key, ok := k.(string)
		if !ok {
			return nil, &literalError{pos: keyAt, msg: fmt.Sprintf("expected a string key, found %s", describe(k))}
		}
		if _, dup := d.values[key]; dup {
			return nil, &literalError{pos: keyAt, msg: fmt.Sprintf("key %q appears twice", key)}
		}
		p.skipSpace()
		if p.pos >= len(p.s) || p.s[p.pos] != ':' {
			return nil, p.fail("expected ':' after key %q", key)
		}
		p.pos++
		v, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		d.keys = append(d.keys, key)
		d.values[key] = v
		p.skipSpace()
		if p.pos >= len(p.s) {
			return nil, p.fail("expected ',' or '}', found the end of the header")
		}
		switch p.s[p.pos] {
		case ',':
			p.pos++
		case '}':
		default:
			return nil, p.fail("expected ',' or '}', found %q", p.peekText())
		}
	}
}

// str parses a quoted string with Python's common escapes.
func (p *literalParser) str() (pyValue, error) {
	quote := p.s[p.pos]
	start := p.pos
	p.pos++
	var b strings.Builder
	for p.pos < len(p.s) {
		c := p.s[p.pos]
		switch {
		case c == quote:
			p.pos++
			return b.String(), nil
		case c == '\n':
			return nil, &literalError{pos: start, msg: "string not closed before the end of the line"}
		case c == '\\':
			if err := p.escape(&b); err != nil {
				return nil, err
			}
		default:
			r, size := utf8.DecodeRuneInString(p.s[p.pos:])
			b.WriteRune(r)
			p.pos += size
		}
	}
	return nil, &literalError{pos: start, msg: "string not closed before the end of the header"}
}

func (p *literalParser) escape(b *strings.Builder) error {
	at := p.pos
	p.pos++
	if p.pos >= len(p.s) {
		return &literalError{pos: at, msg: "escape at the end of the header"}
	}
	c := p.s[p.pos]
	p.pos++
	simple := map[byte]string{'\\': `\`, '\'': `'`, '"': `"`, 'n': "\n", 't': "\t", 'r': "\r", '0': "\x00"}
	if s, ok := simple[c]; ok {
		b.WriteString(s)
		return nil
	}
	digits := map[byte]int{'x': 2, 'u': 4, 'U': 8}[c]
	if digits == 0 || p.pos+digits > len(p.s) {
		return &literalError{pos: at, msg: fmt.Sprintf("unsupported escape \\%c", c)}
	}
	n, err := strconv.ParseUint(p.s[p.pos:p.pos+digits], 16, 32)
	if err != nil || n > utf8.MaxRune {
		return &literalError{pos: at, msg: fmt.Sprintf("bad escape \\%c%s", c, p.s[p.pos:p.pos+digits])}
	}
	p.pos += digits
	b.WriteRune(rune(n))
	return nil
}

// integer parses a decimal integer, with Python 2's long suffix L.
func (p *literalParser) integer() (pyValue, error) {
	start := p.pos
	if p.s[p.pos] == '-' || p.s[p.pos] == '+' {
		p.pos++
	}
	digitsAt := p.pos
	for p.pos < len(p.s) && p.s[p.pos] >= '0' && p.s[p.pos] <= '9' {
		p.pos++
	}
	if p.pos == digitsAt {
		return nil, &literalError{pos: start, msg: "expected digits after the sign"}
	}
	if p.pos-digitsAt > 400 {
		return nil, &literalError{pos: start, msg: "integer of more than 400 digits"}
	}
	text := p.s[start:p.pos]
	if p.pos < len(p.s) && (p.s[p.pos] == 'L' || p.s[p.pos] == 'l') {
		p.pos++
	}
	if p.pos < len(p.s) && (p.s[p.pos] == '.' || p.s[p.pos] == 'e' || p.s[p.pos] == 'E') {
		return nil, &literalError{pos: start, msg: "expected an integer, found a float"}
	}
	if v, err := strconv.ParseInt(text, 10, 64); err == nil {
		return v, nil
	}
	n, ok := new(big.Int).SetString(text, 10)
	if !ok {
		return nil, &literalError{pos: start, msg: fmt.Sprintf("bad integer %q", text)}
	}
	return n, nil
}

// describe names a value's Python type for messages.
func describe(v pyValue) string {
	switch v := v.(type) {
	case string:
		return fmt.Sprintf("the string %q", v)
	case int64, *big.Int:
		return fmt.Sprintf("the integer %v", v)
	case bool:
		if v {
			return "True"
		}
		return "False"
	case nil:
		return "None"
	case pyTuple:
		return "a tuple"
	case pyList:
		return "a list"
	case *pyDict:
		return "a dict"
	}
	return fmt.Sprintf("%T", v)
}
