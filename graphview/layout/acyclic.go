package layout

// breakCycles marks the edges to reverse so that the graph becomes acyclic:
// the back edges of a depth-first search that starts from the sources (in
// index order) and then from any vertex not yet reached. The search keeps its
// own stack, so a 50k-node chain costs heap, not goroutine stack.
func breakCycles(n int, from, to []int32, reversed []bool) {
	off, adj := csr(n, from)
	state := make([]uint8, n) // 0 unseen, 1 on the stack, 2 done
	cur := make([]int32, n)
	copy(cur, off[:n])
	indeg := make([]int32, n)
	for _, t := range to {
		indeg[t]++
	}
	var stack []int32
	visit := func(root int32) {
		state[root] = 1
		stack = append(stack[:0], root)
		for len(stack) > 0 {
			v := stack[len(stack)-1]
			if cur[v] == off[v+1] {
				state[v] = 2
				stack = stack[:len(stack)-1]
				continue
			}
			e := adj[cur[v]]
			cur[v]++
			w := to[e]
			switch state[w] {
			case 1:
				reversed[e] = true
			case 0:
				state[w] = 1
				stack = append(stack, w)
			}
		}
	}
	for v := 0; v < n; v++ {
		if indeg[v] == 0 && state[v] == 0 {
			visit(int32(v))
		}
	}
	for v := 0; v < n; v++ {
		if state[v] == 0 {
			visit(int32(v))
		}
	}
}
