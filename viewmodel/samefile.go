package viewmodel

import (
	"fmt"
	"os"
	"path/filepath"

	"tensorscope/formats"
)

// DocAt returns the open document read from the file at path, under
// whatever name it was opened (a relative path, a symlink), or nil.
func (w *Workspace) DocAt(path string) *Doc {
	for _, d := range w.Docs {
		if d.Source.Path != "" && SameFile(d.Source.Path, path) {
			return d
		}
	}
	return nil
}

// SameFile reports whether a and b name the same file. Paths of files that
// cannot be examined (deleted since) are compared after cleaning.
func SameFile(a, b string) bool {
	sa, errA := os.Stat(a)
	sb, errB := os.Stat(b)
	if errA == nil && errB == nil {
		return os.SameFile(sa, sb)
	}
	absA, errA := filepath.Abs(a)
	absB, errB := filepath.Abs(b)
	return errA == nil && errB == nil && absA == absB
}

// refuseInput fails when path is a file doc was read from (the file
// itself or one of its shards): an export is renamed over its target, and
// the input must never be replaced.
func refuseInput(path string, doc *formats.Document) error {
	if doc == nil {
		return nil
	}
	inputs := []string{doc.Path}
	for _, s := range doc.Shards() {
		inputs = append(inputs, s.Path)
	}
	for _, in := range inputs {
		if in != "" && SameFile(path, in) {
			return fmt.Errorf("export %s: that is the file being read; choose another name", filepath.Base(path))
		}
	}
	return nil
}
