package formats

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An empty file is no format at all: Open says it is empty rather than of
// an unknown format, and Describe words it for the GUI.
func TestOpenEmptyFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "empty.tmfile")
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	doc, err := Open(path)
	if doc != nil || !errors.Is(err, ErrEmpty) || errors.Is(err, ErrUnknownFormat) {
		t.Fatalf("Open(empty) = %v, %v; want ErrEmpty", doc, err)
	}
	if got := err.Error(); got != path+": the file is empty" {
		t.Errorf("error %q", got)
	}
	if got := Describe(path, err); got != "the file is empty" {
		t.Errorf("Describe: %q", got)
	}
	if _, err := OpenBytes("x", []byte{}); !errors.Is(err, ErrEmpty) {
		t.Errorf("OpenBytes(empty): %v", err)
	}
	if _, err := OpenBytes("x", []byte{1}); err == nil || !strings.Contains(err.Error(), "unknown format") {
		t.Errorf("OpenBytes(one byte): %v, want unknown format", err)
	}
}
