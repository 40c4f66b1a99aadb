package onnx_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"tensorscope/formats"
)

// TestSampleScopes holds every ONNX sample's node scopes to the '/' path
// of the node's name: its components without the last, empty ones
// dropped, in every graph nested in a node too.
func TestSampleScopes(t *testing.T) {
	scoped := 0
	for _, path := range sampleFiles(t) {
		doc, err := formats.Open(path)
		if err != nil {
			continue // the reference test says why
		}
		var check func(g *formats.Graph)
		check = func(g *formats.Graph) {
			for _, n := range g.Nodes {
				parts := strings.Split(n.Name, "/")
				want := []string{}
				for _, p := range parts[:len(parts)-1] {
					if p != "" {
						want = append(want, p)
					}
				}
				got := n.Meaning.Scope
				if got == nil {
					got = []string{}
				}
				if !slices.Equal(got, want) {
					t.Errorf("%s: node %d %q: scope %q, want %q", filepath.Base(path), n.ID, n.Name, got, want)
				}
				if len(got) > 0 {
					scoped++
				}
				for _, sg := range n.Subgraphs {
					check(sg.Graph)
				}
			}
		}
		if doc.Graph != nil {
			check(doc.Graph)
		}
		doc.Close()
	}
	if scoped == 0 {
		t.Error("no sample node has a scope; the torchvision exports name theirs /features/0/...")
	}
}

func TestPathAndWeightScope(t *testing.T) {
	for _, c := range []struct {
		name string
		want []string
	}{
		{"/model/layers.0/self_attn/q_proj/MatMul", []string{"model", "layers.0", "self_attn", "q_proj"}},
		{"MatMul_3", nil},
		{"/MatMul", nil},
		{"a//b/c", []string{"a", "b"}},
	} {
		if got := formats.PathScope(c.name, '/'); !slices.Equal(got, c.want) {
			t.Errorf("PathScope(%q) = %q, want %q", c.name, got, c.want)
		}
	}
	for _, c := range []struct {
		name string
		want []string
	}{
		{"layers.3.attention.wq.weight", []string{"layers.3", "attention", "wq"}},
		{"fc.weight", []string{"fc"}},
		{"weight", nil},
		{"0.weight", []string{"0"}},
		{"blocks.1.2.conv.bias", []string{"blocks.1.2", "conv"}},
	} {
		if got := formats.WeightScope(c.name); !slices.Equal(got, c.want) {
			t.Errorf("WeightScope(%q) = %q, want %q", c.name, got, c.want)
		}
	}
}
