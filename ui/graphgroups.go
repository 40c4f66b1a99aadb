package ui

import (
	"fmt"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"

	"tensorscope/graphview"
	"tensorscope/graphview/layout"
	"tensorscope/viewmodel"
)

// The graph's hierarchy in the pane: expanding and collapsing groups in
// place, Expand all and Collapse all, and the depth choice.

// depthChoices are the depth menu's entries: "Auto", "All", levels 1–8.
var depthChoices = func() []string {
	out := []string{"Auto", "All"}
	for d := 1; d <= 8; d++ {
		out = append(out, fmt.Sprintf("Level %d", d))
	}
	return out
}()

// depthSetting turns a menu entry into what GraphSettings.SetDepth reads.
func depthSetting(choice string) string {
	return strings.TrimPrefix(strings.ToLower(choice), "level ")
}

// depthChoice is the menu entry of the settings' depth.
func depthChoice(s viewmodel.GraphSettings) string {
	switch t := s.DepthText(); t {
	case "auto":
		return "Auto"
	case "all":
		return "All"
	default:
		if n, err := strconv.Atoi(t); err == nil && n <= 8 {
			return "Level " + t
		}
		return ""
	}
}

// syncDepth shows the settings' depth in the menu without acting on it.
func (p *graphPane) syncDepth() {
	p.syncing = true
	p.depthSel.SetSelected(depthChoice(p.settings))
	p.syncing = false
}

// groupAnchor is where a group (its box, or its frame's top centre) was on
// the screen, and at what zoom.
type groupAnchor struct {
	group int
	at    fyne.Position
	zoom  float32
}

// expandBox expands the collapsed group drawn as view node v, keeping its
// place on the screen: the frame's top where the box's top was.
func (p *graphPane) expandBox(v int) {
	gi := p.model.ViewGroup(v)
	if gi < 0 || !p.model.SetExpanded(gi, true) {
		return
	}
	s := p.view.Scene()
	b := s.NodeBox(v)
	p.groupAnchor = &groupAnchor{group: gi, at: p.view.ToWidget(layout.Point{X: (b.Min.X + b.Max.X) / 2, Y: b.Min.Y}), zoom: p.view.Zoom()}
	p.changedGroups()
}

// collapseFrame collapses the group frame f of the view is drawn round,
// its box taking the place of the frame's top.
func (p *graphPane) collapseFrame(f int) {
	gi := p.model.FrameGroup(f)
	if gi < 0 || !p.model.SetExpanded(gi, false) {
		return
	}
	r := p.view.Scene().FrameRect(f)
	p.groupAnchor = &groupAnchor{group: gi, at: p.view.ToWidget(layout.Point{X: (r.Min.X + r.Max.X) / 2, Y: r.Min.Y}), zoom: p.view.Zoom()}
	p.changedGroups()
}

// setAll expands or collapses every group.
func (p *graphPane) setAll(open bool) {
	if open {
		p.model.ExpandAll()
	} else {
		p.model.CollapseAll()
	}
	p.settings.Viewport = viewmodel.Viewport{} // the opening view of the new drawing
	p.changedGroups()
}

// changedGroups lays the graph out again after groups changed, keeping
// the expansion in the settings (so a reload keeps it too).
func (p *graphPane) changedGroups() {
	p.settings.KeepHierarchy(p.model)
	p.syncDepth()
	p.lineageOf = p.lineageNode()
	p.load()
}

// placeGroup shows a group where a was: its box's top centre when it is
// collapsed, its frame's when expanded.
func (p *graphPane) placeGroup(a *groupAnchor) {
	s := p.view.Scene()
	if v := p.model.ViewOfGroup(a.group); v >= 0 {
		b := s.NodeBox(v)
		p.view.PlacePoint(layout.Point{X: (b.Min.X + b.Max.X) / 2, Y: b.Min.Y}, a.zoom, a.at)
		return
	}
	// Expanded: its first box (the top one, or the left one left to
	// right) where the group's box was; a frame can be far wider.
	first := -1
	lr := p.settings.Direction == graphview.LeftToRight
	for f := 0; f < s.Frames(); f++ {
		if p.model.FrameGroup(f) != a.group {
			continue
		}
		for _, v := range s.Graph().Frames[f].Nodes {
			b, c := s.NodeBox(v), layout.Rect{}
			if first >= 0 {
				c = s.NodeBox(first)
			}
			if first < 0 || (!lr && b.Min.Y < c.Min.Y) || (lr && b.Min.X < c.Min.X) {
				first = v
			}
		}
	}
	if first >= 0 {
		b := s.NodeBox(first)
		p.view.PlacePoint(layout.Point{X: (b.Min.X + b.Max.X) / 2, Y: b.Min.Y}, a.zoom, a.at)
	}
}
