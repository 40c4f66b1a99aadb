package npy

import (
	"encoding/binary"
	"fmt"

	"tensorscope/formats"
)

// zipDirectory reads a zip's central directory straight from the mapped
// file, a record at a time, keeping nothing per member: archive/zip's
// Reader holds a File of some 260 bytes and a name for every member, 26 MB
// for an archive of 100,000 arrays. It accepts exactly the archives
// archive/zip's NewReader accepts and reads the same values from them
// (FuzzZipDirectory holds the two together), names the byte of every
// problem, and leaves member names in the mapping.
type zipDirectory struct {
	data  []byte
	base  int64  // added to every local header offset (bytes before the archive)
	first int64  // offset of the first record
	count int    // records that read well
	want  uint64 // records the end record declares
}

// zipMember is one central directory record: what listing and opening the
// member needs.
type zipMember struct {
	at           int64  // offset of the record
	name         []byte // in the mapped file
	flags        uint16
	method       uint16
	crc          uint32
	packed, size uint64 // compressed and uncompressed bytes
	header       int64  // offset of the local header (base applied)
	tail         uint32 // bytes of name, extra field and comment
}

const (
	zipEndLen        = 22 // end of central directory record, without its comment
	zipEnd64LocLen   = 20 // zip64 end of central directory locator
	zipEnd64Len      = 56 // zip64 end of central directory record
	zipRecordLen     = 46 // central directory record, without name, extra and comment
	zipLocalLen      = 30 // local file header, without name and extra
	zipRecordSig     = 0x02014b50
	zipLocalSig      = 0x04034b50
	zipEnd64Sig      = 0x06064b50
	zipEnd64LocSig   = 0x07064b50
	zip64ExtraID     = 0x0001
	zipEndSearchNear = 1024      // where archive/zip looks for the end record first
	zipEndSearchFar  = 65 * 1024 // and then
)

// readZipDirectory finds the end record and checks every central
// directory record, as archive/zip.NewReader does.
func readZipDirectory(data []byte) (*zipDirectory, error) {
	size := int64(len(data))
	end := int64(-1)
	for i, n := range []int64{zipEndSearchNear, zipEndSearchFar} {
		n = min(n, size)
		if p := findZipEnd(data[size-n:]); p >= 0 {
			end = size - n + int64(p)
			break
		}
		if i == 1 || n == size {
			return nil, formats.Errorf(max(size-zipEndSearchFar, 0), "zip: expected an end of central directory record (PK\\x05\\x06) in the last %d bytes, found none", min(size, zipEndSearchFar))
		}
	}
	e := data[end:]
	records := uint64(binary.LittleEndian.Uint16(e[10:]))
	dirSize := uint64(binary.LittleEndian.Uint32(e[12:]))
	dirOffset := uint64(binary.LittleEndian.Uint32(e[16:]))
	// archive/zip's test (0xffff for the size too, as it is written there).
	if records == 0xffff || dirSize == 0xffff || dirOffset == 0xffffffff {
		if p, ok := findZip64End(data, end); ok {
			if p < 0 || p > size-zipEnd64Len {
				return nil, formats.Errorf(end-zipEnd64LocLen, "zip64: the locator points at byte %d for the %d-byte zip64 end record, past the %d-byte file", p, zipEnd64Len, size)
			}
			r := data[p:]
			if binary.LittleEndian.Uint32(r) != zipEnd64Sig {
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
		var m zipMember
		if ok, _ := readZipRecord(data, int64(dirOffset), &m); ok {
			base = 0
		}
	}
	d := &zipDirectory{data: data, base: base, first: base + int64(dirOffset), want: records}
	// The count is kept in 16 bits by some writers: records are read until
	// one does not, and only a count that disagrees modulo 65,536 is an
	// error (archive/zip's rule).
	at := d.first
	var m zipMember
	for {
		ok, err := readZipRecord(data, at, &m)
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		d.count++
		at = m.next()
	}
	if uint16(d.count) != uint16(records) {
		return nil, formats.Errorf(at, "zip: central directory record %d: %s (the end record declares %d records)", d.count, describeZipRecord(data, at), records)
	}
	return d, nil
}

// findZipEnd is archive/zip's search for the end record in b: the last
// signature whose comment fits; a later signature whose comment does not
// fit ends the search.
func findZipEnd(b []byte) int {
	for i := len(b) - zipEndLen; i >= 0; i-- {
		if b[i] == 'P' && b[i+1] == 'K' && b[i+2] == 0x05 && b[i+3] == 0x06 {
			if n := int(binary.LittleEndian.Uint16(b[i+zipEndLen-2:])); n+zipEndLen+i > len(b) {
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
	at := end - zipEnd64LocLen
	if at < 0 {
		return 0, false
	}
	l := data[at:end]
	if binary.LittleEndian.Uint32(l) != zipEnd64LocSig || binary.LittleEndian.Uint32(l[4:]) != 0 ||
		binary.LittleEndian.Uint32(l[16:]) != 1 {
		return 0, false
	}
	return int64(binary.LittleEndian.Uint64(l[8:])), true
}

// next is the offset of the record after m.
func (m *zipMember) next() int64 { return m.at + zipRecordLen + int64(m.tail) }

// readZipRecord reads the central directory record at at into m. It
// returns false where archive/zip stops reading records (a wrong
// signature, a record cut short, a zip64 field too short or missing), and
// an error where archive/zip fails outright (the file ends exactly where
// a record or its names would start).
func readZipRecord(data []byte, at int64, m *zipMember) (bool, error) {
	size := int64(len(data))
	if at < 0 || at > size {
		return false, nil
	}
	if at == size {
		return false, formats.Errorf(at, "zip: the file ends where central directory record would start")
	}
	if size-at < zipRecordLen {
		return false, nil
	}
	r := data[at : at+zipRecordLen]
	if binary.LittleEndian.Uint32(r) != zipRecordSig {
		return false, nil
	}
	nameLen := int64(binary.LittleEndian.Uint16(r[28:]))
	extraLen := int64(binary.LittleEndian.Uint16(r[30:]))
	commentLen := int64(binary.LittleEndian.Uint16(r[32:]))
	rest := at + zipRecordLen
	if tail := nameLen + extraLen + commentLen; tail > 0 {
		if rest == size {
			return false, formats.Errorf(rest, "zip: the file ends where the name of central directory record at byte %d would start", at)
		}
		if size-rest < tail {
			return false, nil
		}
	}
	*m = zipMember{
		at:     at,
		flags:  binary.LittleEndian.Uint16(r[8:]),
		method: binary.LittleEndian.Uint16(r[10:]),
		crc:    binary.LittleEndian.Uint32(r[16:]),
		packed: uint64(binary.LittleEndian.Uint32(r[20:])),
		size:   uint64(binary.LittleEndian.Uint32(r[24:])),
		header: int64(binary.LittleEndian.Uint32(r[42:])),
		name:   data[rest : rest+nameLen : rest+nameLen],
		tail:   uint32(nameLen + extraLen + commentLen),
	}
	header := uint64(m.header)
	needSize := m.size == 0xffffffff
	needPacked := m.packed == 0xffffffff
	needHeader := header == 0xffffffff
	for extra := data[rest+nameLen : rest+nameLen+extraLen]; len(extra) >= 4; {
		tag := binary.LittleEndian.Uint16(extra)
		n := int(binary.LittleEndian.Uint16(extra[2:]))
		extra = extra[4:]
		if len(extra) < n {
			break
		}
		field := extra[:n]
		extra = extra[n:]
		if tag != zip64ExtraID {
			continue
		}
		// Only the values the record leaves at their maximum are in the
		// zip64 field, in this order; archive/zip reads the first field.
		for _, v := range [...]struct {
			need *bool
			dst  *uint64
		}{{&needSize, &m.size}, {&needPacked, &m.packed}, {&needHeader, &header}} {
			if !*v.need {
				continue
			}
			*v.need = false
			if len(field) < 8 {
				return false, nil
			}
			*v.dst = binary.LittleEndian.Uint64(field)
			field = field[8:]
		}
	}
	m.header = int64(header)
	// An uncompressed size of 2³²-1 without a zip64 field may be true
	// (archive/zip accepts it); the other two may not.
	if needPacked || needHeader {
		return false, nil
	}
	return true, nil
}

// describeZipRecord says why no record could be read at at, for errors.
func describeZipRecord(data []byte, at int64) string {
	size := int64(len(data))
	switch {
	case at < 0 || at > size:
		return fmt.Sprintf("expected at byte %d, outside the %d-byte file", at, size)
	case size-at < zipRecordLen:
		return fmt.Sprintf("expected %d bytes at byte %d, the file holds %d", zipRecordLen, at, size-at)
	case binary.LittleEndian.Uint32(data[at:]) != zipRecordSig:
		return fmt.Sprintf("expected the signature PK\\x01\\x02 at byte %d, found %q", at, data[at:at+4])
	}
	return fmt.Sprintf("the record at byte %d is cut short or lacks its zip64 sizes", at)
}

// each calls fn with every record in order; m is reused between calls.
func (d *zipDirectory) each(fn func(m *zipMember)) {
	var m zipMember
	at := d.first
	for range d.count {
		readZipRecord(d.data, at, &m) // read well in readZipDirectory
		m.header += d.base
		fn(&m)
		at = m.next()
	}
}

// dataOffset returns where m's data starts, after its local header (whose
// own name and extra lengths count, as in archive/zip).
func (d *zipDirectory) dataOffset(m *zipMember) (int64, error) {
	size := int64(len(d.data))
	if m.header < 0 || m.header >= size || size-m.header < zipLocalLen {
		return 0, formats.Errorf(m.at, "zip: local header expected at byte %d, outside the %d-byte file", m.header, size)
	}
	l := d.data[m.header:]
	if binary.LittleEndian.Uint32(l) != zipLocalSig {
		return 0, formats.Errorf(m.header, "zip: local header: expected the signature PK\\x03\\x04, found %q", l[:4])
	}
	return m.header + zipLocalLen + int64(binary.LittleEndian.Uint16(l[26:])) + int64(binary.LittleEndian.Uint16(l[28:])), nil
}
