package viewmodel

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFailedFileShowsTheBytesWhereDecodingStopped(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "bad.tsr")
	writeTSR4(t, path, 0, []int{64, 64})
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	data = data[:len(data)-100] // the tensor's data runs past the end
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	q := NewQueue()
	w := NewWorkspace(q.Post, MemPrefs{})
	var openErr error
	done := false
	w.Open(path, func(_ *Doc, err error) { openErr, done = err, true })
	if !q.Drain(func() bool { return !done }, 20e9) {
		t.Fatal("open did not finish")
	}
	if openErr == nil {
		t.Fatal("a truncated file opened")
	}
	f := NewFailedFile(path, openErr)
	if f == nil {
		t.Fatal("no failed-file view for a file that exists")
	}
	defer f.Close()
	if f.Offset < 0 || !strings.Contains(openErr.Error(), "at byte") {
		t.Fatalf("offset %d for error %v", f.Offset, openErr)
	}
	if start, end := f.Hex.Window(); f.Offset < start || f.Offset >= end {
		t.Errorf("the hex view shows [%d,%d), not the failure at %d", start, end, f.Offset)
	}
	if len(f.Hex.MarkHighlight()) == 0 {
		t.Error("the failing byte is not marked")
	}
	if NewFailedFile(filepath.Join(dir, "missing.tsr"), openErr) != nil {
		t.Error("a failed-file view for a file that does not exist")
	}
}
