package viewmodel

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"tensorscope/formats"
	"tensorscope/graphview"
	"tensorscope/viewmodel/summary"
)

// GraphSettings are the graph view's choices as one value: what the Graph
// pane's controls, the render command's flags and the compare view set,
// each through a setter that checks it. Start from DefaultGraphSettings.
type GraphSettings struct {
	Direction     graphview.Direction
	ShowConstants bool     // draw constant producers as nodes instead of folding them
	Selected      int      // the selected node's document id (formats.Graph index), -1 for none
	Viewport      Viewport // what part of the graph is in view
	// Depth is the scope level whose groups are drawn collapsed: DepthAuto
	// (the opening rule: flat up to FlatUpTo nodes, else the deepest level
	// of at most MaxOpeningBoxes boxes), DepthAll (flat) or N ≥ 1.
	Depth int
	// Groups are the groups expanded (true) or collapsed (false) one by
	// one since, by scope path ("model/layers.3"); see
	// GraphModel.Expansion. Never changed in place: setters replace it.
	Groups map[string]bool
	// ColourBy is the "Colour by" choice, an index into GraphColourNames:
	// 0 the category, else the metric ColourBy−1 of each node's weights.
	ColourBy int
}

// SetColourBy chooses what colours the nodes, by one of GraphColourNames
// ("category", "std", "absmax", …), in any case.
func (s *GraphSettings) SetColourBy(name string) error {
	key := strings.ToLower(strings.TrimSpace(name))
	if i := slices.Index(GraphColourNames, key); i >= 0 {
		s.ColourBy = i
		return nil
	}
	return fmt.Errorf("unknown colouring %q (choose %s)", name, strings.Join(GraphColourNames, ", "))
}

// ColourMetric is the metric the nodes are coloured by, or false when
// they are coloured by category.
func (s GraphSettings) ColourMetric() (summary.Metric, bool) {
	if s.ColourBy <= 0 || s.ColourBy >= len(GraphColourNames) {
		return 0, false
	}
	return summary.Metric(s.ColourBy - 1), true
}

// SetDepth chooses the depth: "auto", "all", or a level N ≥ 1. It
// forgets the groups expanded or collapsed one by one.
func (s *GraphSettings) SetDepth(text string) error {
	switch t := strings.ToLower(strings.TrimSpace(text)); t {
	case "auto", "":
		s.Depth = DepthAuto
	case "all":
		s.Depth = DepthAll
	default:
		n, err := strconv.Atoi(t)
		if err != nil || n < 1 || n > maxDepthSetting {
			return fmt.Errorf("a depth is auto, all or a scope level from 1 to %d, not %q", maxDepthSetting, text)
		}
		s.Depth = n
	}
	s.Groups = nil
	return nil
}

// maxDepthSetting bounds the depth a setting may ask for; deeper than a
// graph's scopes go means all expanded.
const maxDepthSetting = 64

// DepthText spells the depth as SetDepth reads it.
func (s GraphSettings) DepthText() string {
	switch s.Depth {
	case DepthAuto:
		return "auto"
	case DepthAll:
		return "all"
	}
	return strconv.Itoa(s.Depth)
}

// ApplyHierarchy brings m's groups to the settings: the depth, then the
// groups expanded or collapsed one by one.
func (s GraphSettings) ApplyHierarchy(m *GraphModel) {
	m.SetDepth(s.Depth)
	m.ApplyExpansion(s.Groups)
}

// KeepHierarchy records m's expansion state in the settings (after the
// user expanded or collapsed a group).
func (s *GraphSettings) KeepHierarchy(m *GraphModel) {
	s.Depth, s.Groups = m.Depth(), m.Expansion()
}

// Viewport is the graph view's zoom and position. The zero value is the
// opening view (graphview.HomeView): a graph that fits at a readable zoom
// is shown whole; a bigger one as wide as fits, at a readable zoom at
// least, starting at its inputs.
type Viewport struct {
	Zoom             float32 // widget units per scene unit; 0 for the opening view
	CenterX, CenterY float64 // the scene point at the view's centre (Zoom > 0)
}

// Fitted reports whether the viewport is the opening view.
func (v Viewport) Fitted() bool { return v.Zoom == 0 }

// MaxGraphZoom is the closest zoom a viewport may ask for.
const MaxGraphZoom = 4

// GraphDirectionNames name the directions for the UI, in Direction order;
// GraphDirectionKeys are the command line's spellings.
var (
	GraphDirectionNames = []string{"Top to bottom", "Left to right"}
	GraphDirectionKeys  = []string{"tb", "lr"}
)

// DefaultGraphSettings are what a new Graph pane shows.
func DefaultGraphSettings() GraphSettings {
	return GraphSettings{Direction: graphview.TopToBottom, Selected: -1}
}

// SetDirection chooses the direction by its UI name ("Left to right") or
// key ("lr"), in any case.
func (s *GraphSettings) SetDirection(name string) error {
	key := strings.ToLower(strings.TrimSpace(name))
	for i := range GraphDirectionNames {
		if key == GraphDirectionKeys[i] || key == strings.ToLower(GraphDirectionNames[i]) {
			s.Direction = graphview.Direction(i)
			return nil
		}
	}
	return fmt.Errorf("unknown direction %q (choose %s)", name, strings.Join(GraphDirectionKeys, ", "))
}

// Select selects document node id (-1 for none) of doc's graph.
func (s *GraphSettings) Select(doc *formats.Document, id int) error {
	if id < -1 || doc.Graph == nil || id >= len(doc.Graph.Nodes) {
		return fmt.Errorf("no node %d in the graph", id)
	}
	s.Selected = id
	return nil
}

// SelectNamed selects the node of doc's graph named name.
func (s *GraphSettings) SelectNamed(doc *formats.Document, name string) error {
	if doc.Graph == nil {
		return fmt.Errorf("this %s has no graph", doc.FormatName)
	}
	i := slices.IndexFunc(doc.Graph.Nodes, func(n formats.Node) bool { return n.Name == name })
	if i < 0 {
		return fmt.Errorf("no node named %q (try `tensorscope info` for the list)", name)
	}
	s.Selected = i
	return nil
}

// SetViewport shows the scene point (x, y) at the view's centre at zoom;
// zoom 0 is the opening view.
func (s *GraphSettings) SetViewport(zoom float32, x, y float64) error {
	if zoom == 0 {
		s.Viewport = Viewport{}
		return nil
	}
	if !(zoom > 0 && zoom <= MaxGraphZoom) || math.IsNaN(x) || math.IsNaN(y) || math.IsInf(x, 0) || math.IsInf(y, 0) {
		return fmt.Errorf("a viewport needs a zoom in (0, %d] and a finite centre, not %g at (%g, %g)", MaxGraphZoom, zoom, x, y)
	}
	s.Viewport = Viewport{Zoom: zoom, CenterX: x, CenterY: y}
	return nil
}
