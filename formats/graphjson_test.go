package formats_test

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"path/filepath"
	"testing"

	"tensorscope/formats"
	_ "tensorscope/formats/all"
	"tensorscope/internal/samples"
	"tensorscope/tensor"
)

// reflectedGraphJSON is the graph as encoding/json wrote it before the
// graph got an encoder of its own: the reference the encoder must match
// byte for byte.
func reflectedGraphJSON(g *formats.Graph) ([]byte, error) {
	type nodeJSON struct {
		ID       int             `json:"id"`
		Name     string          `json:"name"`
		Op       string          `json:"op"`
		Kind     string          `json:"kind"`
		Inputs   []int           `json:"inputs"`
		Outputs  []int           `json:"outputs"`
		Attrs    json.RawMessage `json:"attrs"`
		Reserved json.RawMessage `json:"reserved,omitempty"`
		Scope    []string        `json:"scope"`
	}
	type valueJSON struct {
		ID       int    `json:"id"`
		Name     string `json:"name"`
		DType    string `json:"dtype,omitempty"`
		Shape    []int  `json:"shape"`
		Producer *int   `json:"producer"`
		Tensor   *int   `json:"tensor"`
	}
	nonNil := func(s []int) []int {
		if s == nil {
			return []int{}
		}
		return s
	}
	attrs := func(as []formats.Attr) (json.RawMessage, error) {
		// An attribute list's own encoding keeps their order; a node
		// holding it is what is compared here.
		n := formats.Node{Attrs: as}
		b, err := json.Marshal(&formats.Graph{Nodes: []formats.Node{n}})
		if err != nil {
			return nil, err
		}
		var g struct {
			Nodes []struct {
				Attrs json.RawMessage `json:"attrs"`
			} `json:"nodes"`
		}
		err = json.Unmarshal(b, &g)
		return g.Nodes[0].Attrs, err
	}
	out := struct {
		Nodes   []nodeJSON  `json:"nodes"`
		Values  []valueJSON `json:"values"`
		Inputs  []int       `json:"inputs"`
		Outputs []int       `json:"outputs"`
	}{Nodes: []nodeJSON{}, Values: []valueJSON{}, Inputs: nonNil(g.Inputs), Outputs: nonNil(g.Outputs)}
	for _, n := range g.Nodes {
		a, err := attrs(n.Attrs)
		if err != nil {
			return nil, err
		}
		var r json.RawMessage
		if len(n.Reserved) > 0 {
			if r, err = attrs(n.Reserved); err != nil {
				return nil, err
			}
		}
		scope := n.Meaning.Scope
		if scope == nil {
			scope = []string{}
		}
		out.Nodes = append(out.Nodes, nodeJSON{n.ID, n.Name, n.Op, n.Kind.String(), nonNil(n.Inputs), nonNil(n.Outputs), a, r, scope})
	}
	for i, v := range g.Values {
		vj := valueJSON{ID: i, Name: v.Name, Shape: v.Shape}
		if v.DType.Valid() {
			vj.DType = v.DType.String()
		}
		if v.Producer >= 0 {
			p := v.Producer
			vj.Producer = &p
		}
		if v.Tensor >= 0 {
			t := v.Tensor
			vj.Tensor = &t
		}
		out.Values = append(out.Values, vj)
	}
	return json.Marshal(out)
}

func checkGraphJSON(t *testing.T, what string, g *formats.Graph) {
	t.Helper()
	got, err := json.Marshal(g)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	want, err := reflectedGraphJSON(g)
	if err != nil {
		t.Fatalf("%s: reference: %v", what, err)
	}
	if !bytes.Equal(got, want) {
		i := 0
		for i < len(got) && i < len(want) && got[i] == want[i] {
			i++
		}
		t.Errorf("%s: the graph's JSON differs from encoding/json's at byte %d:\n got …%.80s\nwant …%.80s", what, i, got[i:], want[i:])
	}
}

// TestGraphJSONMatchesEncodingJSON: the graph's own encoder writes the
// bytes encoding/json wrote, for an edge-case graph and for every sample
// with a graph.
func TestGraphJSONMatchesEncodingJSON(t *testing.T) {
	checkGraphJSON(t, "empty", &formats.Graph{})
	checkGraphJSON(t, "edge cases", &formats.Graph{
		Nodes: []formats.Node{
			{ID: 0, Name: "in<put>&\"x\"\u2028", Op: "Input", Kind: formats.KindInput, Outputs: []int{0}},
			{ID: 1, Name: "w", Op: "Const", Kind: formats.KindConst, Outputs: []int{1},
				Attrs:    []formats.Attr{{Name: "f", Value: 1.5}, {Name: "s", Value: "a\tb"}, {Name: "i", Value: int64(-3)}, {Name: "b", Value: formats.Bytes{1, 2}}},
				Reserved: []formats.Attr{{Name: "#x", Value: int64(1)}}},
			{ID: 2, Name: "op", Op: "Conv", Inputs: []int{0, 1}, Outputs: []int{2},
				Meaning: formats.Meaning{Scope: []string{"layers", "0"}}},
		},
		Values: []formats.Value{
			{Name: "x", Producer: 0, Tensor: -1, DType: tensor.Float32, Shape: []int{1, 3}},
			{Name: "w", Producer: 1, Tensor: 0},
			{Name: "y", Producer: -1, Tensor: -1, Shape: []int{}},
		},
		Inputs: []int{0}, Outputs: []int{2}, OutputValues: []int{2},
	})
	root := samples.Dir(t, "")
	n := 0
	filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		doc, err := formats.Open(path)
		if err != nil {
			return nil // not a model file (notes, licences)
		}
		defer doc.Close()
		if doc.Graph != nil {
			n++
			checkGraphJSON(t, path, doc.Graph)
		}
		return nil
	})
	if n == 0 {
		t.Errorf("no sample under %s has a graph", root)
	}
}
