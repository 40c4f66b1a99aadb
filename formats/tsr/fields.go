package tsr

import (
	"tensorscope/formats"
)

// fields reads a fixed header with a formats.Reader and records every field
// it reads in the document's Header, so that the header pane lists exactly
// what the decoder looked at, at the offsets it looked at.
type fields struct {
	r   *formats.Reader
	doc *formats.Document
}

func (f *fields) add(name string, off int64, size int, v any) {
	f.doc.Header = append(f.doc.Header, formats.HeaderField{Name: name, Offset: off, Size: size, Value: v})
}

// mean sets the decoded meaning of the field read last.
func (f *fields) mean(meaning string) {
	if n := len(f.doc.Header); n > 0 {
		f.doc.Header[n-1].Meaning = meaning
	}
}

func (f *fields) str(name string, n int) string {
	off := f.r.Offset()
	s := string(f.r.Bytes(int64(n), name))
	f.add(name, off, n, s)
	return s
}

func (f *fields) bytes(name string, n int) []byte {
	off := f.r.Offset()
	b := f.r.Bytes(int64(n), name)
	f.add(name, off, n, formats.Bytes(b))
	return b
}

func (f *fields) u8(name string) uint8 {
	off := f.r.Offset()
	v := f.r.U8(name)
	f.add(name, off, 1, v)
	return v
}

func (f *fields) u16(name string) uint16 {
	off := f.r.Offset()
	v := f.r.U16(name)
	f.add(name, off, 2, v)
	return v
}

func (f *fields) u32(name string) uint32 {
	off := f.r.Offset()
	v := f.r.U32(name)
	f.add(name, off, 4, v)
	return v
}

func (f *fields) i32(name string) int32 {
	off := f.r.Offset()
	v := f.r.I32(name)
	f.add(name, off, 4, v)
	return v
}

func (f *fields) u64(name string) uint64 {
	off := f.r.Offset()
	v := f.r.U64(name)
	f.add(name, off, 8, v)
	return v
}

func (f *fields) i64(name string) int64 {
	off := f.r.Offset()
	v := f.r.I64(name)
	f.add(name, off, 8, v)
	return v
}

func allZero(b []byte) bool {
	for _, x := range b {
		if x != 0 {
			return false
		}
	}
	return true
}

// firstNonZero returns the index of the first nonzero byte, or -1.
func firstNonZero(b []byte) int {
	for i, x := range b {
		if x != 0 {
			return i
		}
	}
	return -1
}
