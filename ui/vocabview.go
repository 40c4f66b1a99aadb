package ui

import (
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"tensorscope/viewmodel"
)

// vocabColumnWidths are the widths of the vocabulary table's columns, in
// the order of viewmodel.VocabColumn: id, token, score, type, merge.
var vocabColumnWidths = [...]float32{80, 280, 100, 110, 260}

// vocabView shows a GGUF tokenizer's parallel arrays as one table (id,
// token, score, type, and for BPE the merge that makes the token) that
// reads only the rows on screen, with a find box:
// text finds the next token containing it (as you type, and Enter for the
// next), digits jump to that id.
type vocabView struct {
	v      *viewmodel.Vocabulary
	box    *fyne.Container
	find   *keyEntry
	result *widget.Label
	bar    *fyne.Container
	table  *keyTable
}

func newVocabView(win fyne.Window, v *viewmodel.Vocabulary) *vocabView {
	w := &vocabView{v: v}
	cols := v.Columns()
	title := widget.NewLabelWithStyle(v.Title(), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	title.Truncation = fyne.TextTruncateEllipsis
	w.result = widget.NewLabel("")
	w.table = newKeyTable(win,
		func() (int, int) { return v.Len(), len(cols) },
		func() fyne.CanvasObject {
			l := widget.NewLabel("")
			l.Truncation = fyne.TextTruncateEllipsis
			return l
		},
		func(id widget.TableCellID, o fyne.CanvasObject) {
			if id.Col >= 0 && id.Col < len(cols) {
				o.(*widget.Label).SetText(v.Row(id.Row)[cols[id.Col]])
			}
		})
	w.table.ShowHeaderColumn = false
	w.table.UpdateHeader = func(id widget.TableCellID, o fyne.CanvasObject) {
		if id.Col >= 0 && id.Col < len(cols) {
			l := o.(*widget.Label)
			l.TextStyle.Bold = true
			l.SetText(viewmodel.VocabColumnTitles[cols[id.Col]])
		}
	}
	for i, col := range cols {
		w.table.SetColumnWidth(i, themePx(vocabColumnWidths[col]))
	}
	w.find = newKeyEntry(windowKeys(win))
	w.find.SetPlaceHolder("Find a token by text, or an id (Enter: next)")
	w.find.nav = w.table.navigate
	w.find.OnChanged = func(text string) { w.search(text, max(w.table.row, 0)) }
	w.find.OnSubmitted = func(text string) { w.search(text, w.table.row+1) }
	w.bar = container.NewBorder(nil, nil, nil, w.result, w.find)
	w.box = container.NewBorder(container.NewVBox(title, w.bar), nil, nil, nil, w.table)
	return w
}

// search selects and scrolls to the first token from row from on (wrapping)
// that query finds, and says what it found.
func (w *vocabView) search(query string, from int) {
	row := -1
	if query != "" {
		row = w.v.Find(query, from)
	}
	switch {
	case query == "":
		w.result.SetText("")
	case row < 0:
		w.result.SetText("not found")
	default:
		w.result.SetText(fmt.Sprintf("id %d", row))
	}
	w.bar.Refresh() // the result's width changed
	if row < 0 {
		return
	}
	w.table.Select(widget.TableCellID{Row: row, Col: 0})
	w.table.ScrollTo(widget.TableCellID{Row: row, Col: 0})
}
