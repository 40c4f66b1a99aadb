package ui

import (
	"fyne.io/fyne/v2"
)

// graphPlace is what the user has done in the graph pane: the selected
// node, the node whose lineage is highlighted (document node ids, which
// survive a new layout), and the viewport. It is carried over when the
// graph is laid out again — another direction, constants shown or folded,
// a reload — so the selection, the highlight, the properties panel and the
// lineage button stay in agreement.
type graphPlace struct {
	node, lineage int // document node ids, -1 for none
	// nodeAt is where the selected node appeared, so a new layout puts it
	// back there at the same zoom.
	nodeAt fyne.Position
	zoom   float32
	offset fyne.Position
	moved  bool // the user zoomed or panned (else the view stays at home)
}

// capture records the pane's place; nil before the first layout.
func (p *graphPane) capture() *graphPlace {
	v := p.view
	if v.Scene() == nil {
		return nil
	}
	pl := &graphPlace{node: p.model.DocNode(v.Selected()), lineage: p.model.DocNode(v.Highlighted()),
		zoom: v.Zoom(), offset: v.Offset(), moved: !v.AtHome()}
	if at, ok := v.NodeOnScreen(v.Selected()); ok {
		pl.nodeAt = at
	}
	return pl
}

// restore applies pl to a newly laid-out graph. sameLayout says the
// positions are those of the captured graph (a reload of an unchanged
// file), so the viewport is restored as it was; otherwise the selected node
// is put back where it appeared.
func (p *graphPane) restore(pl *graphPlace, sameLayout bool) {
	if pl == nil {
		p.setProps(nil)
		p.updateLineageButton()
		return
	}
	v := p.view
	sel := p.model.ViewNode(pl.node)
	v.Select(sel)
	if lin := p.model.ViewNode(pl.lineage); lin >= 0 {
		v.HighlightLineage(lin)
	}
	switch {
	case sameLayout && pl.moved:
		v.SetView(pl.zoom, pl.offset)
	case sel >= 0 && pl.moved:
		v.SetView(pl.zoom, v.Offset())
		v.PutNodeAt(sel, pl.nodeAt)
	case sel >= 0:
		v.CenterOn(sel)
	}
	if sel >= 0 {
		p.showNode(sel)
	} else {
		p.setProps(nil)
		p.updateLineageButton()
	}
}
