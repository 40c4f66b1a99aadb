package safetensors

import (
	"bytes"
	"encoding/json"
	"fmt"

	"tensorscope/formats"
)

// maxTreeDepth bounds nesting of metadata values.
const maxTreeDepth = 64

// jsonTree turns a JSON value into a metadata tree in the file's key order.
func jsonTree(name string, raw []byte) (*formats.Meta, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	return treeValue(dec, name, 0)
}

func treeValue(dec *json.Decoder, name string, depth int) (*formats.Meta, error) {
	if depth > maxTreeDepth {
		return nil, fmt.Errorf("nested more than %d deep", maxTreeDepth)
	}
	tok, err := dec.Token()
	if err != nil {
		return nil, cleanJSONErr(err)
	}
	switch t := tok.(type) {
	case json.Delim:
		node := formats.NewObject(name)
		if t == '[' {
			node = formats.NewList(name)
		}
		for i := 0; dec.More(); i++ {
			key := fmt.Sprint(i)
			if t == '{' {
				k, err := dec.Token()
				if err != nil {
					return nil, cleanJSONErr(err)
				}
				key, _ = k.(string)
			}
			child, err := treeValue(dec, key, depth+1)
			if err != nil {
				return nil, err
			}
			node.Add(child)
		}
		if _, err := dec.Token(); err != nil {
			return nil, cleanJSONErr(err)
		}
		return node, nil
	case json.Number:
		if n, err := t.Int64(); err == nil {
			return formats.Leaf(name, n), nil
		}
		f, _ := t.Float64()
		return formats.Leaf(name, f), nil
	default:
		return formats.Leaf(name, t), nil
	}
}
