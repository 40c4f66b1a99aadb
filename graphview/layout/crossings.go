package layout

import "slices"

// crossingCounter counts the crossings between adjacent layers exactly, in
// O(E log V) (Barth, Jünger, Mutzel: "Simple and efficient bilayer cross
// counting"), reusing its buffers between calls.
type crossingCounter struct {
	south []int32 // southern end positions, in order of northern end
	tree  []int32 // Fenwick tree over the southern layer
	nb    []int32
}

// total counts the crossings of the whole ordering.
func (c *crossingCounter) total(g *layered) int {
	sum := 0
	for l := 0; l+1 < g.layers; l++ {
		sum += c.between(g, l)
	}
	return sum
}

// between counts the crossings among the edges from layer l to layer l+1.
func (c *crossingCounter) between(g *layered, l int) int {
	c.south = c.south[:0]
	for _, v := range g.layerOf(l) {
		c.nb = c.nb[:0]
		for _, w := range g.downs(v) {
			c.nb = append(c.nb, g.pos[w])
		}
		if len(c.nb) > 1 {
			slices.Sort(c.nb)
		}
		c.south = append(c.south, c.nb...)
	}
	width := int(g.layerStart[l+2] - g.layerStart[l+1])
	if cap(c.tree) < width+1 {
		c.tree = make([]int32, width+1)
	}
	tree := c.tree[:width+1]
	clear(tree)
	crossings := 0
	for i, p := range c.south {
		// Edges seen so far whose southern end lies right of p cross this one.
		atMost := 0
		for j := int(p) + 1; j > 0; j -= j & -j {
			atMost += int(tree[j])
		}
		crossings += i - atMost
		for j := int(p) + 1; j <= width; j += j & -j {
			tree[j]++
		}
	}
	return crossings
}
