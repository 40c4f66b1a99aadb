package viewmodel

import (
	"fmt"
	"hash/maphash"
	"slices"
	"sort"
	"strings"

	"tensorscope/formats"
	"tensorscope/graphview"
)

// A large graph is drawn as a hierarchy: the scopes of its nodes
// (formats.Meaning.Scope) make nested groups, a collapsed group is one box
// and an expanded one a labelled frame round its children.
const (
	// FlatUpTo is the most nodes a graph may have and still open flat.
	FlatUpTo = 300
	// MaxOpeningBoxes is the most boxes a larger graph opens with: it
	// opens collapsed at the deepest scope level that shows at most these.
	MaxOpeningBoxes = 150
)

// Depth settings: DepthAuto opens as FlatUpTo and MaxOpeningBoxes say;
// DepthAll expands every group; N > 0 collapses the groups N scopes deep.
const (
	DepthAuto = 0
	DepthAll  = -1
)

// group is a scope: the nodes whose scope path starts with path.
type group struct {
	path     []string
	parent   int   // -1 at the top level
	children []int // child groups, in order of first node
	all      []int // flat nodes in it and its children, in flat order
	ops      []opCount
	params   int64
	sig      uint64 // structure: ops and internal edges, up to renumbering
	// twins is the number of siblings with the same structure, itself
	// included (1 when none); ref is the first of them.
	twins, ref int
}

type opCount struct {
	op   string
	n    int
	rank int // what the op does, most telling first (opRank)
}

// opRank orders a group's ops by what they tell of it: weighted layers
// first, then activations, normalisations and pooling, then the rest;
// shape plumbing last.
func opRank(c graphview.Category) int {
	switch c {
	case graphview.CategoryConvolution:
		return 0
	case graphview.CategoryActivation:
		return 1
	case graphview.CategoryNormalization, graphview.CategoryPooling, graphview.CategoryControlFlow:
		return 2
	case graphview.CategoryQuantization, graphview.CategoryTensor, graphview.CategoryOther:
		return 3
	case graphview.CategoryShape:
		return 4
	}
	return 5
}

func (g *group) name() string { return g.path[len(g.path)-1] }

// hierarchy is the groups of a flat graph.
type hierarchy struct {
	groups    []group
	nodeGroup []int // flat node → innermost group, -1 at the top level
	maxDepth  int
	byPath    map[string]int
}

func pathKey(path []string) string { return strings.Join(path, "\x00") }

func newHierarchy(m *GraphModel) *hierarchy {
	h := &hierarchy{nodeGroup: make([]int, len(m.nodeOf)), byPath: map[string]int{}}
	for f, id := range m.nodeOf {
		scope := m.g.Nodes[id].Meaning.Scope
		g := -1
		for d := 1; d <= len(scope); d++ {
			key := pathKey(scope[:d])
			c, ok := h.byPath[key]
			if !ok {
				c = len(h.groups)
				h.groups = append(h.groups, group{path: scope[:d:d], parent: g, twins: 1, ref: c})
				h.byPath[key] = c
				if g >= 0 {
					h.groups[g].children = append(h.groups[g].children, c)
				}
			}
			g = c
		}
		h.nodeGroup[f] = g
		h.maxDepth = max(h.maxDepth, len(scope))
		for ; g >= 0; g = h.groups[g].parent {
			h.groups[g].all = append(h.groups[g].all, f)
		}
	}
	h.summarise(m)
	h.findTwins(m)
	return h
}

// summarise counts each group's operators and parameters.
func (h *hierarchy) summarise(m *GraphModel) {
	params := make([]int64, len(m.nodeOf))
	for f, id := range m.nodeOf {
		for _, v := range m.folded[id] {
			// Parameters are the float tensors folded in: weights, not
			// the int64 shapes and indices a graph also holds as constants.
			if shape, dt := m.valueShape(v); m.g.Values[v].Tensor >= 0 && dt.IsFloat() {
				n := int64(1)
				for _, d := range shape {
					n *= int64(max(d, 0))
				}
				params[f] += n
			}
		}
	}
	for gi := range h.groups {
		g := &h.groups[gi]
		counts := map[string]int{}
		rank := map[string]int{}
		for _, f := range g.all {
			n := &m.flat.Nodes[f]
			counts[n.Title]++
			rank[n.Title] = opRank(n.Category)
			g.params += params[f]
		}
		for op, n := range counts {
			g.ops = append(g.ops, opCount{op, n, rank[op]})
		}
		sort.Slice(g.ops, func(i, j int) bool {
			if g.ops[i].rank != g.ops[j].rank {
				return g.ops[i].rank < g.ops[j].rank
			}
			if g.ops[i].n != g.ops[j].n {
				return g.ops[i].n > g.ops[j].n
			}
			return g.ops[i].op < g.ops[j].op
		})
	}
}

// findTwins gives every group a structural signature (its ops and internal
// edges, whatever the order: three rounds of Weisfeiler-Lehman label
// refinement) and marks siblings that share one.
func (h *hierarchy) findTwins(m *GraphModel) {
	n := len(m.nodeOf)
	in := make([][]int32, n)
	out := make([][]int32, n)
	for _, e := range m.flat.Edges {
		out[e.From] = append(out[e.From], int32(e.To))
		in[e.To] = append(in[e.To], int32(e.From))
	}
	seed := maphash.MakeSeed()
	opHash := make([]uint64, n)
	for f := range opHash {
		opHash[f] = maphash.String(seed, m.flat.Nodes[f].Title)
	}
	member := make([]int32, n) // flat node → group being signed + 1
	label := make([]uint64, n)
	next := make([]uint64, n)
	var buf []uint64
	for gi := range h.groups {
		g := &h.groups[gi]
		mark := int32(gi + 1)
		for _, f := range g.all {
			member[f] = mark
			label[f] = opHash[f]
		}
		edges := 0
		for round := 0; round < 3; round++ {
			for _, f := range g.all {
				var hsh maphash.Hash
				hsh.SetSeed(seed)
				writeUint(&hsh, label[f])
				for dir, adj := range [][]int32{in[f], out[f]} {
					buf = buf[:0]
					for _, u := range adj {
						if member[u] == mark {
							buf = append(buf, label[u])
						}
					}
					if round == 0 && dir == 1 {
						edges += len(buf)
					}
					slices.Sort(buf)
					writeUint(&hsh, uint64(len(buf)))
					for _, l := range buf {
						writeUint(&hsh, l)
					}
				}
				next[f] = hsh.Sum64()
			}
			for _, f := range g.all {
				label[f] = next[f]
			}
		}
		buf = buf[:0]
		for _, f := range g.all {
			buf = append(buf, label[f])
		}
		slices.Sort(buf)
		var hsh maphash.Hash
		hsh.SetSeed(seed)
		writeUint(&hsh, uint64(edges))
		for _, l := range buf {
			writeUint(&hsh, l)
		}
		g.sig = hsh.Sum64()
	}
	siblings := func(parent int) []int {
		if parent >= 0 {
			return h.groups[parent].children
		}
		var top []int
		for gi := range h.groups {
			if h.groups[gi].parent < 0 {
				top = append(top, gi)
			}
		}
		return top
	}
	var parents []int
	parents = append(parents, -1)
	for gi := range h.groups {
		parents = append(parents, gi)
	}
	for _, p := range parents {
		bySig := map[uint64][]int{}
		var order []uint64
		for _, c := range siblings(p) {
			s := h.groups[c].sig
			if _, ok := bySig[s]; !ok {
				order = append(order, s)
			}
			bySig[s] = append(bySig[s], c)
		}
		for _, s := range order {
			same := bySig[s]
			for _, c := range same {
				h.groups[c].twins, h.groups[c].ref = len(same), same[0]
			}
		}
	}
}

func writeUint(h *maphash.Hash, v uint64) {
	var b [8]byte
	for i := range b {
		b[i] = byte(v >> (8 * i))
	}
	h.Write(b[:])
}

// opsText spells a group's operator counts, the most telling first (see
// opRank), then the most frequent: "MatMul×7, Softmax, Add×2 …"; at most
// most of them (all when most < 0).
func (g *group) opsText(most int) string {
	var parts []string
	for i, c := range g.ops {
		if i == most {
			return strings.Join(parts, ", ") + " …"
		}
		if c.n > 1 {
			parts = append(parts, fmt.Sprintf("%s×%d", c.op, c.n))
		} else {
			parts = append(parts, c.op)
		}
	}
	return strings.Join(parts, ", ")
}

// paramsText spells a parameter count: "1.2M params".
func paramsText(n int64) string {
	switch {
	case n >= 1e9:
		return fmt.Sprintf("%.1fB params", float64(n)/1e9)
	case n >= 1e6:
		return fmt.Sprintf("%.1fM params", float64(n)/1e6)
	case n >= 1e4:
		return fmt.Sprintf("%.1fk params", float64(n)/1e3)
	case n == 1:
		return "1 param"
	}
	return fmt.Sprintf("%d params", n)
}

// visible is the graph drawn for one expansion state.
type visible struct {
	graph      *graphview.Graph
	items      []visItem // view node → what it draws
	rep        []int     // flat node → the view node that draws it
	edgeValues [][]int   // view edge → the values it carries
	frames     []int     // frame → its (expanded) group
}

// visItem is a view node: a flat node (group < 0) or a collapsed group.
type visItem struct{ flat, group int }

// SetDepth collapses the groups depth scopes deep and expands those above
// (DepthAll expands all; DepthAuto chooses as FlatUpTo and
// MaxOpeningBoxes say), forgetting groups expanded or collapsed one by one.
func (m *GraphModel) SetDepth(depth int) {
	if depth == DepthAuto {
		depth = m.openingDepth()
	}
	if depth > m.hier.maxDepth {
		depth = DepthAll
	}
	m.depth = depth
	h := m.hier
	m.open = make([]bool, len(h.groups))
	for gi := range h.groups {
		m.open[gi] = depth == DepthAll || len(h.groups[gi].path) < depth
	}
	m.vis = nil
}

// Depth is the scope level the groups were last collapsed at (SetDepth);
// DepthAll when all were expanded.
func (m *GraphModel) Depth() int { return m.depth }

// MaxDepth is the deepest scope level of the graph (0 when it has no
// groups).
func (m *GraphModel) MaxDepth() int { return m.hier.maxDepth }

// openingDepth is the depth a graph opens at: DepthAll for FlatUpTo nodes
// or fewer (or a graph without scopes), else the deepest level that shows
// at most MaxOpeningBoxes boxes (level 1 if none does).
func (m *GraphModel) openingDepth() int {
	h := m.hier
	if len(m.nodeOf) <= FlatUpTo || h.maxDepth == 0 {
		return DepthAll
	}
	best := 1
	for d := 1; d <= h.maxDepth; d++ {
		if m.boxesAt(d) <= MaxOpeningBoxes {
			best = d
		}
	}
	return best
}

// boxesAt counts the boxes drawn with the groups d deep collapsed.
func (m *GraphModel) boxesAt(d int) int {
	h := m.hier
	boxes := 0
	for gi := range h.groups {
		if len(h.groups[gi].path) == d {
			boxes++
		}
	}
	for f := range m.nodeOf {
		if len(m.g.Nodes[m.nodeOf[f]].Meaning.Scope) < d {
			boxes++
		}
	}
	return boxes
}

// Expansion is the state of every group that differs from what the depth
// gives, by scope path ("model/layers.0" → true: expanded); for keeping
// across a reload (GraphSettings.Groups).
func (m *GraphModel) Expansion() map[string]bool {
	out := map[string]bool{}
	for gi, g := range m.hier.groups {
		base := m.depth == DepthAll || len(g.path) < m.depth
		if m.open[gi] != base {
			out[strings.Join(g.path, "/")] = m.open[gi]
		}
	}
	return out
}

// ApplyExpansion sets the groups named in e (by Expansion's paths)
// expanded or collapsed; names of groups the graph lacks are ignored.
func (m *GraphModel) ApplyExpansion(e map[string]bool) {
	for path, open := range e {
		if gi, ok := m.hier.byPath[pathKey(strings.Split(path, "/"))]; ok && m.open[gi] != open {
			m.open[gi] = open
			m.vis = nil
		}
	}
}

// Groups is the number of groups (scopes) of the graph.
func (m *GraphModel) Groups() int { return len(m.hier.groups) }

// GroupPath is group gi's scope path.
func (m *GraphModel) GroupPath(gi int) []string {
	if gi < 0 || gi >= len(m.hier.groups) {
		return nil
	}
	return m.hier.groups[gi].path
}

// GroupNamed is the group of scope path (joined by '/'), or -1.
func (m *GraphModel) GroupNamed(path string) int {
	if gi, ok := m.hier.byPath[pathKey(strings.Split(path, "/"))]; ok {
		return gi
	}
	return -1
}

// Expanded reports whether group gi is expanded.
func (m *GraphModel) Expanded(gi int) bool { return gi >= 0 && gi < len(m.open) && m.open[gi] }

// SetExpanded expands or collapses group gi; it reports whether that
// changed anything drawn.
func (m *GraphModel) SetExpanded(gi int, open bool) bool {
	if gi < 0 || gi >= len(m.open) || m.open[gi] == open {
		return false
	}
	m.open[gi] = open
	m.vis = nil
	return true
}

// ExpandAll expands every group; CollapseAll collapses every one, leaving
// the top-level groups as boxes.
func (m *GraphModel) ExpandAll()   { m.SetDepth(DepthAll) }
func (m *GraphModel) CollapseAll() { m.SetDepth(1) }

// Reveal expands every group that holds document node id, so that it is
// drawn as its own box; it reports whether anything changed.
func (m *GraphModel) Reveal(id int) bool {
	if id < 0 || id >= len(m.viewOf) || m.viewOf[id] < 0 {
		return false
	}
	changed := false
	for g := m.hier.nodeGroup[m.viewOf[id]]; g >= 0; g = m.hier.groups[g].parent {
		changed = m.SetExpanded(g, true) || changed
	}
	return changed
}

// ViewGroup is the group view node v draws collapsed, or -1 when v is a
// node.
func (m *GraphModel) ViewGroup(v int) int {
	vis := m.visibleGraph()
	if v < 0 || v >= len(vis.items) {
		return -1
	}
	return vis.items[v].group
}

// ViewOfGroup is the view node of group gi when it is drawn collapsed, or
// -1.
func (m *GraphModel) ViewOfGroup(gi int) int {
	vis := m.visibleGraph()
	for v, it := range vis.items {
		if it.group == gi {
			return v
		}
	}
	return -1
}

// FrameGroup is the group frame f of the view draws expanded.
func (m *GraphModel) FrameGroup(f int) int {
	vis := m.visibleGraph()
	if f < 0 || f >= len(vis.frames) {
		return -1
	}
	return vis.frames[f]
}

// Scopes is the scope path of document node id, or of the group view node
// v draws when id < 0: the breadcrumb of the selection.
func (m *GraphModel) Scopes(v int) []string {
	if id := m.DocNode(v); id >= 0 {
		return m.g.Nodes[id].Meaning.Scope
	}
	return m.GroupPath(m.ViewGroup(v))
}

// TwinCount is how many siblings of group gi (itself included) have its
// structure.
func (m *GraphModel) TwinCount(gi int) int {
	if gi < 0 || gi >= len(m.hier.groups) {
		return 0
	}
	return m.hier.groups[gi].twins
}

func (m *GraphModel) visibleGraph() *visible {
	if m.vis == nil {
		m.vis = m.buildVisible()
	}
	return m.vis
}

// buildVisible draws the flat graph with every collapsed group as a box:
// edges inside a box vanish, edges between a box and anything else merge
// into one per pair, and every group expanded in place gets a frame round
// its view nodes.
func (m *GraphModel) buildVisible() *visible {
	h := m.hier
	vis := &visible{graph: &graphview.Graph{}, rep: make([]int, len(m.nodeOf))}
	groupView := make([]int, len(h.groups))
	for i := range groupView {
		groupView[i] = -1
	}
	for f := range m.nodeOf {
		outer := -1
		for g := h.nodeGroup[f]; g >= 0; g = h.groups[g].parent {
			if !m.open[g] {
				outer = g
			}
		}
		if outer < 0 {
			vis.rep[f] = len(vis.items)
			vis.items = append(vis.items, visItem{flat: f, group: -1})
			vis.graph.Nodes = append(vis.graph.Nodes, m.flat.Nodes[f])
			continue
		}
		if groupView[outer] < 0 {
			groupView[outer] = len(vis.items)
			vis.items = append(vis.items, visItem{flat: -1, group: outer})
			vis.graph.Nodes = append(vis.graph.Nodes, m.groupBox(outer))
		}
		vis.rep[f] = groupView[outer]
	}
	merged := map[[2]int]int{}
	for e, fe := range m.flat.Edges {
		a, b := vis.rep[fe.From], vis.rep[fe.To]
		if a == b && vis.items[a].group >= 0 {
			continue
		}
		val := m.edgeValue[e]
		if vis.items[a].group < 0 && vis.items[b].group < 0 {
			vis.graph.Edges = append(vis.graph.Edges, graphview.Edge{From: a, To: b, Label: fe.Label})
			vis.edgeValues = append(vis.edgeValues, []int{val})
			continue
		}
		k, ok := merged[[2]int{a, b}]
		if !ok {
			k = len(vis.graph.Edges)
			merged[[2]int{a, b}] = k
			vis.graph.Edges = append(vis.graph.Edges, graphview.Edge{From: a, To: b})
			vis.edgeValues = append(vis.edgeValues, nil)
		}
		if !slices.Contains(vis.edgeValues[k], val) {
			vis.edgeValues[k] = append(vis.edgeValues[k], val)
		}
	}
	for k := range merged {
		e := merged[k]
		if vals := vis.edgeValues[e]; len(vals) > 1 {
			vis.graph.Edges[e].Label = fmt.Sprintf("%d tensors", len(vals))
		} else {
			vis.graph.Edges[e].Label = m.shapeLabel(vals[0])
		}
	}
	// Frames: every expanded group below the depth round the view nodes
	// inside it.
	frameOf := make([]int, len(h.groups))
	for i := range frameOf {
		frameOf[i] = -1
	}
	for v, it := range vis.items {
		g := -1
		if it.group >= 0 {
			g = h.groups[it.group].parent
		} else {
			g = h.nodeGroup[it.flat]
		}
		for ; g >= 0; g = h.groups[g].parent {
			if !m.framed(g) {
				continue
			}
			if frameOf[g] < 0 {
				frameOf[g] = len(vis.frames)
				vis.frames = append(vis.frames, g)
				vis.graph.Frames = append(vis.graph.Frames, graphview.Frame{
					Title: h.groups[g].name(), Depth: len(h.groups[g].path) - 1})
			}
			fr := &vis.graph.Frames[frameOf[g]]
			fr.Nodes = append(fr.Nodes, v)
		}
	}
	return vis
}

// framed reports whether expanded group g is drawn in a frame: those at
// or below the depth, which were expanded in place, are; those above it,
// open to show the depth, are not (a frame round a whole model tells
// nothing), nor any when all are expanded, which is the flat graph.
func (m *GraphModel) framed(g int) bool {
	return m.depth != DepthAll && len(m.hier.groups[g].path) >= m.depth
}

// groupBox is the box of a collapsed group: its name, its op counts, its
// parameter count, and its repetition among its siblings.
func (m *GraphModel) groupBox(gi int) graphview.Node {
	g := &m.hier.groups[gi]
	n := graphview.Node{Title: g.name(), Subtitle: g.opsText(3), Category: graphview.CategoryOther, Collapsed: true}
	n.Details = append(n.Details, plural(len(g.all), "node"))
	if g.params > 0 {
		n.Details = append(n.Details, paramsText(g.params))
	}
	if g.twins > 1 {
		n.Details = append(n.Details, fmt.Sprintf("×%d identical", g.twins))
	}
	return n
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// relName is a node's name as seen from inside group gi: its scope below
// the group's and its op ("mlp/Add").
func (m *GraphModel) relName(gi, f int) string {
	id := m.nodeOf[f]
	scope := m.g.Nodes[id].Meaning.Scope
	d := len(m.hier.groups[gi].path)
	rel := append(slices.Clone(scope[min(d, len(scope)):]), m.flat.Nodes[f].Title)
	return strings.Join(rel, "/")
}

// GroupProperties describes group gi: its path, size, operators and
// parameters, and how it compares with its siblings: the siblings of the
// same structure and where they differ (weight shapes, attributes), or,
// for a group unlike the many siblings that are alike, what it has that
// they lack and lacks that they have.
func (m *GraphModel) GroupProperties(gi int) []PropSection {
	if gi < 0 || gi >= len(m.hier.groups) {
		return nil
	}
	g := &m.hier.groups[gi]
	s := PropSection{Title: "Group", Rows: []PropRow{
		row("Scope", strings.Join(g.path, " › ")),
		row("Nodes", fmt.Sprint(len(g.all))),
	}}
	if g.params > 0 {
		s.Rows = append(s.Rows, row("Parameters", fmt.Sprintf("%d (%s)", g.params, paramsText(g.params))))
	}
	out := []PropSection{s}
	if r := m.repetition(gi); len(r.Rows) > 0 {
		out = append(out, r)
	}
	// The operators last: a layer's list is long.
	return append(out, PropSection{Title: "Operators", Rows: []PropRow{row("Counts", g.opsText(-1))}})
}

// maxDifferences bounds the differences listed between two groups.
const maxDifferences = 12

func (m *GraphModel) repetition(gi int) PropSection {
	h := m.hier
	g := &h.groups[gi]
	s := PropSection{Title: "Repeated block"}
	sib := m.siblings(gi)
	if g.twins > 1 {
		s.Rows = append(s.Rows, row("Identical", fmt.Sprintf("×%d: same ops and edges as %s", g.twins, m.twinNames(gi, sib))))
		if g.ref != gi {
			diffs := m.differences(g.ref, gi)
			if len(diffs) == 0 {
				s.Rows = append(s.Rows, row("Differences", "none from "+h.groups[g.ref].name()+" (weight shapes and attributes alike)"))
			}
			s.Rows = append(s.Rows, diffs...)
		}
		return s
	}
	// Unlike its siblings: compare with the largest set of twins among
	// them, when there is one.
	best := -1
	for _, c := range sib {
		if c != gi && h.groups[c].twins > 1 && (best < 0 || h.groups[c].twins > h.groups[best].twins) {
			best = c
		}
	}
	if best < 0 {
		return s
	}
	ref := h.groups[best].ref
	s.Rows = append(s.Rows, row("Unlike", fmt.Sprintf("its %d identical siblings (%s)", h.groups[best].twins, h.groups[ref].name())))
	count := func(gj int) map[string]int {
		c := map[string]int{}
		for _, f := range h.groups[gj].all {
			c[m.relName(gj, f)]++
		}
		return c
	}
	mine, theirs := count(gi), count(ref)
	var keys []string
	for k := range mine {
		keys = append(keys, k)
	}
	for k := range theirs {
		if _, ok := mine[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		if len(s.Rows) > maxDifferences {
			break
		}
		switch d := mine[k] - theirs[k]; {
		case d > 0:
			s.Rows = append(s.Rows, row("Extra", fmt.Sprintf("%s (%d more than %s)", k, d, h.groups[ref].name())))
		case d < 0:
			s.Rows = append(s.Rows, row("Missing", fmt.Sprintf("%s (%d fewer than %s)", k, -d, h.groups[ref].name())))
		}
	}
	if len(s.Rows) == 1 {
		s.Rows = append(s.Rows, row("Edges", "the same ops, joined differently"))
	}
	return s
}

func (m *GraphModel) siblings(gi int) []int {
	h := m.hier
	if p := h.groups[gi].parent; p >= 0 {
		return h.groups[p].children
	}
	var top []int
	for gj := range h.groups {
		if h.groups[gj].parent < 0 {
			top = append(top, gj)
		}
	}
	return top
}

// twinNames names the siblings alike to gi: "layers.0 … layers.31".
func (m *GraphModel) twinNames(gi int, sib []int) string {
	h := m.hier
	var names []string
	for _, c := range sib {
		if h.groups[c].ref == h.groups[gi].ref && c != gi {
			names = append(names, h.groups[c].name())
		}
	}
	if len(names) > 3 {
		return names[0] + " … " + names[len(names)-1]
	}
	return strings.Join(names, ", ")
}

// differences lists where group b differs from group a, which has the
// same structure: node by node in file order, the weight shapes and the
// attributes.
func (m *GraphModel) differences(a, b int) []PropRow {
	h := m.hier
	na, nb := h.groups[a].all, h.groups[b].all
	if len(na) != len(nb) {
		return nil
	}
	var out []PropRow
	for i := range na {
		if len(out) >= maxDifferences {
			out = append(out, row("…", "more differences not listed"))
			break
		}
		da, db := m.nodeOf[na[i]], m.nodeOf[nb[i]]
		where := m.relName(b, nb[i])
		wa, wb := m.weightShapes(da), m.weightShapes(db)
		if wa != wb {
			out = append(out, row(where, fmt.Sprintf("weights %s here, %s in %s", wb, wa, h.groups[a].name())))
		}
		aa, ab := attrText(&m.g.Nodes[da]), attrText(&m.g.Nodes[db])
		if aa != ab {
			out = append(out, row(where, fmt.Sprintf("attributes %s here, %s in %s", ab, aa, h.groups[a].name())))
		}
	}
	return out
}

func (m *GraphModel) weightShapes(id int) string {
	var parts []string
	for _, v := range m.folded[id] {
		shape, _ := m.valueShape(v)
		parts = append(parts, "["+joinDims(shape)+"]")
	}
	return strings.Join(parts, " ")
}

// attrText spells a node's attributes for comparison with another
// node's; the node's own name, which a tensor attribute's may include, is
// left out.
func attrText(n *formats.Node) string {
	var parts []string
	for _, a := range n.Attrs {
		parts = append(parts, fmt.Sprintf("%s=%v", a.Name, a.Value))
	}
	text := strings.Join(parts, " ")
	if n.Name != "" {
		text = strings.ReplaceAll(text, n.Name, "")
	}
	return text
}
