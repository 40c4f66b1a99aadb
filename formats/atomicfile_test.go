package formats

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// Whatever stops a write (an error, a panic) leaves neither the output nor
// the temporary file; a write that succeeds leaves only the output.
func TestWriteFileAtomicLeavesNoTemporaryFile(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out.png")
	listing := func() []string {
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		return names
	}
	boom := errors.New("boom")
	if err := WriteFileAtomic(out, func(w io.Writer) error { w.Write([]byte("half")); return boom }); err != boom {
		t.Errorf("error %v", err)
	}
	if names := listing(); len(names) != 0 {
		t.Errorf("after a failed write the folder holds %v", names)
	}
	func() {
		defer func() {
			if r := recover(); r != "render failed" {
				t.Errorf("recovered %v, want the write's panic", r)
			}
		}()
		WriteFileAtomic(out, func(w io.Writer) error { w.Write([]byte("half")); panic("render failed") })
	}()
	if names := listing(); len(names) != 0 {
		t.Errorf("after a panicking write the folder holds %v", names)
	}
	if err := WriteFileAtomic(out, func(w io.Writer) error { _, err := w.Write([]byte("whole")); return err }); err != nil {
		t.Fatal(err)
	}
	if names := listing(); len(names) != 1 || names[0] != "out.png" {
		t.Errorf("after a good write the folder holds %v", names)
	}
}
