package formats_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tensorscope/formats"
	"tensorscope/internal/fifo"
)

// A FIFO named like a tensor file is refused with a message, at once:
// opening it would wait for a writer forever.
func TestOpenRefusesAFIFO(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.npy")
	fifo.Make(t, path)
	var err error
	fifo.Within(t, 5*time.Second, "formats.Open of a FIFO", func() {
		var doc *formats.Document
		if doc, err = formats.Open(path); doc != nil {
			doc.Close()
		}
	})
	var nr *formats.NotRegularError
	if !errors.As(err, &nr) || !strings.Contains(err.Error(), "named pipe (FIFO), not a regular file") ||
		!strings.HasPrefix(err.Error(), path+": ") {
		t.Fatalf("error %v, want a refusal naming the FIFO", err)
	}
	if got := formats.Describe(path, err); strings.Contains(got, path) || !strings.HasPrefix(got, "a named pipe") {
		t.Errorf("Describe: %q", got)
	}
	// Through a symbolic link too.
	link := filepath.Join(dir, "b.npy")
	if err := os.Symlink(path, link); err != nil {
		t.Fatal(err)
	}
	fifo.Within(t, 5*time.Second, "formats.Open of a link to a FIFO", func() { _, err = formats.Open(link) })
	if !errors.As(err, &nr) {
		t.Errorf("link to a FIFO: %v", err)
	}
}

// Regular files, and links to them, pass; folders do not.
func TestCheckRegular(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "x.bin")
	if err := os.WriteFile(file, []byte("data"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.bin")
	if err := os.Symlink(file, link); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{file, link} {
		if err := formats.CheckRegular(p); err != nil {
			t.Errorf("%s: %v", p, err)
		}
		f, st, err := formats.OpenRegular(p)
		if err != nil || st.Size() != 4 {
			t.Errorf("OpenRegular(%s): %v, %v", p, st, err)
		} else {
			f.Close()
		}
	}
	if err := formats.CheckRegular(dir); err == nil || !strings.Contains(err.Error(), "a folder, not a regular file") {
		t.Errorf("folder: %v", err)
	}
	if _, err := formats.Open(dir); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("Open(folder): %v", err)
	}
	if err := formats.CheckRegular(filepath.Join(dir, "none")); !formats.IsNotExist(err) {
		t.Errorf("missing file: %v", err)
	}
}
