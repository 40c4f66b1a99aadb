package zipfile

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tensorscope/formats"
	"tensorscope/internal/samples"
)

// zipSampleDirs hold zip archives among the samples: NumPy's .npz files
// and PyTorch's checkpoints.
var zipSampleDirs = []string{"npy/numpy", "npy/npyz", "npy/npyio", "npy/generated-numpy-1.24.2",
	"pytorch/burn", "pytorch/candle", "pytorch/djl", "pytorch/generated-torch-1.13", "pytorch/gopickle", "pytorch/pickle-jl", "pytorch/tch-rs"}

// compareWithArchiveZip fails unless Read accepts b exactly when
// archive/zip does, and reads the same records and data offsets (from the
// mapping and through a ReaderAt).
func compareWithArchiveZip(t *testing.T, b []byte) {
	t.Helper()
	zr, zerr := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if errors.Is(zerr, zip.ErrInsecurePath) {
		zerr = nil // names are never used as paths
	}
	d, err := Read(b)
	if (zerr == nil) != (err == nil) {
		t.Fatalf("archive/zip: %v; Read: %v", zerr, err)
	}
	if err != nil {
		var fe *formats.Error
		if !errors.As(err, &fe) || !strings.HasPrefix(fe.Msg, "zip") {
			t.Fatalf("error without a byte offset or a zip prefix: %#v", err)
		}
		return
	}
	if d.Len() != len(zr.File) {
		t.Fatalf("%d records, archive/zip reads %d", d.Len(), len(zr.File))
	}
	i := 0
	d.Each(func(m *Member) {
		f := zr.File[i]
		i++
		if string(m.Name) != f.Name || m.Flags != f.Flags || m.Method != f.Method || m.CRC32 != f.CRC32 ||
			m.CompressedSize != f.CompressedSize64 || m.UncompressedSize != f.UncompressedSize64 {
			t.Fatalf("record %d: %q flags %#x method %d crc %#x sizes %d/%d; archive/zip: %q %#x %d %#x %d/%d",
				i-1, m.Name, m.Flags, m.Method, m.CRC32, m.CompressedSize, m.UncompressedSize,
				f.Name, f.Flags, f.Method, f.CRC32, f.CompressedSize64, f.UncompressedSize64)
		}
		at, err := d.DataOffset(m)
		zat, zerr := f.DataOffset()
		if (err == nil) != (zerr == nil) || (err == nil && at != zat) {
			t.Fatalf("record %d (%q): data at %d, %v; archive/zip: %d, %v", i-1, m.Name, at, err, zat, zerr)
		}
		if rat, rerr := d.ReadDataOffset(bytes.NewReader(b), m); rat != at || (rerr == nil) != (err == nil) {
			t.Fatalf("record %d (%q): data at %d, %v through a ReaderAt; %d, %v from the mapping", i-1, m.Name, rat, rerr, at, err)
		}
		if err != nil {
			var fe *formats.Error
			if !errors.As(err, &fe) {
				t.Fatalf("error without a byte offset: %v", err)
			}
		}
	})
}

// TestDirectorySamples reads every sample archive as archive/zip does.
func TestDirectorySamples(t *testing.T) {
	n := 0
	for _, dir := range zipSampleDirs {
		for _, p := range samples.Files(t, dir) {
			if ext := filepath.Ext(p); ext != ".npz" && ext != ".pt" && ext != ".pth" && ext != ".bin" {
				continue
			}
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			t.Run(filepath.Base(p), func(t *testing.T) { compareWithArchiveZip(t, b) })
			n++
		}
	}
	if n == 0 {
		t.Fatal("no sample archives")
	}
}

// writtenZips are archives the tests write: stored and deflated members,
// data descriptors, a comment, bytes before the archive, Zip64 records.
func writtenZips(t testing.TB) map[string][]byte {
	out := map[string][]byte{}
	build := func(name string, prefix []byte, members int, comment string, big bool) {
		var buf bytes.Buffer
		buf.Write(prefix)
		zw := zip.NewWriter(&buf)
		zw.SetOffset(int64(len(prefix)))
		for i := range members {
			fh := &zip.FileHeader{Name: "m" + string(rune('a'+i%26)) + ".npy", Method: zip.Store}
			if i%2 == 1 {
				fh.Method = zip.Deflate
			}
			if big {
				fh.UncompressedSize64 = 1 << 32 // makes the writer use Zip64 sizes
			}
			w, err := zw.CreateHeader(fh)
			if err != nil {
				t.Fatal(err)
			}
			w.Write([]byte("\x93NUMPY\x01\x00"))
		}
		zw.SetComment(comment)
		zw.Close()
		out[name] = buf.Bytes()
	}
	build("empty", nil, 0, "", false)
	build("three", nil, 3, "", false)
	build("comment", nil, 2, "a comment PK\x05\x06 inside", false)
	build("prefixed", []byte("#!/bin/sh\nexit 0\n"), 2, "", false)
	var raw bytes.Buffer
	zw := zip.NewWriter(&raw)
	w, _ := zw.CreateRaw(&zip.FileHeader{Name: "z.npy", Method: zip.Store, CompressedSize64: 3, UncompressedSize64: 3})
	w.Write([]byte("abc"))
	zw.Close()
	out["raw"] = raw.Bytes()
	return out
}

// TestDirectoryHostile holds the reader to archive/zip on the written
// archives and on every truncation and many one-byte changes of them.
func TestDirectoryHostile(t *testing.T) {
	for name, b := range writtenZips(t) {
		t.Run(name, func(t *testing.T) {
			compareWithArchiveZip(t, b)
			for n := range len(b) {
				compareWithArchiveZip(t, b[:n])
			}
			c := bytes.Clone(b)
			for i := range c {
				for _, v := range []byte{0, 0xff, c[i] ^ 1} {
					old := c[i]
					c[i] = v
					compareWithArchiveZip(t, c)
					c[i] = old
				}
			}
		})
	}
}

// TestDirectoryZip64 reads an archive of more than 65,535 records,
// which needs Zip64's end records, and one whose count wrapped.
func TestDirectoryZip64(t *testing.T) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for range 70_000 {
		if _, err := zw.CreateHeader(&zip.FileHeader{Name: "a.npy", Method: zip.Store}); err != nil {
			t.Fatal(err)
		}
	}
	zw.Close()
	b := buf.Bytes()
	if !bytes.Contains(b[len(b)-200:], []byte("PK\x06\x06")) {
		t.Fatal("no Zip64 end record")
	}
	compareWithArchiveZip(t, b)
	// A writer that keeps only 16 bits of the count, without Zip64.
	end := bytes.LastIndex(b, []byte("PK\x05\x06"))
	end64 := bytes.LastIndex(b, []byte("PK\x06\x06"))
	dirOffset := binary.LittleEndian.Uint64(b[end64+48:])
	dirSize := binary.LittleEndian.Uint64(b[end64+40:])
	short := append([]byte(nil), b[:dirOffset+dirSize]...)
	e := append([]byte(nil), b[end:]...)
	binary.LittleEndian.PutUint16(e[8:], uint16(70_000%65536))
	binary.LittleEndian.PutUint16(e[10:], uint16(70_000%65536))
	binary.LittleEndian.PutUint32(e[12:], uint32(dirSize))
	binary.LittleEndian.PutUint32(e[16:], uint32(dirOffset))
	short = append(short, e...)
	compareWithArchiveZip(t, short)
	d, err := Read(short)
	if err != nil || d.Len() != 70_000 {
		t.Fatalf("wrapped count: %v", err)
	}
}

// TestDirectoryErrorsNameTheByte checks the messages of the usual
// failures.
func TestDirectoryErrorsNameTheByte(t *testing.T) {
	b := writtenZips(t)["three"]
	end := bytes.LastIndex(b, []byte("PK\x05\x06"))
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"not a zip", []byte("this is not a zip file at all, no end record"), "zip: expected an end of central directory record"},
		{"directory outside", func() []byte {
			c := bytes.Clone(b)
			binary.LittleEndian.PutUint32(c[end+12:], uint32(end+5)) // a directory longer than what precedes the end record
			return c
		}(), "lies outside the"},
		{"record count", func() []byte {
			c := bytes.Clone(b)
			binary.LittleEndian.PutUint16(c[end+10:], 4)
			return c
		}(), "central directory record 3"},
	} {
		_, err := Read(c.data)
		var fe *formats.Error
		if err == nil || !errors.As(err, &fe) || fe.Offset < 0 || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v (want %q with a byte offset)", c.name, err, c.want)
		}
	}
}

// FuzzDirectory holds the central directory reader to archive/zip on
// any input, seeded with the sample archives and the written ones.
func FuzzDirectory(f *testing.F) {
	for _, dir := range zipSampleDirs {
		samples.Seed(f, dir, ".npz", ".pt", ".pth", ".bin")
	}
	for _, b := range writtenZips(f) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) { compareWithArchiveZip(t, b) })
}

// TestDirectoryPartial: when the records disagree with the end record,
// Read returns the ones that read well with its error, so that sniffing
// still recognises the archive; Find stops at the first match.
func TestDirectoryPartial(t *testing.T) {
	b := bytes.Clone(writtenZips(t)["three"])
	end := bytes.LastIndex(b, []byte("PK\x05\x06"))
	binary.LittleEndian.PutUint16(b[end+10:], 4)
	d, err := Read(b)
	if err == nil || d == nil || d.Len() != 3 {
		t.Fatalf("Read: %v, %v; want the three records and an error", d, err)
	}
	calls := 0
	m, ok := d.Find(func(m *Member) bool {
		calls++
		return string(m.Name) == "mb.npy"
	})
	if !ok || string(m.Name) != "mb.npy" || calls != 2 {
		t.Errorf("Find: %q, %v after %d calls", m.Name, ok, calls)
	}
	if _, ok := d.Find(func(*Member) bool { return false }); ok {
		t.Error("Find matched nothing, yet reports a member")
	}
}
