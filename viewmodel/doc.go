package viewmodel

import (
	"context"
	"path/filepath"

	"tensorscope/formats"
)

// Doc is one tab: an open document and the state of its panes.
type Doc struct {
	Source  Source
	Doc     *formats.Document
	Tensors *TensorList
	Header  *HeaderView
	Meta    *MetaTree
	// Inspector shows the selected tensor of this document.
	Inspector *Inspector

	post Poster
	work []*Task // background work besides the inspector's (exports, layouts)

	overview   *Overview         // see Overview
	overviewOf *formats.Document // the document it summarises
}

func newDoc(post Poster, d *formats.Document, src Source) *Doc {
	doc := &Doc{Source: src, post: post, Inspector: NewInspector(post)}
	doc.replace(d)
	if len(d.Tensors) == 1 && opensByItself(d.Tensors[0]) {
		// A file of one tensor is opened to look at it: show it at once.
		doc.Inspector.Show(0, d.Tensors[0])
	}
	return doc
}

// ShowOpening shows the tensor a file opens on, when none is shown: a
// file is opened to look at it, so one of many tensors opens on its first
// weight (TensorList.OpeningRow). The viewer calls it on opening a tab;
// headless renders choose their tensor themselves.
func (d *Doc) ShowOpening() {
	if d.Inspector.Index() >= 0 {
		return
	}
	if row := d.Tensors.OpeningRow(); row >= 0 {
		i := d.Tensors.Index(row)
		d.Inspector.Show(i, d.Doc.Tensors[i])
	}
}

// replace installs a (re)loaded document, keeping the user's filter, sort
// and inspected tensor (with its plane, sliders and zoom) where they still
// make sense. The old document is closed: work still reading it holds it,
// and it is unmapped when the last of that returns.
func (d *Doc) replace(fd *formats.Document) {
	old := d.Doc
	place := d.Inspector.place()
	d.Doc = fd
	if d.Tensors == nil {
		d.Tensors = NewTensorList(fd.Tensors)
	} else {
		d.Tensors.SetEntries(fd.Tensors)
	}
	d.Header = NewHeaderView(fd)
	d.Meta = NewMetaTree(fd.Metadata)
	if old != nil {
		d.Inspector.OnChange = nil
		d.stopWork()
		d.Inspector.Clear()
		old.Close()
	}
	d.Inspector.setDocument(fd)
	if old != nil {
		d.Inspector.restorePlace(place, fd.Tensors)
	}
}

// Go starts work on this tab's document in the background (see StartTask);
// closing or reloading the tab cancels it.
func Go[T any](d *Doc, work func(ctx context.Context, progress Progress) (T, error),
	onProgress func(frac float64), onDone func(T, error)) *Task {
	t := StartTask(d.post, d.Doc, work, onProgress, onDone)
	d.forgetFinished()
	d.work = append(d.work, t)
	return t
}

// forgetFinished drops tasks whose work has returned.
func (d *Doc) forgetFinished() {
	keep := d.work[:0]
	for _, t := range d.work {
		if !t.Finished() {
			keep = append(keep, t)
		}
	}
	d.work = keep
}

// stopWork cancels the inspector's and the tab's other background work.
func (d *Doc) stopWork() {
	d.Inspector.Close()
	for _, t := range d.work {
		t.Cancel()
	}
	d.work = nil
}

// Title is the tab label: the file name.
func (d *Doc) Title() string {
	if d.Source.Path != "" {
		return filepath.Base(d.Source.Path)
	}
	return d.Source.Name
}

func (d *Doc) close() {
	if d.Doc != nil {
		d.Inspector.OnChange = nil
		d.stopWork()
		d.Doc.Close()
	}
}

// Warnings are the document's warnings as lines of text.
func (d *Doc) Warnings() []string {
	out := make([]string, len(d.Doc.Warnings))
	for i, w := range d.Doc.Warnings {
		out[i] = w.String()
	}
	return out
}
