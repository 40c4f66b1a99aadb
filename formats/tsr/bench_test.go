package tsr

import (
	"encoding/binary"
	"encoding/json"
	"hash/crc32"
	"os"
	"path/filepath"
	"testing"

	"tensorscope/formats"
)

const twoGiB = 2 << 30

// sparseV1 writes a 2 GiB TSR v1 file holding one float32 tensor: the header
// is written and the file extended with Truncate, so no data is written.
func sparseV1(tb testing.TB, dir string) string {
	p := filepath.Join(dir, "big-v1.tsr")
	const n = twoGiB / 4 // elements: 2 GiB of data after the header
	h := make([]byte, headerSizeV1)
	le := binary.LittleEndian
	copy(h, magicV1)
	le.PutUint32(h[4:], 1)
	le.PutUint32(h[8:], headerSizeV1)
	le.PutUint32(h[16:], 1)
	le.PutUint32(h[20:], 2)
	for i, d := range []uint32{1, 1, n / 4096, 4096} {
		le.PutUint32(h[24+4*i:], d)
	}
	le.PutUint64(h[40:], n)
	writeSparse(tb, p, h, headerSizeV1+n*4)
	return p
}

// sparseV4 writes a 2 GiB TSR4 RAW container of 1024 float32 tensors of
// 2 MiB, directory and all, with zero (sparse) data blocks.
func sparseV4(tb testing.TB, dir string) string {
	p := filepath.Join(dir, "big-v4.tsr")
	const count, elems = 1024, 512 * 1024
	dirEnd := int64(headerSizeV4 + entrySizeV4*count)
	h := make([]byte, dirEnd)
	le := binary.LittleEndian
	copy(h, magicV4)
	le.PutUint16(h[4:], majorV4)
	le.PutUint16(h[6:], minorV4)
	le.PutUint32(h[8:], headerSizeV4)
	le.PutUint32(h[16:], count)
	le.PutUint32(h[20:], entrySizeV4)
	le.PutUint64(h[24:], headerSizeV4)
	le.PutUint64(h[32:], uint64(alignUp(dirEnd, alignV4)))
	le.PutUint32(h[headerCRCAt:], headerCRC(h))
	off := alignUp(dirEnd, alignV4)
	zeroCRC := crcOfZeros(elems * 4)
	for i := 0; i < count; i++ {
		e := h[headerSizeV4+entrySizeV4*i:]
		for k, d := range []uint32{1, 512, 1024, 1} {
			le.PutUint32(e[4+4*k:], d)
		}
		le.PutUint64(e[20:], elems)
		le.PutUint64(e[28:], 4096)
		le.PutUint64(e[36:], elems*4)
		le.PutUint64(e[44:], uint64(off))
		le.PutUint64(e[52:], elems*4)
		le.PutUint32(e[60:], zeroCRC)
		off += elems * 4
	}
	writeSparse(tb, p, h, off)
	return p
}

func crcOfZeros(n int) uint32 { return crc32.ChecksumIEEE(make([]byte, n)) }

func writeSparse(tb testing.TB, p string, head []byte, size int64) {
	f, err := os.Create(p)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Write(head); err != nil {
		tb.Fatal(err)
	}
	if err := f.Truncate(size); err != nil {
		tb.Fatal(err)
	}
}

// BenchmarkInfo2GiB measures what `tensorscope info --json` does on a
// 2 GiB file: map it, decode the headers, marshal the document, close.
func BenchmarkInfo2GiB(b *testing.B) {
	dir := b.TempDir()
	for name, p := range map[string]string{"v1": sparseV1(b, dir), "v4x1024": sparseV4(b, dir)} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				doc, err := formats.Open(p)
				if err != nil {
					b.Fatal(err)
				}
				if doc.Size < twoGiB || len(doc.Warnings) != 0 {
					b.Fatalf("size %d, warnings %v", doc.Size, doc.Warnings)
				}
				if _, err := json.Marshal(doc); err != nil {
					b.Fatal(err)
				}
				doc.Close()
			}
		})
	}
}

// TestLargeSparseFiles checks the benchmark's files decode as intended, so
// that the benchmark measures a real decode.
func TestLargeSparseFiles(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 4 GiB of sparse files")
	}
	dir := t.TempDir()
	for _, p := range []string{sparseV1(t, dir), sparseV4(t, dir)} {
		doc, err := formats.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		if len(doc.Warnings) != 0 {
			t.Errorf("%s: %v", p, doc.Warnings)
		}
		var total int64
		for _, e := range doc.Tensors {
			total += e.NBytes
		}
		if total < twoGiB-(1<<20) {
			t.Errorf("%s: tensors hold %d bytes", p, total)
		}
		doc.Close()
	}
}
