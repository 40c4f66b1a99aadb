package viewmodel

import (
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
}

func newDoc(post Poster, d *formats.Document, src Source) *Doc {
	doc := &Doc{Source: src, post: post, Inspector: NewInspector(post)}
	doc.replace(d)
	return doc
}

// replace installs a (re)loaded document, keeping the user's filter, sort
// and inspected tensor (with its plane, sliders and zoom) where they still
// make sense.
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
		closeAfter(old, d.Inspector.Close())
		d.Inspector.Clear()
		d.Inspector.restorePlace(place, fd.Tensors)
	}
}

// closeAfter releases a document's file once background work that may
// still read its mapped bytes has returned (they were cancelled; this only
// waits for them to notice).
func closeAfter(old *formats.Document, tasks []*Task) {
	if len(tasks) == 0 {
		old.Close()
		return
	}
	go func() {
		for _, t := range tasks {
			t.Wait()
		}
		old.Close()
	}()
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
		closeAfter(d.Doc, d.Inspector.Close())
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
