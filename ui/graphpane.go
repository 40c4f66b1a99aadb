package ui

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"tensorscope/formats"
	"tensorscope/graphview"
	"tensorscope/viewmodel"
	"tensorscope/viewmodel/summary"
	"tensorscope/viewmodel/textfmt"
)

// graphPane shows the document's node graph with a find bar, a toggle for
// constant nodes, and a side panel describing the selected node or edge.
type graphPane struct {
	dt      *docTab
	content fyne.CanvasObject
	view    *graphview.GraphView
	model   *viewmodel.GraphModel
	// settings hold what the controls chose; they change only through
	// their setters (and the view's own pan, zoom and taps).
	settings viewmodel.GraphSettings
	consts   *widget.Check
	dirSel   *widget.Select
	depthSel *widget.Select
	// hierTools are the depth menu, Expand all and Collapse all, shown
	// for graphs whose nodes have scopes.
	hierTools *fyne.Container
	syncing   bool
	// scopes is the breadcrumb of the selected node's scopes, in the
	// bottom bar beside the status.
	scopes *widget.Label
	// groupAnchor keeps a group where it was on the screen once the next
	// layout is shown (after expanding or collapsing it).
	groupAnchor *groupAnchor
	// searched is the find text the matches are of.
	searched string

	find        *keyEntry
	count       *widget.Label
	matches     []int
	match       int
	status      *widget.Label
	props       *fyne.Container
	propsScroll *container.Scroll
	lineage     *widget.Button
	// nav is the stack of nested graphs opened (If branches, Loop and Scan
	// bodies); back and crumbs show the way out.
	nav    *viewmodel.GraphNav
	back   *widget.Button
	crumbs *widget.Label
	navRow *fyne.Container
	shown  int // document node id whose properties are shown, -1 for none
	// centreSelected centres the selected node once the next layout is
	// shown (after a find reveals it); revealSelected centres it only when
	// it is out of view (after leaving a subgraph).
	centreSelected, revealSelected bool
	// outer holds, per subgraph entered, the viewport of the graph that
	// holds it: Back returns to the view the user left.
	outer []viewmodel.Viewport
	// anchor keeps the selected node where it was on the screen, at the
	// same zoom, once the next layout is shown (after showing or folding
	// constants, which moves every node in the layout).
	anchor *nodeAnchor
	// lineageOf is the document node whose lineage is highlighted, kept
	// across layouts (another direction, constants shown), -1 for none.
	lineageOf int
	// ready is closed when the latest layout has been shown (or failed).
	ready      chan struct{}
	layoutTask *viewmodel.Task

	// colourBy is the "Colour by" choice: 0 the category, else a metric
	// (index+1 in summary.MetricNames) of each node's weights.
	colourBy  int
	colourSel *widget.Select
	colourBar *metricBar
	listening bool            // the Overview's changes recolour the graph
	statusRow *fyne.Container // the status line and the colour bar
	viewArea  *fyne.Container // the graph above its status row: Save View draws it
}

// newGraphPane makes the graph pane of dt's document. from is the pane it
// replaces after a reload (nil at first): its settings (direction,
// constants, selection, viewport), lineage highlight and find text carry
// over.
func newGraphPane(dt *docTab, from *graphPane) *graphPane {
	p := &graphPane{dt: dt, settings: viewmodel.DefaultGraphSettings(), shown: -1, lineageOf: -1}
	if from != nil {
		p.settings = from.Settings()
		p.lineageOf = from.lineageNode()
	}
	p.nav = viewmodel.NewGraphNav(dt.doc.Doc)
	p.crumbs = widget.NewLabel("")
	p.crumbs.Truncation = fyne.TextTruncateEllipsis
	p.back = widget.NewButtonWithIcon("Back", theme.NavigateBackIcon(), p.leave)
	p.view = graphview.NewGraphView(nil)
	p.view.OnNodeTapped = p.showNode
	p.view.OnEdgeTapped = p.showEdge
	p.view.OnNodeExpand = p.expandBox
	p.view.OnFrameCollapse = p.collapseFrame
	p.view.OnBackgroundTapped = func() {
		p.settings.Selected = -1
		p.setProps(nil)
		p.showScopes(-1)
	}
	p.view.OnViewChanged = func() { p.settings.Viewport = ViewportOf(p.view) }
	// Folding the minimap is remembered for every graph, and the next start.
	prefs := fyne.CurrentApp().Preferences()
	p.view.SetMinimapCollapsed(prefs.Bool(minimapFoldedPref))
	p.view.OnMinimapToggled = func(folded bool) { prefs.SetBool(minimapFoldedPref, folded) }
	p.view.OnOtherKey = func(ev *fyne.KeyEvent) { windowKeys(dt.mw.win)(ev) }
	p.status = widget.NewLabel("")
	p.status.Truncation = fyne.TextTruncateEllipsis
	p.props = container.NewVBox()
	p.propsScroll = container.NewVScroll(p.props)

	// Escape leaves the find box for the graph, whose keys (arrows, +/−,
	// M for the minimap) then work: a keyboard-only user had no way out.
	leaveFind := func(ev *fyne.KeyEvent) bool {
		if ev.Name == fyne.KeyEscape {
			dt.mw.win.Canvas().Focus(p.view)
			return true
		}
		return windowKeys(dt.mw.win)(ev)
	}
	p.find = newKeyEntry(leaveFind)
	p.find.SetPlaceHolder("Find node, op or tensor (Ctrl+F, Enter for next)")
	p.find.OnChanged = func(string) { p.search() }
	p.find.OnSubmitted = func(string) { p.next(1) }
	p.count = widget.NewLabel("")
	prev := widget.NewButtonWithIcon("", theme.MoveUpIcon(), func() { p.next(-1) })
	nextB := widget.NewButtonWithIcon("", theme.MoveDownIcon(), func() { p.next(1) })
	p.consts = widget.NewCheck("Show constants", func(on bool) {
		if !p.syncing {
			p.settings.ShowConstants = on
			p.lineageOf = p.lineageNode()
			p.anchor = p.selectedAnchor()
			p.centreSelected = p.anchor == nil && p.settings.Selected >= 0 // out of view: centre it
			p.rebuild()
		}
	})
	p.dirSel = widget.NewSelect(viewmodel.GraphDirectionNames, nil)
	p.syncing = true
	p.consts.SetChecked(p.settings.ShowConstants)
	p.syncing = false
	p.dirSel.SetSelectedIndex(int(p.settings.Direction))
	p.dirSel.OnChanged = func(name string) {
		if !p.syncing && p.settings.SetDirection(name) == nil {
			p.lineageOf = p.lineageNode()
			p.load()
		}
	}
	p.lineage = widget.NewButton("Highlight lineage", func() {
		if p.view.Highlighted() >= 0 {
			p.view.ClearHighlight()
		} else if v := p.view.Selected(); v >= 0 {
			p.view.HighlightLineage(v)
		}
		p.updateLineageButton()
	})
	p.lineage.Disable()
	p.scopes = widget.NewLabel("")
	p.scopes.Truncation = fyne.TextTruncateEllipsis
	p.depthSel = widget.NewSelect(depthChoices, func(choice string) {
		if !p.syncing && p.settings.SetDepth(depthSetting(choice)) == nil {
			p.lineageOf = p.lineageNode()
			p.rebuild()
		}
	})
	p.syncing = true
	p.depthSel.SetSelected(depthChoice(p.settings))
	p.syncing = false
	expandAll := widget.NewButton("Expand all", func() { p.setAll(true) })
	collapseAll := widget.NewButton("Collapse all", func() { p.setAll(false) })
	fit := widget.NewButtonWithIcon("", theme.ZoomFitIcon(), p.view.Fit)
	one := widget.NewButton("1:1", p.view.ActualSize)
	zin := widget.NewButtonWithIcon("", theme.ZoomInIcon(), p.view.ZoomIn)
	zout := widget.NewButtonWithIcon("", theme.ZoomOutIcon(), p.view.ZoomOut)
	export := widget.NewButtonWithIcon("Export…", theme.DocumentSaveIcon(), p.export)
	p.colourBar = newMetricBar()
	p.colourSel = widget.NewSelect(viewmodel.GraphColourNames, nil)
	p.colourBy = p.settings.ColourBy // applied when the layout is shown
	p.colourSel.SetSelectedIndex(p.colourBy)
	p.colourSel.OnChanged = func(string) {
		p.colourBy = p.colourSel.SelectedIndex()
		p.settings.ColourBy = p.colourBy
		if p.model != nil {
			p.recolour()
		}
	}

	findBar := container.NewBorder(nil, nil, nil, container.NewHBox(p.count, prev, nextB), p.find)
	// A Select is as narrow as its placeholder: give the direction room
	// for "Left to right" so it is not cut to "Top to bott…".
	dirSize := fyne.NewSize(fyne.MeasureText("Left to right", theme.TextSize(), fyne.TextStyle{}).Width+6*theme.InnerPadding()+theme.IconInlineSize(), p.dirSel.MinSize().Height)
	p.hierTools = container.NewHBox(widget.NewLabel("Depth"), p.depthSel, expandAll, collapseAll)
	// The toolbar wraps onto a second row in a narrow window rather than
	// hiding its last controls.
	tools := newFlow(p.consts, container.NewGridWrap(dirSize, p.dirSel), p.hierTools, p.lineage,
		container.NewHBox(zout, zin, one, fit), export, container.NewHBox(widget.NewLabel("Colour by"), p.colourSel))
	p.navRow = container.NewBorder(nil, nil, p.back, nil, p.crumbs)
	top := container.NewVBox(findBar, tools, p.navRow)
	side := container.NewBorder(widget.NewLabelWithStyle("Properties", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
		nil, nil, nil, p.propsScroll)
	// The breadcrumb at its full width, the status shortened beside it, the
	// colour bar (when colouring by a metric) at the end; the row is laid
	// out again as the bar shows or hides.
	p.scopes.Truncation = fyne.TextTruncateOff
	p.scopes.TextStyle.Bold = true
	p.status.Truncation = fyne.TextTruncateEllipsis
	p.statusRow = container.NewBorder(nil, nil, p.scopes, p.colourBar, p.status)
	p.viewArea = container.NewBorder(nil, p.statusRow, nil, nil, p.view)
	split := container.NewHSplit(p.viewArea, side)
	split.Offset = 0.72
	p.content = container.NewBorder(top, nil, nil, nil, split)
	p.rebuild()
	if from != nil {
		p.find.SetText(from.find.Text)
	}
	return p
}

// minimapFoldedPref is the preference that keeps the graph's minimap
// folded to its button.
const minimapFoldedPref = "graph.minimapFolded"

// nodeAnchor is where a document node's centre was on the screen, and at
// what zoom.
type nodeAnchor struct {
	node int
	at   fyne.Position
	zoom float32
}

// selectedAnchor is where the selected node is on the screen now, or nil
// when none is selected or it is out of view.
func (p *graphPane) selectedAnchor() *nodeAnchor {
	v := p.view.Selected()
	at, ok := p.view.NodeCentre(v)
	if !ok || !p.view.NodeInView(v) {
		return nil
	}
	return &nodeAnchor{node: p.model.DocNode(v), at: at, zoom: p.view.Zoom()}
}

// lineageNode is the document node whose lineage is highlighted, or -1.
func (p *graphPane) lineageNode() int {
	if p.model == nil {
		return -1
	}
	return p.model.DocNode(p.view.Highlighted())
}

// Settings are the pane's current choices.
func (p *graphPane) Settings() viewmodel.GraphSettings { return p.settings }

// Apply makes s the pane's settings: the controls show them, the graph is
// laid out again, and the selection and viewport apply once it is shown.
func (p *graphPane) Apply(s viewmodel.GraphSettings) {
	p.settings = s
	p.syncing = true
	p.consts.SetChecked(s.ShowConstants)
	p.dirSel.SetSelectedIndex(int(s.Direction))
	p.depthSel.SetSelected(depthChoice(s))
	p.colourSel.SetSelectedIndex(s.ColourBy)
	p.syncing = false
	p.rebuild()
}

// rebuild makes the view graph of the current (sub)graph anew, constants
// folded or shown, and lays it out in the background.
func (p *graphPane) rebuild() {
	p.model = viewmodel.NewSubgraphModel(p.dt.doc.Doc, p.nav.Current(), p.settings.ShowConstants)
	p.settings.ApplyHierarchy(p.model)
	p.showScopes(-1)
	if p.model.Groups() == 0 { // no scopes: nothing to expand or collapse
		p.hierTools.Hide()
	} else {
		p.hierTools.Show()
	}
	p.updateNav()
	p.load()
}

// updateNav shows the way back only inside a subgraph.
func (p *graphPane) updateNav() {
	if p.nav.Depth() == 0 {
		p.navRow.Hide()
	} else {
		p.crumbs.SetText(strings.Join(p.nav.Path(), "  ›  "))
		p.navRow.Show()
	}
	if p.content != nil { // the bar above the graph changed height
		p.content.Refresh()
	}
}

// enter opens subgraph sub of document node id of the graph shown.
func (p *graphPane) enter(id, sub int) {
	if err := p.nav.Enter(id, sub); err != nil {
		showError(err, p.dt.mw.win)
		return
	}
	p.settings.Selected = -1 // node ids are the subgraph's now
	p.outer = append(p.outer, ViewportOf(p.view))
	p.settings.Viewport = viewmodel.Viewport{} // a subgraph opens fitted
	p.rebuild()
}

// leave returns to the enclosing graph as the user left it and selects
// the node that holds the graph left (centring it if it is out of view),
// once it is laid out again (through the settings, so that nothing waits
// on a layout a closed tab cancels).
func (p *graphPane) leave() {
	id := p.nav.Back()
	if id < 0 {
		return
	}
	p.settings.Selected = id
	p.settings.Viewport = viewmodel.Viewport{}
	if n := len(p.outer); n > 0 {
		p.settings.Viewport, p.outer = p.outer[n-1], p.outer[:n-1]
	}
	p.revealSelected = true
	p.rebuild()
}

func (p *graphPane) load() {
	g := p.model.View()
	p.status.SetText(fmt.Sprintf("Laying out %d nodes…", len(g.Nodes)))
	p.setProps(nil)
	ready := make(chan struct{})
	p.ready = ready
	want := p.settings
	p.view.Load(g, graphview.SceneOptions{Direction: want.Direction}, p.startLayout, func(s *graphview.Scene, err error) {
		defer close(ready)
		if err != nil {
			p.status.SetText("Cannot draw the graph: " + err.Error())
			return
		}
		p.settings.Viewport = want.Viewport
		ShowGraphSettings(p.view, p.model, want)
		if lin := p.model.ViewNode(p.lineageOf); lin >= 0 {
			p.view.HighlightLineage(lin)
		}
		if a := p.groupAnchor; a != nil {
			p.groupAnchor = nil
			p.placeGroup(a)
		}
		if v := p.view.Selected(); v >= 0 {
			switch {
			case p.anchor != nil && p.anchor.node == p.settings.Selected:
				p.view.PlaceNode(v, p.anchor.zoom, p.anchor.at)
			case p.centreSelected, p.revealSelected && !p.view.NodeInView(v):
				p.view.CenterOn(v)
			}
			p.showNode(v)
		}
		p.centreSelected, p.revealSelected, p.anchor = false, false, nil
		if p.view.Selected() < 0 {
			p.showScopes(-1)
		}
		flat := len(p.model.FlatView().Nodes)
		folded := p.model.NodeCount() - flat
		text := textfmt.CountNoun(len(g.Nodes), "node") + ", " + textfmt.CountNoun(len(g.Edges), "edge")
		if flat != len(g.Nodes) {
			text = fmt.Sprintf("%s of %s, %s", textfmt.CountNoun(len(g.Nodes), "box"), textfmt.CountNoun(flat, "node"), textfmt.CountNoun(len(g.Edges), "edge"))
		}
		if folded > 0 {
			text += fmt.Sprintf(" (%s folded into their consumers)", textfmt.CountNoun(folded, "constant node"))
		}
		p.status.SetText(text)
		p.search()
		p.recolour()
	})
}

// recolour applies the "Colour by" choice: the categories, or the chosen
// metric of each node's weights from the document's Overview (started if
// it was not, and followed as its figures arrive).
func (p *graphPane) recolour() {
	if p.colourBy <= 0 || !p.dt.doc.HasOverview() {
		p.view.SetNodeColours(nil)
		p.colourBar.set(nil)
		p.statusRow.Refresh()
		return
	}
	ov := p.dt.doc.Overview()
	if ov.Deferred != "" { // colouring by a metric asks for the summary
		ov.Start()
	}
	if !p.listening {
		p.listening = true
		ov.AddListener(func() {
			if p.colourBy > 0 && p.dt.doc.Overview() == ov {
				p.recolour()
			}
		})
	}
	c := viewmodel.ColourByMetric(p.model, ov.Model, summary.Metric(p.colourBy-1))
	p.view.SetNodeColours(c.Colours)
	p.colourBar.set(&c)
	p.statusRow.Refresh()
}

// startLayout lays the graph out as a task of the tab's document: closing
// or reloading the tab cancels it, and a newer layout replaces it.
func (p *graphPane) startLayout(layout func(ctx context.Context) (*graphview.Scene, error), done func(*graphview.Scene, error)) {
	p.layoutTask.Cancel()
	p.layoutTask = viewmodel.Go(p.dt.doc, func(ctx context.Context, _ viewmodel.Progress) (*graphview.Scene, error) {
		return layout(ctx)
	}, nil, done)
}

func (p *graphPane) showNode(v int) {
	p.shown = p.model.DocNode(v)
	p.settings.Selected = p.shown
	if gi := p.model.ViewGroup(v); gi >= 0 {
		p.setProps(p.model.GroupProperties(gi))
	} else {
		p.setProps(p.model.NodeProperties(v))
	}
	p.showScopes(v)
	p.updateLineageButton()
}

// showScopes shows the breadcrumb of view node v's scopes.
func (p *graphPane) showScopes(v int) {
	path := p.model.Scopes(v)
	switch {
	case v < 0:
		p.scopes.SetText("")
	case len(path) == 0:
		p.scopes.SetText("(top level)")
	default:
		p.scopes.SetText(strings.Join(path, "  ›  "))
	}
	if p.scopes.Text == "" || p.model.Groups() == 0 {
		p.scopes.Hide() // no gap before the status
	} else {
		p.scopes.Show()
	}
	if p.statusRow != nil {
		p.statusRow.Refresh() // the breadcrumb's width changed
	}
}

func (p *graphPane) showEdge(e int) {
	p.settings.Selected = -1
	p.showScopes(-1)
	p.setProps(p.model.EdgeProperties(e))
	p.updateLineageButton()
}

func (p *graphPane) updateLineageButton() {
	switch {
	case p.view.Highlighted() >= 0:
		p.lineage.SetText("Clear lineage")
		p.lineage.Enable()
	case p.view.Selected() >= 0:
		p.lineage.SetText("Highlight lineage")
		p.lineage.Enable()
	default:
		p.lineage.SetText("Highlight lineage")
		p.lineage.Disable()
	}
}

// setProps fills the side panel: each section a title and its rows, a
// folded section's rest behind a "… N more" button.
func (p *graphPane) setProps(sections []viewmodel.PropSection) {
	p.props.RemoveAll()
	if sections == nil {
		p.props.Add(widget.NewLabel("Click a node or an edge."))
	}
	for _, s := range sections {
		p.props.Add(widget.NewLabelWithStyle(s.Title, fyne.TextAlignLeading, fyne.TextStyle{Bold: true}))
		form := container.New(layout.NewFormLayout())
		shown := s.Rows
		if s.Folded > 0 && s.Folded < len(s.Rows) {
			shown = s.Rows[:s.Folded]
		}
		for _, r := range shown {
			p.addPropRow(form, r)
		}
		p.props.Add(form)
		if rest := s.Rows[len(shown):]; len(rest) > 0 {
			var more *widget.Button
			more = widget.NewButton(fmt.Sprintf("… %d more", len(rest)), func() {
				for _, r := range rest {
					p.addPropRow(form, r)
				}
				p.props.Remove(more)
				p.props.Refresh()
			})
			more.Alignment = widget.ButtonAlignLeading
			more.Importance = widget.LowImportance
			p.props.Add(more)
		}
	}
	p.props.Refresh()
	p.propsScroll.ScrollToTop() // a new selection reads from its title
}

// addPropRow adds a label and its value to form; a value naming another
// node jumps to it, a tensor with data opens in the inspector, a subgraph
// opens.
func (p *graphPane) addPropRow(form *fyne.Container, r viewmodel.PropRow) {
	label := widget.NewLabel(r.Label)
	label.TextStyle.Monospace = strings.HasPrefix(r.Label, "#")
	value := widget.NewLabel(r.Value)
	value.Wrapping = fyne.TextWrapWord // breaks inside a word only when the word is longer than the line
	var cell fyne.CanvasObject = value
	var buttons []fyne.CanvasObject
	if r.Node >= 0 {
		buttons = append(buttons, widget.NewButtonWithIcon("", theme.NavigateNextIcon(), func() { p.goTo(r.Node) }))
	}
	if r.Tensor >= 0 {
		buttons = append(buttons, widget.NewButton("Inspect", func() { p.dt.inspectTensor(r.Tensor) }))
	}
	if r.Subgraph >= 0 {
		id := p.shown
		buttons = append(buttons, widget.NewButtonWithIcon("Open", theme.NavigateNextIcon(), func() { p.enter(id, r.Subgraph) }))
	}
	if len(buttons) > 0 {
		cell = container.NewBorder(nil, nil, nil, container.NewHBox(buttons...), value)
	}
	form.Add(label)
	form.Add(cell)
}

// goTo selects and centres view node v.
func (p *graphPane) goTo(v int) {
	p.view.Select(v)
	p.view.CenterOn(v)
	p.showNode(v)
}

func (p *graphPane) search() {
	p.matches = p.model.FindNodes(p.find.Text)
	if p.find.Text != p.searched { // a layout after a reveal keeps the place
		p.match = -1
	}
	p.searched = p.find.Text
	switch {
	case p.find.Text == "":
		p.count.SetText("")
	case len(p.matches) == 0:
		p.count.SetText("no match")
	default:
		p.count.SetText(fmt.Sprintf("%d found", len(p.matches)))
	}
}

// next cycles through the matches, centring each.
func (p *graphPane) next(step int) {
	if len(p.matches) == 0 || p.view.Scene() == nil {
		return
	}
	p.match = (p.match + step + len(p.matches)) % len(p.matches)
	p.count.SetText(fmt.Sprintf("%d of %d", p.match+1, len(p.matches)))
	p.goToNode(p.matches[p.match])
}

// goToNode selects and centres document node id, expanding the groups
// that hide it first (and laying the graph out again).
func (p *graphPane) goToNode(id int) {
	if !p.model.Reveal(id) {
		p.goTo(p.model.ViewNode(id))
		return
	}
	p.settings.KeepHierarchy(p.model)
	p.settings.Selected = id
	p.centreSelected = true
	p.syncDepth()
	p.load()
}

func (p *graphPane) focusFind() { p.dt.mw.win.Canvas().Focus(p.find) }

// export saves the whole graph as SVG or PNG.
func (p *graphPane) export() {
	s := p.view.Scene()
	if s == nil {
		return
	}
	win := p.dt.mw.win
	base := strings.TrimSuffix(p.dt.doc.Title(), filepath.Ext(p.dt.doc.Title())) + "-graph.svg"
	p.dt.mw.saveFile("Export graph", base, []fileFilter{{Name: "SVG or PNG image", Extensions: []string{"svg", "png"}}}, func(path string) {
		p.exportTo(path, func(note string, err error) {
			if tooLarge := (*graphview.PNGTooLargeError)(nil); errors.As(err, &tooLarge) {
				p.offerSVG(path, tooLarge)
				return
			}
			showExported(win, "Graph exported", path, note, err)
		})
	})
}

// offerSVG says why the graph cannot be a readable PNG and offers to
// write it as SVG beside the name chosen.
func (p *graphPane) offerSVG(pngPath string, why *graphview.PNGTooLargeError) {
	win := p.dt.mw.win
	svg := strings.TrimSuffix(pngPath, filepath.Ext(pngPath)) + ".svg"
	msg := fmt.Sprintf("With its labels readable the graph is %s×%s pixels, more than a PNG can hold "+
		"(at most %s pixels a side and %d megapixels).\n\nExport it as %s instead? SVG has no size limit. "+
		"(Or draw fewer boxes: collapse groups with Depth.)",
		formats.GroupDigits(int64(why.Width)), formats.GroupDigits(int64(why.Height)),
		formats.GroupDigits(graphview.MaxPNGSide), why.MaxPixels>>20, filepath.Base(svg))
	if _, err := os.Stat(svg); err == nil {
		msg += "\n\nA file of that name exists; it will be replaced."
	}
	text := widget.NewLabel(msg)
	text.Wrapping = fyne.TextWrapWord
	d := dialog.NewCustomConfirm("Graph too large for a PNG", "Export SVG", "Cancel", text, func(ok bool) {
		if ok {
			p.exportTo(svg, func(note string, err error) { showExported(win, "Graph exported", svg, note, err) })
		}
	}, win)
	d.Resize(fyne.NewSize(520, 0))
	d.Show()
}

// exportTo writes the shown graph to path (SVG or PNG by its ending) as a
// task of the tab's document: closing or reloading the tab cancels it and
// leaves no file. done runs on the UI goroutine unless cancelled.
func (p *graphPane) exportTo(path string, done func(note string, err error)) {
	s := p.view.Scene()
	settings := fyne.CurrentApp().Settings()
	palette := graphview.ThemePalette(settings.Theme(), settings.ThemeVariant())
	viewmodel.Go(p.dt.doc, func(ctx context.Context, _ viewmodel.Progress) (string, error) {
		return viewmodel.ExportGraphContext(ctx, path, s, palette)
	}, nil, done)
}
