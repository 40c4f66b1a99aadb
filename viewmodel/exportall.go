package viewmodel

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"tensorscope/formats"
	"tensorscope/tensor"
)

// ExportAll writes every tensor of doc that has data and that the format
// of path can hold to path, under its own name, through a temporary file
// renamed into place. Views derived from another tensor (a quantised
// tensor's scales) are left out: they repeat its data. Tensors are loaded
// one after another (a compressed member is inflated when its turn comes);
// progress counts the tensors loaded for the first half and the bytes
// written for the second. The note is the encoder's (what it widened) and
// lists what was left out and why.
func ExportAll(ctx context.Context, path string, doc *formats.Document, progress Progress) (note string, err error) {
	enc, err := formats.EncoderFor(path)
	if err != nil || !enc.Many {
		return "", fmt.Errorf("export %s: choose a name ending in %s", filepath.Base(path), strings.Join(formats.EncoderExtensions(true), ", "))
	}
	if err := refuseInput(path, doc); err != nil {
		return "", err
	}
	named, skipped, dropped, err := loadForExport(ctx, doc, enc, progress)
	if err != nil {
		return "", err
	}
	if len(named) == 0 {
		return "", fmt.Errorf("no tensor of this file can be written as %s", enc.Extension)
	}
	var total int64
	for _, n := range named {
		total += writtenBytes(n.Tensor)
	}
	var encoderNote string
	err = WriteFileAtomicContext(ctx, path, func(w io.Writer) error {
		if progress != nil {
			half := int64(len(doc.Tensors))
			// The count includes the header: the last writes are capped.
			w = &countingWriter{w: w, report: func(n int64) { progress(half+min(half, half*n/max(total, 1)), 2*half) }}
		}
		// The encoders read tensors through formats.TensorChunks, which
		// catches faults itself.
		var err error
		encoderNote, err = enc.Write(ctx, w, named, dropped)
		return err
	})
	if err != nil {
		return "", err
	}
	notes := []string{encoderNote}
	if len(dropped) > 0 {
		var tied []string
		for drop, kept := range dropped {
			tied = append(tied, drop+" (the same data as "+kept+")")
		}
		slices.Sort(tied)
		notes = append(notes, "tied weights are written once: dropped "+strings.Join(tied, ", "))
	}
	if len(skipped) > 0 {
		shown := skipped
		if len(shown) > 5 {
			shown = append(shown[:5:5], fmt.Sprintf("and %d more", len(skipped)-5))
		}
		notes = append(notes, fmt.Sprintf("wrote %d tensors; left out %s", len(named), strings.Join(shown, ", ")))
	}
	return strings.TrimSpace(strings.Join(notes, "\n")), nil
}

// loadForExport loads every tensor of doc with data that enc accepts, and
// names the others with the reason. Tied weights (one view under two
// names) are loaded once: dropped maps each further name to the name
// written, as Hugging Face's convert script records it in the file's
// metadata. Load catches faults itself.
func loadForExport(ctx context.Context, doc *formats.Document, enc *formats.Encoder, progress Progress) (named []formats.Named, skipped []string, dropped map[string]string, err error) {
	views := map[viewKey][]formats.Named{}
	for i, e := range doc.Tensors {
		if err := ctx.Err(); err != nil {
			return nil, nil, nil, err
		}
		if e.Role == formats.RoleDerived {
			continue
		}
		if !e.HasData() {
			skipped = append(skipped, e.Name+" (no data)")
			continue
		}
		t, err := e.Load(ctx)
		if err != nil {
			return nil, nil, nil, err
		}
		if kept := sameView(views, e.Name, t); kept != "" {
			if dropped == nil {
				dropped = map[string]string{}
			}
			dropped[e.Name] = kept
			continue
		}
		n := formats.Named{Name: e.Name, Tensor: t}
		if enc.Check != nil {
			if err := enc.Check(n); err != nil {
				skipped = append(skipped, fmt.Sprintf("%s (%s)", e.Name, t.DType()))
				continue
			}
		}
		named = append(named, n)
		if progress != nil {
			progress(int64(i+1), int64(2*len(doc.Tensors)))
		}
	}
	return named, skipped, dropped, nil
}

// viewKey is where a view starts; views that start at the same place are
// compared in full by sameView.
type viewKey struct {
	storage *tensor.Storage
	offset  int
}

// sameView returns the name of a tensor already seen that is the very view
// t is (same storage, offset, dtype, byte order, shape and strides), or "";
// otherwise it records t under name.
func sameView(seen map[viewKey][]formats.Named, name string, t *tensor.Tensor) string {
	k := viewKey{t.Storage(), t.Offset()}
	for _, n := range seen[k] {
		u := n.Tensor
		if u.DType() == t.DType() && u.IsBigEndian() == t.IsBigEndian() &&
			slices.Equal(u.Shape(), t.Shape()) && slices.Equal(u.Strides(), t.Strides()) {
			return n.Name
		}
	}
	seen[k] = append(seen[k], formats.Named{Name: name, Tensor: t})
	return ""
}

// writtenBytes estimates the bytes an export writes for t, for progress
// only: its stored size, or float32's for the block-quantised types
// encoders widen. A size past int64 (which no file holds) counts as none.
func writtenBytes(t *tensor.Tensor) int64 {
	dt := t.DType()
	if dt.BlockQuantized() {
		dt = tensor.Float32
	}
	size, err := tensor.StorageBytes(dt, int64(t.Len()))
	if err != nil {
		return 0
	}
	return size
}

// ExportAll writes all of the document's tensors to path (see ExportAll)
// in the background, with progress; the task can be cancelled.
func (d *Doc) ExportAll(path string, onProgress func(frac float64), done func(note string, err error)) *Task {
	doc := d.Doc
	return Go(d, func(ctx context.Context, progress Progress) (string, error) {
		return ExportAll(ctx, path, doc, progress)
	}, onProgress, done)
}
