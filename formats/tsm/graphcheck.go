package tsm

import (
	"fmt"
	"strings"

	"tensorscope/formats"
)

// checkGraph verifies that every node index is in range and that no node
// depends on itself, without recursion, so that a corrupt or hostile file
// cannot exhaust the stack. Offsets in the errors are meaningful only when
// decoded is true.
func checkGraph(m *Module, decoded bool) error {
	n := len(m.Nodes)
	at := func(off int64) int64 {
		if decoded {
			return off
		}
		return -1
	}
	for k, idx := range m.Inputs {
		if idx < 0 || idx >= n {
			return formats.Errorf(at(m.InputsOffset+4+4*int64(k)), "module input %d names node %d, but there are %d nodes", k, idx, n)
		}
	}
	for k, idx := range m.Outputs {
		if idx < 0 || idx >= n {
			return formats.Errorf(at(m.OutputsOffset+4+4*int64(k)), "module output %d names node %d, but there are %d nodes", k, idx, n)
		}
	}
	for i := range m.Nodes {
		for k, idx := range m.Nodes[i].Inputs {
			if idx < 0 || idx >= n {
				return formats.Errorf(at(m.Nodes[i].InputsOffset+4+4*int64(k)), "node %d input %d names node %d, but there are %d nodes", i, k, idx, n)
			}
		}
	}

	// Depth-first search with an explicit stack; state 1 = on the current
	// path, 2 = finished. Meeting a node on the current path closes a cycle.
	const (
		unseen = iota
		onPath
		done
	)
	state := make([]uint8, n)
	type frame struct{ node, next int }
	var stack []frame
	for root := range m.Nodes {
		if state[root] != unseen {
			continue
		}
		state[root] = onPath
		stack = append(stack[:0], frame{root, 0})
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			ins := m.Nodes[top.node].Inputs
			if top.next == len(ins) {
				state[top.node] = done
				stack = stack[:len(stack)-1]
				continue
			}
			k := top.next
			top.next++
			v := ins[k]
			switch state[v] {
			case unseen:
				state[v] = onPath
				stack = append(stack, frame{v, 0})
			case onPath:
				if v == top.node {
					return formats.Errorf(at(m.Nodes[v].InputsOffset+4+4*int64(k)),
						"node %d input %d names the node itself: a cycle", v, k)
				}
				// The stack from v up to top is a chain where each node takes
				// the next as input, and top takes v: the cycle.
				first := len(stack) - 1
				for stack[first].node != v {
					first--
				}
				var path []string
				for _, f := range stack[first:] {
					path = append(path, fmt.Sprint(f.node))
				}
				path = append(path, fmt.Sprint(v))
				return formats.Errorf(at(m.Nodes[top.node].InputsOffset+4+4*int64(k)),
					"node %d input %d names node %d, which depends on node %d: the nodes form a cycle (%s, each taking the next as input)",
					top.node, k, v, top.node, strings.Join(path, " → "))
			}
		}
	}
	return nil
}
