package onnxtest

import "google.golang.org/protobuf/encoding/protowire"

// NestedIfs returns a model whose graph holds an If node whose
// then_branch holds an If node… depth graphs deep. Each level's graph
// field is the last field of its messages, so the file is written outside
// in, after the sizes are computed inside out: linear time even for a
// depth of 100,000, where nesting Marshal calls would copy quadratically.
func NestedIfs(depth int) []byte {
	// Per level: GraphProto{node: NodeProto{op_type: "If", attribute:
	// AttributeProto{name: "then_branch", type: GRAPH, g: <next level>}}}.
	nodeHead := stringField(nil, 4, "If")
	attrHead := varintField(stringField(nil, 1, "then_branch"), 20, 5)
	inner := make([]int, depth+1) // inner[k]: size of the graph at level k
	prefixes := make([][]byte, depth)
	inner[depth] = 0 // the innermost graph is empty
	for k := depth - 1; k >= 0; k-- {
		attr := appendLenTag(append([]byte(nil), attrHead...), 6, inner[k+1])
		node := appendLenTag(append([]byte(nil), nodeHead...), 5, len(attr)+inner[k+1])
		graph := appendLenTag(nil, 1, len(node)+len(attr)+inner[k+1])
		prefixes[k] = append(append(graph, node...), attr...)
		inner[k] = len(prefixes[k]) + inner[k+1]
	}
	b := varintField(nil, 1, 8)
	b = appendLenTag(b, 7, inner[0])
	for _, p := range prefixes {
		b = append(b, p...)
	}
	return b
}

func appendLenTag(b []byte, num protowire.Number, n int) []byte {
	return protowire.AppendVarint(protowire.AppendTag(b, num, protowire.BytesType), uint64(n))
}
