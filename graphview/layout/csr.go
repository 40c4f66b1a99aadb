package layout

// csr builds compressed adjacency for vertices 0..n-1: off[v]..off[v+1]
// index adj, which holds the indices i with key[i] == v, in increasing order.
// With key = the edges' sources it lists each vertex's outgoing edges.
func csr(n int, key []int32) (off, adj []int32) {
	off = make([]int32, n+1)
	for _, v := range key {
		off[v+1]++
	}
	for v := 0; v < n; v++ {
		off[v+1] += off[v]
	}
	adj = make([]int32, len(key))
	fill := make([]int32, n)
	copy(fill, off[:n])
	for i, v := range key {
		adj[fill[v]] = int32(i)
		fill[v]++
	}
	return off, adj
}
