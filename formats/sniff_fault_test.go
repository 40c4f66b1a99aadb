package formats

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"tensorscope/tensor"
)

// A file truncated after it was mapped, before sniffing read it, is an
// ErrFault error, not a crash: sniffers read the mapped file (a zip's
// directory at its end) as decoders do.
func TestSniffingATruncatedFileIsAnError(t *testing.T) {
	Register(&Format{ID: "sniff-fault-test", Name: "sniff fault test",
		Sniff: func(b []byte) bool { return len(b) > 4 && string(b[len(b)-4:]) == "TEST" }})
	path := filepath.Join(t.TempDir(), "x.bin")
	if err := os.WriteFile(path, make([]byte, 1<<16), 0o644); err != nil {
		t.Fatal(err)
	}
	st, err := tensor.MapFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := os.Truncate(path, 0); err != nil {
		t.Fatal(err)
	}
	_, err = decode(&Source{Path: path, Data: st.Bytes(), Storage: st})
	if !errors.Is(err, tensor.ErrFault) {
		t.Fatalf("decode of a file truncated under its mapping: %v, want ErrFault", err)
	}
}
