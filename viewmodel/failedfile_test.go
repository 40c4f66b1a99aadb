package viewmodel

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"tensorscope/formats"
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
	// The TSR4 header was read before the data ran short: its fields show.
	var names []string
	for _, h := range f.Hex.Fields {
		names = append(names, h.Name)
	}
	if !slices.Contains(names, "magic") || !slices.Contains(names, "tensor_count") {
		t.Errorf("header fields decoded before the failure: %v", names)
	}
	if NewFailedFile(filepath.Join(dir, "missing.tsr"), openErr) != nil {
		t.Error("a failed-file view for a file that does not exist")
	}
}

// Each codec's partial header reaches the failed tab: a GGUF file cut after
// its counts, an .npy whose header dict is broken, a safetensors file whose
// JSON is broken.
func TestFailedFileKeepsTheHeaderDecodedBeforeTheFailure(t *testing.T) {
	dir := t.TempDir()
	gguf := []byte("GGUF\x03\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00")
	gguf = append(gguf, "\xff\xff\xff\xff\x00\x00\x00\x00"...) // a key longer than the file
	gguf = append(gguf, make([]byte, 40)...)
	npy := []byte("\x93NUMPY\x01\x00\x16\x00{'descr': '<f4', 'sh\n")
	js := `{"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4x]}}`
	st := append([]byte{byte(len(js)), 0, 0, 0, 0, 0, 0, 0}, js+"\x00\x00\x00\x00"...)
	for name, data := range map[string][]byte{"cut.gguf": gguf, "bad.npy": npy, "cut.safetensors": st} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := formats.Open(path)
		if err == nil {
			t.Fatalf("%s opened", name)
		}
		f := NewFailedFile(path, err)
		if f == nil {
			t.Fatalf("%s: no failed view", name)
		}
		if len(f.Hex.Fields) == 0 {
			t.Errorf("%s (%v): no header fields", name, err)
		}
		f.Close()
	}
}
