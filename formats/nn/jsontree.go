package nn

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	"tensorscope/formats"
)

// maxJSONDepth bounds nesting so that a hostile file cannot recurse deeply.
const maxJSONDepth = 256

// maxJSONValues bounds the tree's size: each value costs about 90 bytes as
// a node, so a hostile file of short values ("0,0,0,...") would otherwise
// take some 45 times its size in memory. Real models hold a few values per
// layer and per epoch.
const maxJSONValues = 1 << 18

// parseJSON turns JSON text into a metadata tree that keeps the file's key
// order (a map would lose it). Integers stay int64; other numbers are
// float64. base is the file offset of the text, for error messages.
func parseJSON(text []byte, base int64) (*formats.Meta, error) {
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.UseNumber()
	p := &jsonParser{dec: dec, base: base}
	root, err := p.value("", 0)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, formats.Errorf(base+dec.InputOffset(), "JSON: expected the end of the text, found more")
	}
	return root, nil
}

type jsonParser struct {
	dec    *json.Decoder
	base   int64 // file offset of the text
	values int
}

func (p *jsonParser) value(name string, depth int) (*formats.Meta, error) {
	dec, base := p.dec, p.base
	p.values++
	if p.values > maxJSONValues {
		return nil, formats.Errorf(base+dec.InputOffset(), "JSON: more than %d values; a model's JSON holds far fewer", maxJSONValues)
	}
	if depth > maxJSONDepth {
		return nil, formats.Errorf(base+dec.InputOffset(), "JSON: nested more than %d levels deep", maxJSONDepth)
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
			obj := formats.NewObject(name)
			for dec.More() {
				kat := dec.InputOffset()
				kt, err := dec.Token()
				if err != nil {
					return nil, jsonError(err, base, kat)
				}
				key, ok := kt.(string)
				if !ok {
					return nil, formats.Errorf(base+kat, "JSON: expected an object key, found %v", kt)
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
			list := formats.NewList(name)
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
		return nil, formats.Errorf(base+at, "JSON: unexpected %v", v)
	case json.Number:
		if !strings.ContainsAny(string(v), ".eE") {
			if i, err := v.Int64(); err == nil {
				return formats.Leaf(name, i), nil
			}
		}
		f, err := strconv.ParseFloat(string(v), 64)
		if err != nil {
			return nil, formats.Errorf(base+at, "JSON: number %s is out of range", v)
		}
		return formats.Leaf(name, f), nil
	default: // string, bool, nil
		return formats.Leaf(name, v), nil
	}
}

func jsonError(err error, base, at int64) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return formats.Errorf(base+se.Offset, "JSON: %v", se)
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return formats.Errorf(base+at, "JSON: the text ends in the middle of a value")
	}
	return formats.Errorf(base+at, "JSON: %v", err)
}

// appendJSON writes m as compact JSON with object keys sorted, as DataCode
// writes its model JSON (serde_json over sorted maps): a file read and
// written again comes out byte for byte the same.
func appendJSON(b []byte, m *formats.Meta) ([]byte, error) {
	if m.IsLeaf() {
		return appendLeaf(b, m.Value)
	}
	if m.List {
		b = append(b, '[')
		for i, c := range m.Children {
			if i > 0 {
				b = append(b, ',')
			}
			var err error
			if b, err = appendJSON(b, c); err != nil {
				return nil, err
			}
		}
		return append(b, ']'), nil
	}
	kids := append([]*formats.Meta(nil), m.Children...)
	sort.SliceStable(kids, func(i, j int) bool { return kids[i].Name < kids[j].Name })
	b = append(b, '{')
	for i, c := range kids {
		if i > 0 {
			b = append(b, ',')
		}
		var err error
		if b, err = appendLeaf(b, c.Name); err != nil {
			return nil, err
		}
		b = append(b, ':')
		if b, err = appendJSON(b, c); err != nil {
			return nil, err
		}
	}
	return append(b, '}'), nil
}

func appendLeaf(b []byte, v any) ([]byte, error) {
	switch x := v.(type) {
	case nil:
		return append(b, "null"...), nil
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, fmt.Errorf("JSON cannot hold the number %v", x)
		}
	case float32:
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return nil, fmt.Errorf("JSON cannot hold the number %v", x)
		}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // serde_json does not escape <, > and &
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return append(b, bytes.TrimSuffix(buf.Bytes(), []byte("\n"))...), nil
}
