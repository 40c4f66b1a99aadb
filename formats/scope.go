package formats

import "strings"

// PathScope is the scope of a node named as a path: name's sep-separated
// components without the last one (the node's own name), empty ones
// dropped. "/model/layers.0/self_attn/q_proj/MatMul" with '/' gives
// [model layers.0 self_attn q_proj], which is what torch.onnx.export
// writes; a name without sep is at the top level (nil).
func PathScope(name string, sep byte) []string {
	i := strings.LastIndexByte(name, sep)
	if i < 0 {
		return nil
	}
	var out []string
	for _, c := range strings.Split(name[:i], string(sep)) {
		if c != "" {
			out = append(out, c)
		}
	}
	return out
}

// WeightScope is the scope the name of a node's first weight implies, for
// formats whose node names carry none: the name split on '.', without its
// last component, a decimal component joined to the one before it.
// "layers.3.attention.wq.weight" gives [layers.3 attention wq].
func WeightScope(weight string) []string {
	parts := strings.Split(weight, ".")
	if len(parts) < 2 {
		return nil
	}
	var out []string
	for _, p := range parts[:len(parts)-1] {
		switch {
		case p == "":
		case isDecimal(p) && len(out) > 0:
			out[len(out)-1] += "." + p
		default:
			out = append(out, p)
		}
	}
	return out
}

func isDecimal(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// FillWeightScopes gives every node of g (and of its subgraphs) that has
// no scope the one its first weight's name implies (WeightScope): the
// first input that comes from no operator but from a constant producer or
// from the file. Codecs whose names carry no hierarchy call it.
func FillWeightScopes(g *Graph) {
	if g == nil {
		return
	}
	for i := range g.Nodes {
		n := &g.Nodes[i]
		for _, sg := range n.Subgraphs {
			FillWeightScopes(sg.Graph)
		}
		if len(n.Meaning.Scope) > 0 {
			continue
		}
		for _, v := range n.Inputs {
			if v < 0 || v >= len(g.Values) {
				continue
			}
			val := &g.Values[v]
			p := val.Producer
			weight := val.Tensor >= 0 && (p < 0 || (p < len(g.Nodes) && g.Nodes[p].Kind == KindConst))
			if weight {
				n.Meaning.Scope = WeightScope(val.Name)
				break
			}
		}
	}
}
