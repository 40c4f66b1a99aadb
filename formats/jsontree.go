package formats

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"strings"
)

// maxJSONDepth bounds nesting so that a hostile file cannot recurse deeply.
const maxJSONDepth = 256

// maxJSONValues bounds the tree's size: each value costs about 90 bytes as
// a node, so a hostile file of short values ("0,0,0,...") would otherwise
// take some 45 times its size in memory. Real models hold a few values per
// layer and per epoch.
const maxJSONValues = 1 << 18

// JSONTree turns one JSON value into a metadata tree named name that keeps
// the file's key order (a map would lose it). Integers stay int64; other
// numbers are float64. base is the file offset of the text: errors are
// *Error at the offending byte. Nesting and the number of values are
// bounded, so a hostile file can neither recurse deeply nor make a tree
// far larger than itself.
func JSONTree(name string, text []byte, base int64) (*Meta, error) {
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.UseNumber()
	p := &jsonParser{dec: dec, base: base}
	root, err := p.value(name, 0)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, Errorf(base+dec.InputOffset(), "JSON: expected the end of the text, found more")
	}
	return root, nil
}

type jsonParser struct {
	dec    *json.Decoder
	base   int64 // file offset of the text
	values int
}

func (p *jsonParser) value(name string, depth int) (*Meta, error) {
	dec, base := p.dec, p.base
	p.values++
	if p.values > maxJSONValues {
		return nil, Errorf(base+dec.InputOffset(), "JSON: more than %d values; a model's JSON holds far fewer", maxJSONValues)
	}
	if depth > maxJSONDepth {
		return nil, Errorf(base+dec.InputOffset(), "JSON: nested more than %d levels deep", maxJSONDepth)
	}
	at := dec.InputOffset()
	tok, err := dec.Token()
	if err != nil {
		return nil, jsonError(err, base, at)
	}
	switch v := tok.(type) {
	case json.Delim:
		switch v {
		case '{':
			obj := NewObject(name)
			for dec.More() {
				kat := dec.InputOffset()
				kt, err := dec.Token()
				if err != nil {
					return nil, jsonError(err, base, kat)
				}
				key, ok := kt.(string)
				if !ok {
					return nil, Errorf(base+kat, "JSON: expected an object key, found %v", kt)
				}
				child, err := p.value(key, depth+1)
				if err != nil {
					return nil, err
				}
				obj.Add(child)
			}
			if _, err := dec.Token(); err != nil { // '}'
				return nil, jsonError(err, base, dec.InputOffset())
			}
			return obj, nil
		case '[':
			list := NewList(name)
			for i := 0; dec.More(); i++ {
				child, err := p.value(strconv.Itoa(i), depth+1)
				if err != nil {
					return nil, err
				}
				list.Add(child)
			}
			if _, err := dec.Token(); err != nil { // ']'
				return nil, jsonError(err, base, dec.InputOffset())
			}
			return list, nil
		}
		return nil, Errorf(base+at, "JSON: unexpected %v", v)
	case json.Number:
		if !strings.ContainsAny(string(v), ".eE") {
			if i, err := v.Int64(); err == nil {
				return Leaf(name, i), nil
			}
		}
		f, err := strconv.ParseFloat(string(v), 64)
		if err != nil {
			return nil, Errorf(base+at, "JSON: number %s is out of range", v)
		}
		return Leaf(name, f), nil
	default: // string, bool, nil
		return Leaf(name, v), nil
	}
}

func jsonError(err error, base, at int64) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return Errorf(base+se.Offset, "JSON: %v", se)
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return Errorf(base+at, "JSON: the text ends in the middle of a value")
	}
	return Errorf(base+at, "JSON: %v", err)
}
