package viewmodel

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"tensorscope/formats"
	"tensorscope/formats/safetensors"
	"tensorscope/tensor"
)

// ExportAllExtensions are the file endings ExportAll writes: formats that
// hold many named tensors.
var ExportAllExtensions = []string{".safetensors"}

// ExportAll writes every tensor of doc that has data and a safetensors
// dtype to path, under its own name, through a temporary file renamed into
// place. Views derived from another tensor (a quantised tensor's scales)
// are left out: they repeat its data. Tensors are loaded one after another
// (a compressed member is inflated when its turn comes); progress counts
// the tensors loaded for the first half and the bytes written for the
// second. The note lists what was left out and why.
func ExportAll(ctx context.Context, path string, doc *formats.Document, progress Progress) (note string, err error) {
	if ext := strings.ToLower(filepath.Ext(path)); !containsExt(ExportAllExtensions, ext) {
		return "", fmt.Errorf("export %s: choose a name ending in %s", filepath.Base(path), strings.Join(ExportAllExtensions, ", "))
	}
	if err := refuseInput(path, doc); err != nil {
		return "", err
	}
	var named []safetensors.Named
	var skipped, tied []string
	dropped := map[string]string{} // tied name → the name written, as Hugging Face's convert script records it
	views := map[viewKey][]safetensors.Named{}
	converted := 0 // block-quantised tensors, written dequantised
	for i, e := range doc.Tensors {
		if err := ctx.Err(); err != nil {
			return "", err
		}
		if e.Role == formats.RoleDerived {
			continue
		}
		if !e.HasData() {
			skipped = append(skipped, e.Name+" (no data)")
			continue
		}
		var t *tensor.Tensor
		err := tensor.CatchFault(func() error {
			var err error
			t, err = e.Load(ctx)
			return err
		})
		if err != nil {
			return "", err
		}
		if kept := sameView(views, e.Name, t); kept != "" {
			// Tied weights (one storage under two names) are written once.
			tied = append(tied, e.Name+" (the same data as "+kept+")")
			dropped[e.Name] = kept
			continue
		}
		n := safetensors.Named{Name: e.Name, Tensor: t, AsFloat32: t.DType().BlockQuantized()}
		if _, err := safetensors.EncodeHeader([]safetensors.Named{n}, nil); err != nil {
			skipped = append(skipped, fmt.Sprintf("%s (%s)", e.Name, t.DType()))
			continue
		}
		if n.AsFloat32 {
			converted++
		}
		named = append(named, n)
		if progress != nil {
			progress(int64(i+1), int64(2*len(doc.Tensors)))
		}
	}
	if len(named) == 0 {
		return "", fmt.Errorf("no tensor of this file can be written as safetensors")
	}
	var total int64
	for _, n := range named {
		dt := n.Tensor.DType()
		if n.AsFloat32 {
			dt = tensor.Float32
		}
		size, _ := tensor.StorageBytes(dt, int64(n.Tensor.Len()))
		total += size
	}
	err = WriteFileAtomicContext(ctx, path, func(w io.Writer) error {
		if progress != nil {
			half := int64(len(doc.Tensors))
			// The count includes the header: the last writes are capped.
			w = &countingWriter{w: w, report: func(n int64) { progress(half+min(half, half*n/max(total, 1)), 2*half) }}
		}
		var metadata map[string]string
		if len(dropped) > 0 {
			metadata = dropped
		}
		return tensor.CatchFault(func() error { return safetensors.Write(ctx, w, named, metadata) })
	})
	if err != nil {
		return "", err
	}
	var notes []string
	if converted > 0 {
		notes = append(notes, fmt.Sprintf("%d block-quantised tensors are written as float32, dequantised: safetensors has no such types", converted))
	}
	if len(tied) > 0 {
		notes = append(notes, "tied weights are written once: dropped "+strings.Join(tied, ", "))
	}
	if len(skipped) > 0 {
		shown := skipped
		if len(shown) > 5 {
			shown = append(shown[:5:5], fmt.Sprintf("and %d more", len(skipped)-5))
		}
		notes = append(notes, fmt.Sprintf("wrote %d tensors; left out %s", len(named), strings.Join(shown, ", ")))
	}
	return strings.Join(notes, "\n"), nil
}

// ExportAll writes all of the document's tensors to path (see ExportAll)
// in the background, with progress; the task can be cancelled.
func (d *Doc) ExportAll(path string, onProgress func(frac float64), done func(note string, err error)) *Task {
	doc := d.Doc
	return Go(d, func(ctx context.Context, progress Progress) (string, error) {
		return ExportAll(ctx, path, doc, progress)
	}, onProgress, done)
}

// viewKey is where a view starts; views that start at the same place
// are compared in full by sameView.
type viewKey struct {
	storage *tensor.Storage
	offset  int
}

// sameView returns the name of a tensor already written that is the very
// view t is (same storage, offset, dtype, shape and strides), or "";
// otherwise it records t under name.
func sameView(seen map[viewKey][]safetensors.Named, name string, t *tensor.Tensor) string {
	k := viewKey{t.Storage(), t.Offset()}
	for _, n := range seen[k] {
		u := n.Tensor
		if u.DType() == t.DType() && u.IsBigEndian() == t.IsBigEndian() &&
			slices.Equal(u.Shape(), t.Shape()) && slices.Equal(u.Strides(), t.Strides()) {
			return n.Name
		}
	}
	seen[k] = append(seen[k], safetensors.Named{Name: name, Tensor: t})
	return ""
}

func containsExt(list []string, ext string) bool {
	for _, e := range list {
		if e == ext {
			return true
		}
	}
	return false
}
