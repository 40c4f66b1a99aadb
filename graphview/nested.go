package graphview

import (
	"context"
	"sort"

	"tensorscope/graphview/layout"
)

// A graph with frames (expanded groups) is laid out block by block: the
// inside of each frame alone, innermost first, and then the frame as one
// box of that size in the block round it. So a frame's room is reserved:
// no box of another group can land inside it, frames nest without
// overlapping, and expanding a group changes the layout round it only by
// that one box growing (the rest keeps its layers and its order).
//
// An edge that leaves a frame runs inside it to a port at the frame's last
// layer, and an edge that enters one from a port at its first layer; the
// port is a point of its own layer, so the short link from the frame's
// border to it crosses no box. The route drawn is the pieces joined.

// portSize is the size of a frame's in and out ports.
const portSize = 1

type block struct {
	frame int // -1 for the top
	g     layout.Graph
	// item → node (≥ 0) or frame (-2-f), and the ports
	items      []int
	in, out    int // port items, -1 when none
	structural []bool
	res        *layout.Result
	offset     layout.Point // of its content in the whole drawing
}

// edgePiece is one block edge that carries part of a graph edge; out: it
// ends at its frame's out port (the edge leaves the frame).
type edgePiece struct {
	block, edge int
	out         bool
}

// layoutNested lays out g block by block (see above); the frames' rects
// (padding included) are returned beside the result, in g.Frames order.
func layoutNested(ctx context.Context, g *Graph, in *layout.Graph, opt layout.Options) (*layout.Result, []layout.Rect, error) {
	nf := len(g.Frames)
	// Frames holding each node, outermost first.
	order := make([]int, nf)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return g.Frames[order[a]].Depth < g.Frames[order[b]].Depth })
	chains := make([][]int, len(g.Nodes))
	for _, f := range order {
		for _, v := range g.Frames[f].Nodes {
			if v >= 0 && v < len(g.Nodes) && (len(chains[v]) == 0 || chains[v][len(chains[v])-1] != f) {
				chains[v] = append(chains[v], f)
			}
		}
	}
	// A frame's parent: the frame before it in the chain of one of its
	// nodes. Frames without nodes are not drawn.
	parent := make([]int, nf)
	used := make([]bool, nf)
	for f := range parent {
		parent[f] = -1
	}
	for v := range chains {
		for k, f := range chains[v] {
			used[f] = true
			if k > 0 {
				parent[f] = chains[v][k-1]
			}
		}
	}
	blocks := make([]block, nf+1) // block 0 is the top, block f+1 frame f's inside
	for b := range blocks {
		blocks[b] = block{frame: b - 1, in: -1, out: -1}
	}
	nodeItem := make([]int, len(g.Nodes))
	frameItem := make([]int, nf)
	add := func(b, ref int, w, h float64) int {
		bl := &blocks[b]
		bl.items = append(bl.items, ref)
		bl.g.Nodes = append(bl.g.Nodes, layout.Node{Width: w, Height: h})
		return len(bl.items) - 1
	}
	for v := range g.Nodes {
		b := 0
		if c := chains[v]; len(c) > 0 {
			b = c[len(c)-1] + 1
		}
		nodeItem[v] = add(b, v, in.Nodes[v].Width, in.Nodes[v].Height)
	}
	for f := range frameItem {
		frameItem[f] = -1
		if used[f] {
			frameItem[f] = add(parent[f]+1, -2-f, 0, 0) // sized once its inside is laid out
		}
	}
	edge := func(b, from, to int, e layout.Edge, structural bool) int {
		bl := &blocks[b]
		e.From, e.To = from, to
		bl.g.Edges = append(bl.g.Edges, e)
		bl.structural = append(bl.structural, structural)
		return len(bl.g.Edges) - 1
	}
	port := func(f int, out bool) int {
		bl := &blocks[f+1]
		p := &bl.in
		if out {
			p = &bl.out
		}
		if *p < 0 {
			*p = add(f+1, -1, portSize, portSize)
		}
		return *p
	}
	pieces := make([][]edgePiece, len(g.Edges))
	for i, e := range g.Edges {
		cu, cv := chains[e.From], chains[e.To]
		k := 0
		for k < len(cu) && k < len(cv) && cu[k] == cv[k] {
			k++
		}
		labelled := in.Edges[i]
		plain := layout.Edge{}
		piece := func(b, from, to int, out bool) {
			pieces[i] = append(pieces[i], edgePiece{b, edge(b, from, to, labelled, false), out})
			labelled = plain // the label goes beside the first piece, below the source
		}
		// Up from the source through the frames it leaves.
		from := nodeItem[e.From]
		for j := len(cu) - 1; j >= k; j-- {
			piece(cu[j]+1, from, port(cu[j], true), true)
			from = frameItem[cu[j]]
		}
		// Across the innermost block holding both.
		l := 0
		if k > 0 {
			l = cu[k-1] + 1
		}
		to := nodeItem[e.To]
		if k < len(cv) {
			to = frameItem[cv[k]]
		}
		piece(l, from, to, false)
		// Down into the frames the target lies in.
		for j := k; j < len(cv); j++ {
			to := nodeItem[e.To]
			if j+1 < len(cv) {
				to = frameItem[cv[j+1]]
			}
			piece(cv[j]+1, port(cv[j], false), to, false)
		}
	}
	// Ports lead and close their frames: the in port feeds every item
	// nothing else feeds, the out port drains every item that feeds
	// nothing, so the layers put them first and last.
	for b := range blocks {
		bl := &blocks[b]
		if bl.in < 0 && bl.out < 0 {
			continue
		}
		hasIn := make([]bool, len(bl.items))
		hasOut := make([]bool, len(bl.items))
		for _, e := range bl.g.Edges {
			hasOut[e.From], hasIn[e.To] = true, true
		}
		for it := range bl.items {
			if it == bl.in || it == bl.out {
				continue
			}
			if bl.in >= 0 && !hasIn[it] {
				edge(b, bl.in, it, layout.Edge{}, true)
			}
			if bl.out >= 0 && !hasOut[it] {
				edge(b, it, bl.out, layout.Edge{}, true)
			}
		}
	}
	// Inside out: a frame's box is its inside's size, padded.
	var stats layout.Stats
	run := func(b int) error {
		bl := &blocks[b]
		res, err := layout.LayoutContext(ctx, &bl.g, opt)
		if err != nil {
			return err
		}
		bl.res = res
		stats.Components += res.Stats.Components
		stats.Layers = max(stats.Layers, res.Stats.Layers)
		stats.Reversed += res.Stats.Reversed
		stats.SelfLoops += res.Stats.SelfLoops
		stats.Dummies += res.Stats.Dummies
		stats.Detours += res.Stats.Detours
		stats.Crossings += res.Stats.Crossings
		if f := bl.frame; f >= 0 && frameItem[f] >= 0 {
			pb := &blocks[parent[f]+1]
			pb.g.Nodes[frameItem[f]] = layout.Node{Width: res.Width + 2*framePad, Height: res.Height + 2*framePad}
		}
		return nil
	}
	for i := len(order) - 1; i >= 0; i-- {
		if used[order[i]] {
			if err := run(order[i] + 1); err != nil {
				return nil, nil, err
			}
		}
	}
	if err := run(0); err != nil {
		return nil, nil, err
	}
	// Outside in: each frame's inside placed in its box.
	// A frame's title rises above its border: room for it above a frame
	// in the first layer.
	top := 0.0
	for f := range nf {
		if used[f] && parent[f] < 0 {
			top = max(top, frameTitleSize*lineHeight/2-blocks[0].res.Boxes[frameItem[f]].Min.Y)
		}
	}
	blocks[0].offset = layout.Point{X: 0, Y: top}
	rects := make([]layout.Rect, nf)
	for _, f := range order {
		if !used[f] {
			continue
		}
		pb := &blocks[parent[f]+1]
		r := shifted(pb.res.Boxes[frameItem[f]], pb.offset)
		rects[f] = r
		blocks[f+1].offset = layout.Point{X: r.Min.X + framePad, Y: r.Min.Y + framePad}
	}
	out := &layout.Result{
		Nodes: make([]layout.Point, len(g.Nodes)), Boxes: make([]layout.Rect, len(g.Nodes)), Layer: make([]int, len(g.Nodes)),
		Edges: make([]layout.Route, len(g.Edges)), Width: blocks[0].res.Width, Height: blocks[0].res.Height + 2*top,
		Direction: opt.Direction, Stats: stats,
	}
	for v := range g.Nodes {
		b := 0
		if c := chains[v]; len(c) > 0 {
			b = c[len(c)-1] + 1
		}
		bl := &blocks[b]
		it := nodeItem[v]
		out.Boxes[v] = shifted(bl.res.Boxes[it], bl.offset)
		out.Nodes[v] = layout.Point{X: bl.res.Nodes[it].X + bl.offset.X, Y: bl.res.Nodes[it].Y + bl.offset.Y}
		out.Layer[v] = bl.res.Layer[it]
	}
	for i := range g.Edges {
		r := &out.Edges[i]
		for k, p := range pieces[i] {
			bl := &blocks[p.block]
			src := bl.res.Edges[p.edge]
			if k == 0 {
				r.Label = layout.Point{X: src.Label.X + bl.offset.X, Y: src.Label.Y + bl.offset.Y}
				r.SelfLoop = src.SelfLoop
			}
			r.Reversed = r.Reversed || src.Reversed
			r.Detour = r.Detour || src.Detour
			if k > 0 && len(r.Points) > 0 && len(src.Points) > 0 {
				// The link between a frame's border and its port turns
				// once, beside the frame's title rather than across it:
				// along the flow first into a frame, across it first out
				// of one.
				a := r.Points[len(r.Points)-1]
				b := layout.Point{X: src.Points[0].X + bl.offset.X, Y: src.Points[0].Y + bl.offset.Y}
				alongFirst := !pieces[i][k-1].out
				if opt.Direction == layout.LeftToRight {
					alongFirst = !alongFirst
				}
				c := layout.Point{X: b.X, Y: a.Y}
				if alongFirst {
					c = layout.Point{X: a.X, Y: b.Y}
				}
				if c != a && c != b {
					r.Points = append(r.Points, c)
				}
			}
			for _, q := range src.Points {
				q = layout.Point{X: q.X + bl.offset.X, Y: q.Y + bl.offset.Y}
				if n := len(r.Points); n > 0 && r.Points[n-1] == q {
					continue
				}
				r.Points = append(r.Points, q)
			}
		}
	}
	return out, rects, nil
}

func shifted(r layout.Rect, by layout.Point) layout.Rect {
	return layout.Rect{Min: layout.Point{X: r.Min.X + by.X, Y: r.Min.Y + by.Y}, Max: layout.Point{X: r.Max.X + by.X, Y: r.Max.Y + by.Y}}
}
