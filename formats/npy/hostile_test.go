package npy_test

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"context"
	"encoding/binary"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"tensorscope/formats"
	"tensorscope/internal/pyref"
)

// npyBytes builds a version 1.0 .npy around a header dict.
func npyBytes(dict string, data []byte) []byte {
	total := (10 + len(dict) + 1 + 63) / 64 * 64
	b := make([]byte, total, total+len(data))
	copy(b, "\x93NUMPY\x01\x00")
	binary.LittleEndian.PutUint16(b[8:], uint16(total-10))
	n := copy(b[10:], dict)
	for i := 10 + n; i < total-1; i++ {
		b[i] = ' '
	}
	b[total-1] = '\n'
	return append(b, data...)
}

// TestPickleIsNeverRun writes an object array whose pickle creates a file
// when loaded (NumPy with allow_pickle=True creates it, when NumPy is
// installed to show it), then opens, lists, loads and reads it as text
// through every path the viewer has: the file must not appear.
func TestPickleIsNeverRun(t *testing.T) {
	dir := t.TempDir()
	marker := filepath.Join(dir, "pwned")
	pickle := "cos\nsystem\n(S'touch " + marker + "'\ntR."
	path := filepath.Join(dir, "evil.npy")
	if err := os.WriteFile(path, npyBytes("{'descr': '|O', 'fortran_order': False, 'shape': (1,), }", []byte(pickle)), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Run("NumPy runs the pickle", func(t *testing.T) {
		py := pyref.NumPy(t)
		if err := exec.Command(py, "-c", "import numpy, sys; numpy.load(sys.argv[1], allow_pickle=True)", path).Run(); err != nil {
			t.Fatalf("NumPy loading the fixture: %v", err)
		}
		if _, err := os.Stat(marker); err != nil {
			t.Fatalf("the fixture is harmless: NumPy loaded it without creating %s", marker)
		}
		os.Remove(marker)
	})

	doc, err := formats.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer doc.Close()
	e := doc.Tensor("#0")
	if e == nil || e.HasData() || e.HasText() || e.Note != "pickled Python objects: not loaded" {
		t.Fatalf("object array listed as %+v", e)
	}
	if len(doc.Warnings) != 1 || !strings.Contains(doc.Warnings[0].Message, "pickled Python objects: not loaded") {
		t.Fatalf("warnings %v", doc.Warnings)
	}
	if _, err := e.Load(context.Background()); err == nil {
		t.Fatal("an object array loaded")
	}
	if _, err := doc.MarshalJSON(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the pickle ran")
	}
}

// bitWriter writes a raw deflate stream, least significant bit first.
type bitWriter struct {
	buf   []byte
	acc   uint64
	nbits uint
}

func (w *bitWriter) bits(v uint64, n uint) {
	w.acc |= v << w.nbits
	w.nbits += n
	for w.nbits >= 8 {
		w.buf = append(w.buf, byte(w.acc))
		w.acc >>= 8
		w.nbits -= 8
	}
}

// huffman writes a fixed-Huffman code, most significant bit first.
func (w *bitWriter) huffman(code uint64, n uint) {
	var rev uint64
	for i := uint(0); i < n; i++ {
		rev = rev<<1 | (code>>i)&1
	}
	w.bits(rev, n)
}

func (w *bitWriter) literal(b byte) {
	if b < 144 {
		w.huffman(0x30+uint64(b), 8)
	} else {
		w.huffman(0x190+uint64(b-144), 9)
	}
}

// zeroBomb returns a raw deflate stream of prefix followed by about n
// zero bytes, coded as matches of 258 bytes at distance 1 (13 bits each):
// 4 GiB of output from 26 MB, made in milliseconds.
func zeroBomb(prefix []byte, n int64) []byte {
	w := &bitWriter{}
	w.bits(1, 1) // final block
	w.bits(1, 2) // fixed Huffman codes
	for _, b := range prefix {
		w.literal(b)
	}
	w.literal(0)
	match := &bitWriter{}
	match.huffman(0xc5, 8) // length code 285: 258 bytes
	match.huffman(0, 5)    // distance code 0: distance 1
	code := uint64(match.buf[0]) | match.acc<<8
	for done := int64(1); done < n; done += 258 {
		w.bits(code, 13)
	}
	w.huffman(0, 7) // end of block
	w.bits(0, 7)
	return w.buf
}

// TestLyingZipStops builds an .npz whose member declares 1 KiB but whose
// stream inflates to 4 GiB: loading it must stop with a clear error, fast,
// without allocating the stream's output.
func TestLyingZipStops(t *testing.T) {
	head := npyBytes("{'descr': '|u1', 'fortran_order': False, 'shape': (896,), }", nil)
	small, err := io.ReadAll(flate.NewReader(bytes.NewReader(zeroBomb(head, 1<<20))))
	if err != nil || len(small) < 1<<20 || !bytes.Equal(small[:len(head)], head) {
		t.Fatalf("the bomb's coding is wrong: %d bytes, %v", len(small), err)
	}
	stream := zeroBomb(head, 4<<30)
	var zbuf bytes.Buffer
	zw := zip.NewWriter(&zbuf)
	fh := &zip.FileHeader{Name: "bomb.npy", Method: zip.Deflate,
		CompressedSize64: uint64(len(stream)), UncompressedSize64: 1024, CRC32: 0}
	w, err := zw.CreateRaw(fh)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(stream)
	zw.Close()

	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	doc, err := formats.OpenBytes("bomb.npz", zbuf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	e := doc.Tensor("bomb")
	if e == nil {
		t.Fatalf("member not listed; warnings %v", doc.Warnings)
	}
	_, err = e.Load(context.Background())
	elapsed := time.Since(start)
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "inflates past the 1024 bytes the member declares") {
		t.Fatalf("loading the bomb: %v", err)
	}
	if elapsed > time.Second {
		t.Errorf("stopping took %v", elapsed)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 64<<20 {
		t.Errorf("allocated %d MiB while reading a 1 KiB member", grew>>20)
	}
}

// TestDeclaredSizeBeyondDeflate refuses a member whose declared size no
// deflate stream of its length can produce, before allocating anything.
func TestDeclaredSizeBeyondDeflate(t *testing.T) {
	var zbuf bytes.Buffer
	zw := zip.NewWriter(&zbuf)
	w, _ := zw.CreateRaw(&zip.FileHeader{Name: "x.npy", Method: zip.Deflate,
		CompressedSize64: 10, UncompressedSize64: 1 << 40})
	w.Write(make([]byte, 10))
	zw.Close()
	doc, err := formats.OpenBytes("x.npz", zbuf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Tensors) != 0 || len(doc.Warnings) != 1 || !strings.Contains(doc.Warnings[0].Message, "more than deflate can produce") {
		t.Fatalf("tensors %d, warnings %v", len(doc.Tensors), doc.Warnings)
	}
}

// TestManyMembersZip64 opens an archive of 100,000 members, which needs
// Zip64's end records, written with data descriptors as np.savez does.
func TestManyMembersZip64(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 30 MB archive")
	}
	var zbuf bytes.Buffer
	zw := zip.NewWriter(&zbuf)
	// One compressor for every member: a fresh one each (the default)
	// allocates about 1 MB per member, 50 GB for the archive, which took
	// this test past ten minutes under the race detector.
	fw, _ := flate.NewWriter(nil, flate.BestSpeed)
	zw.RegisterCompressor(zip.Deflate, func(w io.Writer) (io.WriteCloser, error) {
		fw.Reset(w)
		return fw, nil
	})
	const n = 100_000
	for i := 0; i < n; i++ {
		body := npyBytes("{'descr': '<u2', 'fortran_order': False, 'shape': (1,), }", []byte{byte(i), byte(i >> 8)})
		method := zip.Store
		if i%2 == 1 {
			method = zip.Deflate
		}
		w, err := zw.CreateHeader(&zip.FileHeader{Name: "a" + itoa(i) + ".npy", Method: method})
		if err != nil {
			t.Fatal(err)
		}
		w.Write(body)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	data := zbuf.Bytes()
	if !bytes.Contains(data[len(data)-200:], []byte("PK\x06\x06")) {
		t.Fatal("the archive has no Zip64 end record")
	}
	if binary.LittleEndian.Uint16(data[6:8])&0x8 == 0 {
		t.Fatal("the first member has no data descriptor")
	}
	start := time.Now()
	doc, err := formats.OpenBytes("many.npz", data)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("opened %d members in %v", len(doc.Tensors), time.Since(start))
	if len(doc.Tensors) != n || len(doc.Warnings) != 0 {
		t.Fatalf("%d tensors, warnings %v", len(doc.Tensors), doc.Warnings[:min(3, len(doc.Warnings))])
	}
	for _, i := range []int{0, 1, 65535, 65536, n - 1} {
		x, err := doc.Tensor("a" + itoa(i)).Load(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		v, _ := x.Float64At([]int{0})
		if v != float64(uint16(i)) {
			t.Errorf("member %d holds %v", i, v)
		}
	}
}

func itoa(i int) string { return strconv.Itoa(i) }
