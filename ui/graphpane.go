package ui

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"tensorscope/graphview"
	"tensorscope/viewmodel"
)

// graphPane shows the document's node graph with a find bar, a toggle for
// constant nodes, and a side panel describing the selected node or edge.
type graphPane struct {
	dt      *docTab
	content fyne.CanvasObject
	view    *graphview.GraphView
	model   *viewmodel.GraphModel
	dir     graphview.Direction

	find    *keyEntry
	count   *widget.Label
	matches []int
	match   int
	status  *widget.Label
	props   *fyne.Container
	lineage *widget.Button
	// ready is closed when the latest layout has been shown (or failed).
	ready      chan struct{}
	layoutTask *viewmodel.Task
}

// newGraphPane makes the graph pane of dt's document. from is the pane it
// replaces after a reload (nil at first): its direction, constants toggle,
// find text, selection, highlight and viewport carry over.
func newGraphPane(dt *docTab, from *graphPane) *graphPane {
	p := &graphPane{dt: dt, dir: graphview.TopToBottom}
	p.view = graphview.NewGraphView(nil)
	p.view.OnNodeTapped = p.showNode
	p.view.OnEdgeTapped = p.showEdge
	p.view.OnBackgroundTapped = func() { p.setProps(nil) }
	p.view.OnOtherKey = func(ev *fyne.KeyEvent) { windowKeys(dt.mw.win)(ev) }
	p.status = widget.NewLabel("")
	p.props = container.NewVBox()

	p.find = newKeyEntry(windowKeys(dt.mw.win))
	p.find.SetPlaceHolder("Find node, op or tensor (Ctrl+F, Enter for next)")
	p.find.OnChanged = func(string) { p.search() }
	p.find.OnSubmitted = func(string) { p.next(1) }
	p.count = widget.NewLabel("")
	prev := widget.NewButtonWithIcon("", theme.MoveUpIcon(), func() { p.next(-1) })
	nextB := widget.NewButtonWithIcon("", theme.MoveDownIcon(), func() { p.next(1) })
	consts := widget.NewCheck("Show constants", nil)
	dir := widget.NewSelect([]string{"Top-down", "Left-right"}, nil)
	dir.SetSelectedIndex(0)
	var place *graphPlace
	if from != nil {
		place = from.capture()
		consts.SetChecked(from.model.ShowConsts())
		p.dir = from.dir
		if p.dir == graphview.LeftToRight {
			dir.SetSelectedIndex(1)
		}
	}
	consts.OnChanged = func(on bool) { p.rebuild(on) }
	dir.OnChanged = func(string) {
		p.dir = graphview.TopToBottom
		if dir.SelectedIndex() == 1 {
			p.dir = graphview.LeftToRight
		}
		p.load()
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
	fit := widget.NewButtonWithIcon("", theme.ZoomFitIcon(), p.view.Fit)
	one := widget.NewButton("1:1", p.view.ActualSize)
	zin := widget.NewButtonWithIcon("", theme.ZoomInIcon(), p.view.ZoomIn)
	zout := widget.NewButtonWithIcon("", theme.ZoomOutIcon(), p.view.ZoomOut)
	export := widget.NewButtonWithIcon("Export…", theme.DocumentSaveIcon(), p.export)

	findBar := container.NewBorder(nil, nil, nil, container.NewHBox(p.count, prev, nextB), p.find)
	tools := container.NewHBox(consts, dir, p.lineage, zout, zin, one, fit, export)
	top := container.NewVBox(findBar, container.NewHScroll(tools))
	side := container.NewBorder(widget.NewLabelWithStyle("Properties", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
		nil, nil, nil, container.NewVScroll(p.props))
	split := container.NewHSplit(container.NewBorder(nil, p.status, nil, nil, p.view), side)
	split.Offset = 0.72
	p.content = container.NewBorder(top, nil, nil, nil, split)
	p.model = viewmodel.NewGraphModel(p.dt.doc.Doc, consts.Checked)
	if from != nil {
		p.find.SetText(from.find.Text)
	}
	p.setProps(nil)
	p.layOut(place, true)
	return p
}

// rebuild makes the view graph anew (constants folded or shown) and lays
// it out in the background, keeping the selected node in view.
func (p *graphPane) rebuild(showConsts bool) {
	place := p.capture() // in the old model's node numbering
	p.model = viewmodel.NewGraphModel(p.dt.doc.Doc, showConsts)
	p.layOut(place, false)
}

// load lays the graph out again (another direction), keeping the
// selection, highlight and properties panel.
func (p *graphPane) load() { p.layOut(p.capture(), false) }

// layOut lays the view graph out in the background and then restores
// place (see restore).
func (p *graphPane) layOut(place *graphPlace, sameLayout bool) {
	g := p.model.View()
	p.status.SetText(fmt.Sprintf("Laying out %d nodes…", len(g.Nodes)))
	ready := make(chan struct{})
	p.ready = ready
	p.view.Load(g, graphview.SceneOptions{Direction: p.dir}, p.startLayout, func(s *graphview.Scene, err error) {
		defer close(ready)
		if err != nil {
			p.status.SetText("Cannot draw the graph: " + err.Error())
			return
		}
		folded := p.model.NodeCount() - len(g.Nodes)
		text := fmt.Sprintf("%d nodes, %d edges", len(g.Nodes), len(g.Edges))
		if folded > 0 {
			text += fmt.Sprintf(" (%d constant nodes folded into their consumers)", folded)
		}
		p.status.SetText(text)
		p.search()
		p.restore(place, sameLayout)
	})
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
	p.setProps(p.model.NodeProperties(v))
	p.updateLineageButton()
}

func (p *graphPane) showEdge(e int) {
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

// setProps fills the side panel: each row a label and a value; values that
// name another node jump to it, tensors with data open in the inspector.
func (p *graphPane) setProps(sections []viewmodel.PropSection) {
	p.props.RemoveAll()
	if sections == nil {
		p.props.Add(widget.NewLabel("Click a node or an edge."))
	}
	for _, s := range sections {
		p.props.Add(widget.NewLabelWithStyle(s.Title, fyne.TextAlignLeading, fyne.TextStyle{Bold: true}))
		form := container.New(layout.NewFormLayout())
		for _, r := range s.Rows {
			r := r
			label := widget.NewLabel(r.Label)
			label.TextStyle.Monospace = strings.HasPrefix(r.Label, "#")
			value := widget.NewLabel(r.Value)
			value.Wrapping = fyne.TextWrapBreak
			var cell fyne.CanvasObject = value
			var buttons []fyne.CanvasObject
			if r.Node >= 0 {
				buttons = append(buttons, widget.NewButtonWithIcon("", theme.NavigateNextIcon(), func() { p.goTo(r.Node) }))
			}
			if r.Tensor >= 0 {
				buttons = append(buttons, widget.NewButton("Inspect", func() { p.dt.inspectTensor(r.Tensor) }))
			}
			if len(buttons) > 0 {
				cell = container.NewBorder(nil, nil, nil, container.NewHBox(buttons...), value)
			}
			form.Add(label)
			form.Add(cell)
		}
		p.props.Add(form)
	}
	p.props.Refresh()
}

// goTo selects and centres view node v.
func (p *graphPane) goTo(v int) {
	p.view.Select(v)
	p.view.CenterOn(v)
	p.showNode(v)
}

func (p *graphPane) search() {
	p.matches = p.model.Find(p.find.Text)
	p.match = -1
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
	p.goTo(p.matches[p.match])
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
	saveFile(win, "Export graph", base, []fileFilter{{Name: "SVG or PNG image", Extensions: []string{"svg", "png"}}}, func(path string) {
		p.exportTo(path, func(note string, err error) {
			if err != nil {
				showError(err, win)
				return
			}
			msg := "Saved " + path
			if note != "" {
				msg += "\n" + note
			}
			dialog.ShowInformation("Graph exported", msg, win)
		})
	})
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
