package viewmodel

import (
	"tensorscope/formats"
	_ "tensorscope/formats/all" // every codec
)

// Workspace is the set of open documents, one per tab.
type Workspace struct {
	Docs []*formats.Document
}

// Open decodes the file at path and adds it as a new tab.
func (w *Workspace) Open(path string) (*formats.Document, error) {
	d, err := formats.Open(path)
	if err != nil {
		return nil, err
	}
	w.Docs = append(w.Docs, d)
	return d, nil
}
