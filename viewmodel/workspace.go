package viewmodel

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"tensorscope/formats"
	_ "tensorscope/formats/all" // every codec registers itself
)

// Workspace is the set of open documents, one per tab, and the recent-files
// list. All methods run on the UI goroutine; opening happens in the
// background and reports back through the Poster.
type Workspace struct {
	post   Poster
	Docs   []*Doc
	Recent *Recent

	// OnChange is called after a document was added, closed or reloaded.
	OnChange func()
}

// NewWorkspace returns an empty workspace that posts results through post
// and keeps recent files in prefs.
func NewWorkspace(post Poster, prefs Prefs) *Workspace {
	return &Workspace{post: post, Recent: NewRecent(prefs)}
}

// Open decodes the file at path in the background and appends it as a new
// tab. done (may be nil) receives the tab or a readable error.
func (w *Workspace) Open(path string, done func(*Doc, error)) *Task {
	return StartTask(w.post, nil, func(ctx context.Context, _ Progress) (*formats.Document, error) {
		return formats.Open(path)
	}, nil, func(d *formats.Document, err error) {
		if err != nil {
			if formats.IsNotExist(err) {
				w.Recent.Remove(path)
			}
			err = OpenError(path, err)
		} else {
			w.Recent.Add(path)
		}
		w.finishOpen(d, Source{Path: path}, err, done)
	})
}

// OpenBytes opens an in-memory file (the embedded demo model) as a tab.
func (w *Workspace) OpenBytes(name string, data []byte, done func(*Doc, error)) *Task {
	return StartTask(w.post, nil, func(ctx context.Context, _ Progress) (*formats.Document, error) {
		return formats.OpenBytes(name, data)
	}, nil, func(d *formats.Document, err error) {
		w.finishOpen(d, Source{Name: name, Data: data}, OpenError(name, err), done)
	})
}

func (w *Workspace) finishOpen(d *formats.Document, src Source, err error, done func(*Doc, error)) {
	var doc *Doc
	if err == nil {
		doc = newDoc(w.post, d, src)
		w.Docs = append(w.Docs, doc)
		w.changed()
	}
	if done != nil {
		done(doc, err)
	}
}

// Close closes the tab showing doc and releases its file.
func (w *Workspace) Close(doc *Doc) {
	for i, d := range w.Docs {
		if d == doc {
			w.Docs = slices.Delete(w.Docs, i, i+1)
			d.close()
			w.changed()
			return
		}
	}
}

// Reload reads doc's file again (it may have changed on disk) and replaces
// the tab's document, keeping its place. On error the old document stays.
func (w *Workspace) Reload(doc *Doc, done func(error)) *Task {
	return w.ReloadFrom(doc, doc.Source, done)
}

// ReloadFrom replaces doc's file by src's, keeping the user's place as a
// reload does: how a followed folder moves to its next checkpoint.
func (w *Workspace) ReloadFrom(doc *Doc, src Source, done func(error)) *Task {
	return StartTask(w.post, nil, func(ctx context.Context, _ Progress) (*formats.Document, error) {
		if src.Path != "" {
			return formats.Open(src.Path)
		}
		return formats.OpenBytes(src.Name, src.Data)
	}, nil, func(d *formats.Document, err error) {
		if err != nil {
			if done != nil {
				done(OpenError(src.Display(), err))
			}
			return
		}
		doc.Source = src
		doc.replace(d)
		w.changed()
		if done != nil {
			done(nil)
		}
	})
}

// CloseAll releases every document (application exit).
func (w *Workspace) CloseAll() {
	for _, d := range w.Docs {
		d.close()
	}
	w.Docs = nil
}

func (w *Workspace) changed() {
	if w.OnChange != nil {
		w.OnChange()
	}
}

// Source says where a document came from, so it can be reloaded.
type Source struct {
	Path string // file on disk
	Name string // in-memory document name
	Data []byte
}

// Display is the path or name to show.
func (s Source) Display() string {
	if s.Path != "" {
		return s.Path
	}
	return s.Name
}

// OpenError words a failure to open for a dialog: it names the file, then
// the problem, with its byte offset when it has one.
func OpenError(path string, err error) error {
	if err == nil {
		return nil
	}
	return &openError{path: path, err: err}
}

type openError struct {
	path string
	err  error
}

func (e *openError) Error() string {
	return fmt.Sprintf("Could not open %s: %s", filepath.Base(e.path), formats.Describe(e.path, e.err))
}

func (e *openError) Unwrap() error { return e.err }

// SupportedExtensions lists the usual file name endings (without dots) of
// every registered format, for file dialogs.
func SupportedExtensions() []string {
	seen := map[string]bool{}
	var out []string
	for _, f := range formats.Formats() {
		for _, e := range f.Extensions {
			e = strings.TrimPrefix(e, ".")
			if !seen[e] {
				seen[e] = true
				out = append(out, e)
			}
		}
	}
	return out
}
