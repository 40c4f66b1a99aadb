package formats

import (
	"os"
	"path/filepath"
	"testing"
)

func TestOpenUndecoded(t *testing.T) {
	path := filepath.Join(t.TempDir(), "garbage.bin")
	if err := os.WriteFile(path, []byte("not a model"), 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := OpenUndecoded(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(d.Bytes()) != "not a model" || d.Size != 11 || d.Format != "" {
		t.Errorf("bytes %q, size %d, format %q", d.Bytes(), d.Size, d.Format)
	}
	d.Close()
	if _, _, err := d.Acquire(t.Context()); err != ErrClosed {
		t.Errorf("Acquire after Close: %v, want ErrClosed", err)
	}
	if _, err := OpenUndecoded(t.TempDir()); err == nil {
		t.Error("a folder opened")
	}
}
