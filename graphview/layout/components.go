package layout

// components splits the nodes into weakly connected components, ordered by
// their smallest node index. It returns, per component, its nodes and its
// edges (self-loops excluded), each in increasing index order.
func components(g *Graph) (nodes, edges [][]int32) {
	n := len(g.Nodes)
	parent := make([]int32, n)
	for i := range parent {
		parent[i] = int32(i)
	}
	find := func(x int32) int32 {
		for parent[x] != x {
			parent[x] = parent[parent[x]]
			x = parent[x]
		}
		return x
	}
	for _, e := range g.Edges {
		a, b := find(int32(e.From)), find(int32(e.To))
		if a == b {
			continue
		}
		if a < b { // the smaller index stays the root
			parent[b] = a
		} else {
			parent[a] = b
		}
	}
	comp := make([]int32, n)
	count := int32(0)
	for v := range comp {
		r := find(int32(v))
		if r == int32(v) {
			comp[v] = count
			count++
		} else {
			comp[v] = comp[r] // r < v: already numbered
		}
	}
	nodeCount := make([]int32, count)
	edgeCount := make([]int32, count)
	for _, c := range comp {
		nodeCount[c]++
	}
	for _, e := range g.Edges {
		if e.From != e.To {
			edgeCount[comp[e.From]]++
		}
	}
	// Carve every component's lists out of two shared arrays.
	allNodes := make([]int32, 0, n)
	allEdges := make([]int32, 0, len(g.Edges))
	nodes = make([][]int32, count)
	edges = make([][]int32, count)
	for c := range nodes {
		nodes[c] = allNodes[len(allNodes) : len(allNodes) : len(allNodes)+int(nodeCount[c])]
		allNodes = allNodes[:len(allNodes)+int(nodeCount[c])]
		edges[c] = allEdges[len(allEdges) : len(allEdges) : len(allEdges)+int(edgeCount[c])]
		allEdges = allEdges[:len(allEdges)+int(edgeCount[c])]
	}
	for v, c := range comp {
		nodes[c] = append(nodes[c], int32(v))
	}
	for i, e := range g.Edges {
		if e.From != e.To {
			c := comp[e.From]
			edges[c] = append(edges[c], int32(i))
		}
	}
	return nodes, edges
}
