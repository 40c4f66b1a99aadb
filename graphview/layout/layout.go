package layout

import (
	"context"
	"math"
	"slices"
)

// Layout places g. It fails only on malformed input (an edge naming a node
// that does not exist, a negative or non-finite size); any graph shape,
// cycles and self-loops included, is laid out.
func Layout(g *Graph, opt Options) (*Result, error) {
	return LayoutContext(context.Background(), g, opt)
}

// LayoutContext is Layout that stops soon after ctx is cancelled (between
// components and between ordering sweeps) and returns ctx's error.
func LayoutContext(ctx context.Context, g *Graph, opt Options) (*Result, error) {
	if err := g.validate(); err != nil {
		return nil, err
	}
	r := &run{g: g, opt: opt.withDefaults(), ctx: ctx}
	return r.layout()
}

// cancelled is the context's error once it is done (nil while it is not,
// and for a nil context): the layout's stages check it between steps and
// return it.
func cancelled(ctx context.Context) error {
	if ctx == nil {
		return nil
	}
	return ctx.Err()
}

// run holds the layout of one graph while it is being computed. Coordinates
// are in the top-to-bottom frame until the end, when left-to-right layouts
// are transposed.
type run struct {
	g   *Graph
	opt Options
	ctx context.Context
	res *Result

	local []int32 // node index within its component

	pts        []Point // every route point, edge after edge
	routeStart []int32
	routeLen   []int32
	labels     []Point
	compIndex  []int32
}

// frameSize is the size of node v in the top-to-bottom frame.
func (r *run) frameSize(v int32) (w, h float64) {
	n := r.g.Nodes[v]
	if r.opt.Direction == LeftToRight {
		return n.Height, n.Width
	}
	return n.Width, n.Height
}

func (r *run) labelSize(e int32) (w, h float64) {
	ed := r.g.Edges[e]
	if r.opt.Direction == LeftToRight {
		return ed.LabelHeight, ed.LabelWidth
	}
	return ed.LabelWidth, ed.LabelHeight
}

func (r *run) layout() (*Result, error) {
	g := r.g
	n, m := len(g.Nodes), len(g.Edges)
	r.res = &Result{
		Nodes:     make([]Point, n),
		Boxes:     make([]Rect, n),
		Layer:     make([]int, n),
		Edges:     make([]Route, m),
		Direction: r.opt.Direction,
	}
	r.local = make([]int32, n)
	r.routeStart = make([]int32, m)
	r.routeLen = make([]int32, m)
	r.labels = make([]Point, m)

	compNodes, compEdges := components(g)
	r.res.Stats.Components = len(compNodes)
	boxes := make([]Rect, len(compNodes))
	for c := range compNodes {
		var err error
		if boxes[c], err = r.component(compNodes[c], compEdges[c]); err != nil {
			return nil, err
		}
	}
	if err := cancelled(r.ctx); err != nil {
		return nil, err
	}
	r.selfLoops()
	r.pack(compNodes, compEdges, boxes)
	if err := cancelled(r.ctx); err != nil {
		return nil, err
	}
	r.finish()
	return r.res, nil
}

// component lays out one component in the top-to-bottom frame and returns
// its bounding box (including routes and labels), or the context's error
// once it is cancelled.
func (r *run) component(nodes, edges []int32) (Rect, error) {
	if err := cancelled(r.ctx); err != nil {
		return Rect{}, err
	}
	res := r.res
	for i, v := range nodes {
		r.local[v] = int32(i)
	}
	n := len(nodes)
	if n == 1 {
		w, h := r.frameSize(nodes[0])
		res.Nodes[nodes[0]] = Point{w / 2, h / 2}
		res.Layer[nodes[0]] = 0
		res.Stats.Layers = max(res.Stats.Layers, 1)
		return Rect{Max: Point{w, h}}, nil
	}
	m := len(edges)
	from := make([]int32, m)
	to := make([]int32, m)
	for i, e := range edges {
		from[i] = r.local[r.g.Edges[e].From]
		to[i] = r.local[r.g.Edges[e].To]
	}
	reversed := make([]bool, m)
	breakCycles(n, from, to, reversed)
	if err := cancelled(r.ctx); err != nil {
		return Rect{}, err
	}
	for i := range from {
		if reversed[i] {
			from[i], to[i] = to[i], from[i]
			res.Stats.Reversed++
		}
	}
	layer, layers := assignLayers(n, from, to)
	if err := cancelled(r.ctx); err != nil {
		return Rect{}, err
	}
	res.Stats.Layers = max(res.Stats.Layers, layers)

	width := make([]float64, n)
	height := make([]float64, n)
	for i, v := range nodes {
		width[i], height[i] = r.frameSize(v)
		res.Layer[v] = int(layer[i])
	}
	// Parallel edges (same ends, same way round) share one lane: they
	// would be drawn on top of each other anyway, and a multigraph with
	// thousands of copies must not cost thousands of dummy chains.
	lane := make([]int32, m) // index into the layered graph's edges
	var uf, ut []int32
	first := make(map[uint64]int32, m)
	for i := range from {
		k := uint64(from[i])<<33 | uint64(to[i])<<1
		if reversed[i] {
			k |= 1
		}
		if j, ok := first[k]; ok {
			lane[i] = j
			continue
		}
		lane[i] = int32(len(uf))
		first[k] = lane[i]
		uf, ut = append(uf, from[i]), append(ut, to[i])
	}
	lg := newLayered(n, uf, ut, layer, layers, width, height)
	lg.ctx = r.ctx
	res.Stats.Dummies += lg.nv - n
	baseline, final, err := order(lg)
	if err != nil {
		return Rect{}, err
	}
	res.Stats.BaselineCrossings += baseline
	res.Stats.Crossings += final
	x, err := assignX(lg, r.opt.NodeSep, r.opt.EdgeSep)
	if err != nil {
		return Rect{}, err
	}

	// Layer bands: each as tall as its tallest node; gaps fit edge labels.
	bandH := make([]float64, layers)
	for i := 0; i < n; i++ {
		bandH[layer[i]] = max(bandH[layer[i]], height[i])
	}
	gap := make([]float64, layers)
	for l := range gap {
		gap[l] = r.opt.RankSep
	}
	for i, e := range edges {
		if _, lh := r.labelSize(e); lh > 0 {
			l := layer[from[i]]
			if reversed[i] {
				l = layer[to[i]] - 1
			}
			gap[l] = max(gap[l], lh+LabelGap*2)
		}
	}
	top := make([]float64, layers)
	for l := 1; l < layers; l++ {
		top[l] = top[l-1] + bandH[l-1] + gap[l-1]
	}
	centre := func(v int32) Point {
		l := lg.layer[v]
		return Point{x[v], top[l] + bandH[l]/2}
	}
	for i, v := range nodes {
		res.Nodes[v] = centre(int32(i))
	}

	lo, hi := math.Inf(1), math.Inf(-1)
	for v := 0; v < lg.nv; v++ {
		lo = min(lo, x[v]-lg.width[v]/2)
		hi = max(hi, x[v]+lg.width[v]/2)
	}
	detours := 0
	laneEdge := make([]int32, len(uf)) // the first edge of each lane, routed
	for i := range laneEdge {
		laneEdge[i] = -1
	}
	for i, e := range edges {
		if i%4096 == 4095 {
			if err := cancelled(r.ctx); err != nil {
				return Rect{}, err
			}
		}
		start := int32(len(r.pts))
		r.routeStart[e] = start
		a, b := from[i], to[i]
		ca, cb := centre(a), centre(b)
		u := lane[i]
		switch {
		case laneEdge[u] >= 0: // a parallel edge: the same route again
			f := edges[laneEdge[u]]
			r.pts = append(r.pts, r.pts[r.routeStart[f]:r.routeStart[f]+r.routeLen[f]]...)
			if res.Edges[f].Detour {
				res.Edges[e].Detour = true
				res.Stats.Detours++
			}
			if reversed[i] { // undo the copy's turn; it is turned below
				route := r.pts[start:]
				for p, q := 0, len(route)-1; p < q; p, q = p+1, q-1 {
					route[p], route[q] = route[q], route[p]
				}
			}
		case lg.detour[u]:
			res.Edges[e].Detour = true
			res.Stats.Detours++
			lane := hi + r.opt.EdgeSep*float64(detours+1)
			frac := 0.25 + 0.5*math.Mod(float64(detours)*0.618034, 1)
			detours++
			la, lb := layer[a], layer[b]
			ya := top[la] + bandH[la] + gap[la]*frac
			yb := top[lb] - gap[lb-1]*(1-frac)
			r.pts = append(r.pts,
				Point{ca.X, ca.Y + height[a]/2}, Point{ca.X, ya}, Point{lane, ya},
				Point{lane, yb}, Point{cb.X, yb}, Point{cb.X, cb.Y - height[b]/2})
		default:
			// Leave the source through its bottom and run straight down to
			// the bottom of its layer band, cross the gap, pass every layer
			// in between on the dummy's own column, and enter the target the
			// same way: slanted segments only ever lie in the gaps between
			// bands, where there are no boxes.
			la, lb := layer[a], layer[b]
			r.pts = append(r.pts, Point{}, Point{}) // source exit, band bottom
			for d := lg.dummyStart[u]; d < lg.dummyStart[u]+lg.span[u]-1; d++ {
				l := lg.layer[d]
				r.pts = append(r.pts, Point{x[d], top[l]})
				if bandH[l] > 0 {
					r.pts = append(r.pts, Point{x[d], top[l] + bandH[l]})
				}
			}
			r.pts = append(r.pts, Point{}, Point{}) // band top, target entry
			route := r.pts[start:]
			k := len(route)
			next, prev := cb, ca
			if k > 4 {
				next, prev = route[2], route[k-3]
			}
			ex := exitX(ca, width[a]/2, height[a]/2, next)
			route[0] = Point{ex, ca.Y + height[a]/2}
			route[1] = Point{ex, top[la] + bandH[la]}
			ix := exitX(cb, width[b]/2, height[b]/2, prev)
			route[k-2] = Point{ix, top[lb]}
			route[k-1] = Point{ix, cb.Y - height[b]/2}
			r.pts = r.pts[:int(start)+len(slices.Compact(route))]
		}
		if laneEdge[u] < 0 {
			laneEdge[u] = int32(i)
		}
		route := r.pts[start:]
		r.routeLen[e] = int32(len(route))
		if reversed[i] {
			res.Edges[e].Reversed = true
			for p, q := 0, len(route)-1; p < q; p, q = p+1, q-1 {
				route[p], route[q] = route[q], route[p]
			}
		}
		if lw, lh := r.labelSize(e); lw > 0 || lh > 0 {
			// In the gap next to the original source: below it normally,
			// above it when the edge was turned round.
			y := top[layer[a]] + bandH[layer[a]] + gap[layer[a]]/2
			if reversed[i] {
				y = top[layer[b]] - gap[layer[b]-1]/2
			}
			r.labels[e] = Point{xAt(route, y) + LabelGap, y - lh/2}
		}
	}
	if detours > 0 {
		hi += r.opt.EdgeSep * float64(detours+1)
	}
	box := Rect{Point{lo, 0}, Point{hi, top[layers-1] + bandH[layers-1]}}
	for _, e := range edges {
		for _, p := range r.pts[r.routeStart[e] : r.routeStart[e]+r.routeLen[e]] {
			box = box.add(p)
		}
		if lw, lh := r.labelSize(e); lw > 0 || lh > 0 {
			box = box.add(r.labels[e]).add(Point{r.labels[e].X + lw, r.labels[e].Y + lh})
		}
	}
	return box, nil
}

// LabelGap is the space between an edge and its label (the label sits that
// far right of the edge, or below it left to right), and around labels in
// a gap between layers.
const LabelGap = 4

// selfLoopSize is how far a self-loop reaches out of its box.
const selfLoopSize = 10

// selfLoops routes every self-loop as a small loop round the right-hand
// side of its box (in the top-to-bottom frame): out of the bottom, up the
// side, into the top.
func (r *run) selfLoops() {
	for e, ed := range r.g.Edges {
		if ed.From != ed.To {
			continue
		}
		r.res.Stats.SelfLoops++
		r.res.Edges[e].SelfLoop = true
		c := r.res.Nodes[ed.From]
		hw, hh := r.frameSize(int32(ed.From))
		hw, hh = hw/2, hh/2
		a := c.X + hw/2
		s := float64(selfLoopSize)
		r.routeStart[e] = int32(len(r.pts))
		r.pts = append(r.pts,
			Point{a, c.Y + hh}, Point{a, c.Y + hh + s}, Point{c.X + hw + s, c.Y + hh + s},
			Point{c.X + hw + s, c.Y - hh - s}, Point{a, c.Y - hh - s}, Point{a, c.Y - hh})
		r.routeLen[e] = 6
		_, lh := r.labelSize(int32(e))
		r.labels[e] = Point{c.X + hw + s + LabelGap, c.Y - lh/2}
	}
}

// pack places the components in rows, left to right in index order, each
// row as wide as the widest component or the side of a square of the total
// area, whichever is larger; then moves everything into place.
func (r *run) pack(nodes, edges [][]int32, boxes []Rect) {
	// Self-loops enlarge their component's box.
	for e, ed := range r.g.Edges {
		if ed.From != ed.To {
			continue
		}
		c := r.compOf(nodes, ed.From)
		for _, p := range r.pts[r.routeStart[e] : r.routeStart[e]+r.routeLen[e]] {
			boxes[c] = boxes[c].add(p)
		}
		lw, lh := r.labelSize(int32(e))
		if lw > 0 || lh > 0 {
			boxes[c] = boxes[c].add(Point{r.labels[e].X + lw, r.labels[e].Y + lh})
		}
	}
	sep := r.opt.ComponentSep
	area, widest := 0.0, 0.0
	for _, b := range boxes {
		area += (b.Max.X - b.Min.X + sep) * (b.Max.Y - b.Min.Y + sep)
		widest = max(widest, b.Max.X-b.Min.X)
	}
	limit := max(widest, math.Sqrt(area))
	offsets := make([]Point, len(boxes))
	x, y, rowH := 0.0, 0.0, 0.0
	for c, b := range boxes {
		w, h := b.Max.X-b.Min.X, b.Max.Y-b.Min.Y
		if x > 0 && x+w > limit {
			x, y, rowH = 0, y+rowH+sep, 0
		}
		offsets[c] = Point{x - b.Min.X, y - b.Min.Y}
		r.res.Width = max(r.res.Width, x+w)
		r.res.Height = max(r.res.Height, y+h)
		x += w + sep
		rowH = max(rowH, h)
	}
	for c := range boxes {
		d := offsets[c]
		for _, v := range nodes[c] {
			r.res.Nodes[v] = r.res.Nodes[v].add(d)
		}
	}
	for e, ed := range r.g.Edges {
		c := r.compOf(nodes, ed.From)
		d := offsets[c]
		for i := r.routeStart[e]; i < r.routeStart[e]+r.routeLen[e]; i++ {
			r.pts[i] = r.pts[i].add(d)
		}
		r.labels[e] = r.labels[e].add(d)
	}
}

// compOf returns the component of node v.
func (r *run) compOf(nodes [][]int32, v int) int {
	if r.compIndex == nil {
		r.compIndex = make([]int32, len(r.g.Nodes))
		for c, ns := range nodes {
			for _, u := range ns {
				r.compIndex[u] = int32(c)
			}
		}
	}
	return int(r.compIndex[v])
}

// finish turns frame coordinates into the result: transposed for
// left-to-right layouts, boxes and route slices filled in.
func (r *run) finish() {
	res := r.res
	lr := r.opt.Direction == LeftToRight
	t := func(p Point) Point {
		if lr {
			return Point{p.Y, p.X}
		}
		return p
	}
	for v := range res.Nodes {
		c := t(res.Nodes[v])
		res.Nodes[v] = c
		n := r.g.Nodes[v]
		res.Boxes[v] = Rect{Point{c.X - n.Width/2, c.Y - n.Height/2}, Point{c.X + n.Width/2, c.Y + n.Height/2}}
	}
	for i := range r.pts {
		r.pts[i] = t(r.pts[i])
	}
	for e := range res.Edges {
		s, l := r.routeStart[e], r.routeLen[e]
		res.Edges[e].Points = r.pts[s : s+l : s+l]
		res.Edges[e].Label = t(r.labels[e])
	}
	if lr {
		res.Width, res.Height = res.Height, res.Width
	}
}
