package nn

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"sort"

	"tensorscope/formats"
)

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
