package ui

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"tensorscope/formats"
	"tensorscope/viewmodel"
)

// newMetaPane shows the metadata tree (expand, collapse, copy a value) and,
// beside it, the document's tables and plots (for .nn: the architecture and
// the training curves).
// inspect, when given, shows a document tensor in the inspector: nodes
// that show a tensor (a checkpoint's object tree) link to it.
func newMetaPane(win fyne.Window, d *viewmodel.Doc, inspect ...func(i int)) fyne.CanvasObject {
	mt := d.Meta
	path := widget.NewLabel("")
	path.Truncation = fyne.TextTruncateEllipsis
	var selected string
	tree := widget.NewTree(
		func(id widget.TreeNodeID) []widget.TreeNodeID { return mt.Children(id) },
		func(id widget.TreeNodeID) bool { return mt.IsBranch(id) },
		func(bool) fyne.CanvasObject {
			l := widget.NewLabel("")
			l.Truncation = fyne.TextTruncateEllipsis
			return l
		},
		func(id widget.TreeNodeID, _ bool, o fyne.CanvasObject) { o.(*widget.Label).SetText(mt.Label(id)) },
	)
	copyButton := widget.NewButton("Copy value", func() {
		if selected != "" {
			win.Clipboard().SetContent(mt.CopyText(selected))
		}
	})
	copyButton.Disable()
	inspectButton := widget.NewButton("Inspect tensor", func() {
		if i := mt.Tensor(selected, d.Doc); i >= 0 && len(inspect) > 0 {
			inspect[0](i)
		}
	})
	inspectButton.Disable()
	lists := newLazyListView(mt)
	// A tokenizer's parallel arrays show as one vocabulary table, from the
	// start; another long array selected in the tree shows in the list.
	var vocab *vocabView
	if v := mt.Vocabulary(); v != nil {
		vocab = newVocabView(win, v)
		lists.box.Hide()
	}
	tree.OnSelected = func(id widget.TreeNodeID) {
		selected = id
		path.SetText(mt.Path(id))
		copyButton.Enable()
		if len(inspect) > 0 && mt.Tensor(id, d.Doc) >= 0 {
			inspectButton.Enable()
		} else {
			inspectButton.Disable()
		}
		switch {
		case vocab != nil && vocab.v.Holds(id):
			lists.box.Hide()
			vocab.box.Show()
		case mt.LazyList(id) != nil:
			lists.show(id)
			lists.box.Show()
			if vocab != nil {
				vocab.box.Hide()
			}
		}
	}
	tree.OpenBranch("")
	for _, c := range mt.Children("") {
		tree.OpenBranch(c)
	}
	var left fyne.CanvasObject
	if mt.Empty() {
		left = widget.NewLabel("This file has no metadata beyond its header.")
	} else {
		buttons := fyne.CanvasObject(copyButton)
		if len(inspect) > 0 {
			buttons = container.NewHBox(inspectButton, copyButton)
		}
		left = container.NewBorder(nil, container.NewBorder(nil, nil, nil, buttons, path), nil, nil, tree)
	}
	extras := metaExtras(d)
	if extras == nil && !mt.HasLazyLists() {
		return left
	}
	var right fyne.CanvasObject = lists.box
	if vocab != nil {
		right = container.NewStack(lists.box, vocab.box)
	}
	if extras != nil {
		right = container.NewVSplit(container.NewScroll(extras), right)
		if !mt.HasLazyLists() {
			right = container.NewScroll(extras)
		}
	}
	split := container.NewHSplit(left, right)
	split.Offset = 0.4
	return split
}

// lazyListView lists the entries of the long array selected in the tree
// (a tokenizer's vocabulary) in a virtual list: only the rows on screen
// are read from the file, so 150,000 tokens cost what is visible.
type lazyListView struct {
	mt    *viewmodel.MetaTree
	title *widget.Label
	list  *widget.List
	box   *fyne.Container
	cur   *formats.LazyList
}

func newLazyListView(mt *viewmodel.MetaTree) *lazyListView {
	v := &lazyListView{mt: mt}
	v.title = widget.NewLabelWithStyle("Select a long array (such as tokenizer.ggml.tokens) to list its entries.",
		fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	v.title.Truncation = fyne.TextTruncateEllipsis
	v.list = widget.NewList(
		func() int {
			if v.cur == nil {
				return 0
			}
			return v.cur.Len
		},
		func() fyne.CanvasObject {
			index := widget.NewLabel("")
			index.Alignment = fyne.TextAlignTrailing
			// A fixed-width index column keeps the values aligned.
			width := canvas.NewRectangle(color.Transparent)
			width.SetMinSize(fyne.NewSize(fyne.MeasureText("0000000", theme.TextSize(), fyne.TextStyle{}).Width+2*theme.Padding(), 0))
			value := widget.NewLabel("")
			value.Truncation = fyne.TextTruncateEllipsis
			return container.NewBorder(nil, nil, container.NewStack(width, index), nil, value)
		},
		func(i widget.ListItemID, o fyne.CanvasObject) {
			c := o.(*fyne.Container)
			index, value := viewmodel.LazyListRow(v.cur, i)
			c.Objects[1].(*fyne.Container).Objects[1].(*widget.Label).SetText(index)
			c.Objects[0].(*widget.Label).SetText(value)
		},
	)
	v.box = container.NewBorder(v.title, nil, nil, nil, v.list)
	return v
}

// show lists the lazy list at id, if it is one; other nodes leave the
// table as it is.
func (v *lazyListView) show(id string) {
	l := v.mt.LazyList(id)
	if l == nil || l == v.cur {
		return
	}
	v.cur = l
	v.title.SetText(v.mt.LazyListTitle(id))
	v.list.UnselectAll()
	v.list.ScrollToTop()
	v.list.Refresh()
}

// metaExtras lays out the document's tables and plots, or returns nil.
func metaExtras(d *viewmodel.Doc) fyne.CanvasObject {
	var parts []fyne.CanvasObject
	for _, t := range d.Doc.Tables {
		parts = append(parts, widget.NewLabelWithStyle(t.Title, fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
			newStaticTable(t.Columns, t.Rows))
	}
	style := plotStyle()
	for _, p := range d.Doc.Plots {
		img, err := viewmodel.RenderPlot(p, 640, 300, style)
		if err != nil {
			parts = append(parts, widget.NewLabel(p.Title+": "+err.Error()))
			continue
		}
		ci := canvas.NewImageFromImage(img)
		ci.FillMode = canvas.ImageFillContain
		ci.SetMinSize(themeSize(640, 300))
		parts = append(parts, container.NewHBox(ci))
	}
	if len(parts) == 0 {
		return nil
	}
	return container.NewVBox(parts...)
}

// newStaticTable shows a small table at its full size (it lives in a
// scrolling column, so it must not scroll itself): one box per column, each
// as wide as its widest cell; labels share one height, so rows line up.
func newStaticTable(cols []string, rows [][]string) fyne.CanvasObject {
	table := container.NewHBox()
	for i, c := range cols {
		col := container.NewVBox(widget.NewLabelWithStyle(c, fyne.TextAlignLeading, fyne.TextStyle{Bold: true}))
		for _, r := range rows {
			text := ""
			if i < len(r) {
				text = r[i]
			}
			col.Add(widget.NewLabel(text))
		}
		table.Add(col)
	}
	return table
}
