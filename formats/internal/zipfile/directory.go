package zipfile

import (
	"encoding/binary"

	"tensorscope/formats"
)

// Directory is a zip's central directory, read in place: archive/zip's
// Reader holds a File of some 260 bytes and a name for every member, 26 MB
// for an archive of 100,000 arrays; a Directory holds five numbers.
type Directory struct {
	data  []byte
	base  int64  // added to every local header offset (bytes before the archive)
	first int64  // offset of the first record
	count int    // records that read well
	want  uint64 // records the end record declares
}

const (
	endLen        = 22 // end of central directory record, without its comment
	end64LocLen   = 20 // zip64 end of central directory locator
	end64Len      = 56 // zip64 end of central directory record
	end64Sig      = 0x06064b50
	end64LocSig   = 0x07064b50
	endSearchNear = 1024      // where archive/zip looks for the end record first
	endSearchFar  = 65 * 1024 // and then
)

// Read finds the end record of the zip data and checks every central
// directory record, as archive/zip.NewReader does. When the records
// disagree with the end record, Read returns the error together with the
// records before the first bad one, for callers that only recognise a
// file (sniffing); it returns a nil Directory when there is no directory
// to read at all.
func Read(data []byte) (*Directory, error) {
	end, err := findEnd(data)
	if err != nil {
		return nil, err
	}
	size := int64(len(data))
	e := data[end:]
	records := uint64(binary.LittleEndian.Uint16(e[10:]))
	dirSize := uint64(binary.LittleEndian.Uint32(e[12:]))
	dirOffset := uint64(binary.LittleEndian.Uint32(e[16:]))
	// archive/zip's test (0xffff for the size too, as it is written there).
	if records == 0xffff || dirSize == 0xffff || dirOffset == 0xffffffff {
		if p, ok := findZip64End(data, end); ok {
			if p < 0 || p > size-end64Len {
				return nil, formats.Errorf(end-end64LocLen, "zip64: the locator points at byte %d for the %d-byte zip64 end record, past the %d-byte file", p, end64Len, size)
			}
			r := data[p:]
			if binary.LittleEndian.Uint32(r) != end64Sig {
				return nil, formats.Errorf(p, "zip64: expected an end of central directory record (PK\\x06\\x06), found %q", r[:4])
			}
			end = p
			records = binary.LittleEndian.Uint64(r[32:])
			dirSize = binary.LittleEndian.Uint64(r[40:])
			dirOffset = binary.LittleEndian.Uint64(r[48:])
		}
	}
	if dirSize > 1<<63-1 || dirOffset > 1<<63-1 {
		return nil, formats.Errorf(end, "zip: central directory of %d bytes at byte %d: impossible", dirSize, dirOffset)
	}
	base := end - int64(dirSize) - int64(dirOffset)
	if o := base + int64(dirOffset); o < 0 || o >= size {
		return nil, formats.Errorf(end, "zip: the central directory (%d bytes at byte %d) lies outside the %d-byte file", dirSize, dirOffset, size)
	}
	// Like archive/zip: some writers record a wrong base; when a record
	// reads well at the offset taken as is, that offset is right.
	if base > 0 {
		var m Member
		if ok, _ := readRecord(data, int64(dirOffset), &m); ok {
			base = 0
		}
	}
	d := &Directory{data: data, base: base, first: base + int64(dirOffset), want: records}
	return d, d.countRecords()
}

// findEnd is archive/zip's search for the end record: in the last
// kilobyte, then in the last 65.
func findEnd(data []byte) (int64, error) {
	size := int64(len(data))
	for _, n := range []int64{endSearchNear, endSearchFar} {
		n = min(n, size)
		if p := findEndIn(data[size-n:]); p >= 0 {
			return size - n + int64(p), nil
		}
		if n == size {
			break
		}
	}
	return 0, formats.Errorf(max(size-endSearchFar, 0), "zip: expected an end of central directory record (PK\\x05\\x06) in the last %d bytes, found none", min(size, endSearchFar))
}

// findEndIn returns the end record's place in b: the last signature whose
// comment fits; a later signature whose comment does not fit ends the
// search.
func findEndIn(b []byte) int {
	for i := len(b) - endLen; i >= 0; i-- {
		if b[i] == 'P' && b[i+1] == 'K' && b[i+2] == 0x05 && b[i+3] == 0x06 {
			if n := int(binary.LittleEndian.Uint16(b[i+endLen-2:])); n+endLen+i > len(b) {
				return -1
			}
			return i
		}
	}
	return -1
}

// findZip64End returns the offset the zip64 locator before the end record
// at end points to, and whether there is a valid locator.
func findZip64End(data []byte, end int64) (int64, bool) {
	at := end - end64LocLen
	if at < 0 {
		return 0, false
	}
	l := data[at:end]
	if binary.LittleEndian.Uint32(l) != end64LocSig || binary.LittleEndian.Uint32(l[4:]) != 0 ||
		binary.LittleEndian.Uint32(l[16:]) != 1 {
		return 0, false
	}
	return int64(binary.LittleEndian.Uint64(l[8:])), true
}

// countRecords reads records until one does not read. The count is kept in
// 16 bits by some writers: only a count that disagrees with the end
// record's modulo 65,536 is an error (archive/zip's rule).
func (d *Directory) countRecords() error {
	at := d.first
	var m Member
	for {
		ok, err := readRecord(d.data, at, &m)
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		d.count++
		at = m.next()
	}
	if uint16(d.count) != uint16(d.want) {
		return formats.Errorf(at, "zip: central directory record %d: %s (the end record declares %d records)", d.count, describeRecord(d.data, at), d.want)
	}
	return nil
}

// Len is the number of members.
func (d *Directory) Len() int { return d.count }

// Each calls fn with every member in the directory's order; m is reused
// between calls, and its Name lies in the mapped file.
func (d *Directory) Each(fn func(m *Member)) {
	d.Find(func(m *Member) bool {
		fn(m)
		return false
	})
}

// Find calls match with each member in order until it returns true, and
// returns that member (a copy), or false when none matched.
func (d *Directory) Find(match func(m *Member) bool) (Member, bool) {
	var m Member
	at := d.first
	for range d.count {
		readRecord(d.data, at, &m) // read well in Read
		m.LocalHeader += d.base
		if match(&m) {
			return m, true
		}
		at = m.next()
	}
	return Member{}, false
}
