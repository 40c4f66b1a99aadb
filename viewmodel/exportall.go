package viewmodel

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
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
// place. Tensors are loaded one after another (a compressed member is
// inflated when its turn comes); progress counts tensors. The note lists
// what was left out and why.
func ExportAll(ctx context.Context, path string, doc *formats.Document, progress Progress) (note string, err error) {
	if ext := strings.ToLower(filepath.Ext(path)); !containsExt(ExportAllExtensions, ext) {
		return "", fmt.Errorf("export %s: choose a name ending in %s", filepath.Base(path), strings.Join(ExportAllExtensions, ", "))
	}
	var named []safetensors.Named
	var skipped []string
	for i, e := range doc.Tensors {
		if err := ctx.Err(); err != nil {
			return "", err
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
		if _, err := safetensors.EncodeHeader([]safetensors.Named{{Name: e.Name, Tensor: t}}, nil); err != nil {
			skipped = append(skipped, fmt.Sprintf("%s (%s)", e.Name, t.DType()))
			continue
		}
		named = append(named, safetensors.Named{Name: e.Name, Tensor: t})
		if progress != nil {
			progress(int64(i+1), int64(2*len(doc.Tensors)))
		}
	}
	if len(named) == 0 {
		return "", fmt.Errorf("no tensor of this file can be written as safetensors")
	}
	err = WriteFileAtomicContext(ctx, path, func(w io.Writer) error {
		return tensor.CatchFault(func() error { return safetensors.Write(ctx, w, named, nil) })
	})
	if err != nil {
		return "", err
	}
	if len(skipped) > 0 {
		shown := skipped
		if len(shown) > 5 {
			shown = append(shown[:5:5], fmt.Sprintf("and %d more", len(skipped)-5))
		}
		note = fmt.Sprintf("wrote %d tensors; left out %s", len(named), strings.Join(shown, ", "))
	}
	return note, nil
}

func containsExt(list []string, ext string) bool {
	for _, e := range list {
		if e == ext {
			return true
		}
	}
	return false
}
