package tflite

import (
	"encoding/binary"
	"os"

	"tensorscope/formats"
)

// farWords reads the flatbuffer's 4-byte words. In a model of inline
// weights the words that matter lie megabytes apart (each buffer's length
// word sits in front of its data), and reading one through the mapping
// faults in a whole large folio of the page cache around it: for a 1 GB
// model, 240 length words cost 11 ms and hundreds of MB of resident pages.
// Beyond the first near bytes, farWords therefore reads the file's pages
// with pread into a small cache while the model is decoded; without a
// local file (in-memory sources) every read comes from the mapping.
type farWords struct {
	buf   []byte
	near  uint64
	file  *os.File
	pages map[uint64]*[farPage]byte
}

const (
	farPage     = 4096
	farNear     = 1 << 20 // the start of the file, where small models keep everything
	farMaxPages = 1024    // 4 MiB of cached pages at most
)

// newFarWords opens src's file for the decode when it is a local file of
// the mapped size. close must be called when the decode is done.
func newFarWords(src *formats.Source) *farWords {
	w := &farWords{buf: src.Data, near: farNear}
	if len(src.Data) > farNear {
		w.file = src.OpenFile()
	}
	return w
}

// inMemory reads words of buf alone (nested flatbuffers).
func inMemory(buf []byte) *farWords { return &farWords{buf: buf, near: uint64(len(buf))} }

func (w *farWords) close() {
	if w.file != nil {
		w.file.Close()
		w.file = nil
	}
}

func (w *farWords) u16(at uint64) uint16 { return binary.LittleEndian.Uint16(w.at(at, 2)) }
func (w *farWords) u32(at uint64) uint32 { return binary.LittleEndian.Uint32(w.at(at, 4)) }
func (w *farWords) u64(at uint64) uint64 { return binary.LittleEndian.Uint64(w.at(at, 8)) }

// at returns the n ≤ 8 bytes at at; the caller has checked they are
// within the file.
func (w *farWords) at(at uint64, n uint64) []byte {
	if at+n <= w.near || w.file == nil {
		return w.buf[at : at+n]
	}
	page, in := at/farPage, at%farPage
	if in+n > farPage { // straddles two pages: read it alone
		b := make([]byte, n)
		if _, err := w.file.ReadAt(b, int64(at)); err != nil {
			return w.buf[at : at+n]
		}
		return b
	}
	p := w.pages[page]
	if p == nil {
		if w.pages == nil || len(w.pages) >= farMaxPages {
			w.pages = map[uint64]*[farPage]byte{}
		}
		p = new([farPage]byte)
		got, _ := w.file.ReadAt(p[:], int64(page*farPage))
		if uint64(got) < in+n {
			return w.buf[at : at+n]
		}
		w.pages[page] = p
	}
	return p[in : in+n]
}
