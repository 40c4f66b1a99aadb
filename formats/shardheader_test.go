package formats

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"tensorscope/internal/fifo"
)

// lengthPrefixed parses a header of an 8-byte length and that many bytes,
// as safetensors shards have, and returns a copy of the header.
func lengthPrefixed(out *[]byte) func(prefix []byte, size int64) (int64, error) {
	return func(prefix []byte, size int64) (int64, error) {
		if len(prefix) < 8 {
			return 8, nil
		}
		n := int64(binary.LittleEndian.Uint64(prefix))
		if int64(len(prefix)) < 8+n {
			return 8 + n, nil
		}
		*out = append((*out)[:0], prefix[8:8+n]...)
		return 0, nil
	}
}

// ReadHeaderInto reads headers shorter and longer than its first read into
// one buffer that it grows, and agrees with ReadHeader.
func TestReadHeaderInto(t *testing.T) {
	dir := t.TempDir()
	var paths []string
	for i, n := range []int{3, 100, 5000, 10} {
		body := bytes.Repeat([]byte{byte('a' + i)}, n)
		b := binary.LittleEndian.AppendUint64(nil, uint64(n))
		b = append(append(b, body...), "data after the header"...)
		p := filepath.Join(dir, string(rune('a'+i)))
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	var buf []byte
	for i, p := range paths {
		var got, want []byte
		size, err := ReadHeaderInto(&buf, p, 64, lengthPrefixed(&got))
		if err != nil {
			t.Fatal(err)
		}
		st, _ := os.Stat(p)
		if size != st.Size() {
			t.Errorf("%s: size %d, want %d", p, size, st.Size())
		}
		if _, err := ReadHeader(p, 8, lengthPrefixed(&want)); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) || len(got) == 0 || got[0] != byte('a'+i) {
			t.Errorf("%s: %q, ReadHeader read %q", p, got, want)
		}
	}
	if cap(buf) < 5008 {
		t.Errorf("the buffer was not kept: cap %d", cap(buf))
	}
	// A header that claims more than the file holds.
	short := filepath.Join(dir, "short")
	os.WriteFile(short, binary.LittleEndian.AppendUint64(nil, 1000), 0o644)
	var got []byte
	if _, err := ReadHeaderInto(&buf, short, 64, lengthPrefixed(&got)); err == nil {
		t.Error("a header past the end of its file was read")
	}
	if _, err := ReadHeaderInto(&buf, filepath.Join(dir, "missing"), 64, lengthPrefixed(&got)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a missing file: %v", err)
	}
}

// A FIFO is refused, never opened for reading (which would wait for a writer).
func TestReadHeaderIntoRefusesAFIFO(t *testing.T) {
	path := filepath.Join(t.TempDir(), "shard")
	fifo.Make(t, path)
	var buf, got []byte
	_, err := ReadHeaderInto(&buf, path, 64, lengthPrefixed(&got))
	var nr *NotRegularError
	if !errors.As(err, &nr) {
		t.Fatalf("a FIFO: %v", err)
	}
}
