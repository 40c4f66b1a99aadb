package zipfile

import (
	"encoding/binary"
	"fmt"

	"tensorscope/formats"
)

// Member is one central directory record: what listing and opening the
// member needs.
type Member struct {
	Record           int64  // offset of the central directory record
	Name             []byte // in the mapped file
	Flags            uint16
	Method           uint16 // Store or Deflate (others are refused by the codecs)
	CRC32            uint32
	CompressedSize   uint64
	UncompressedSize uint64
	LocalHeader      int64  // offset of the local header (bytes before the archive counted)
	tail             uint32 // bytes of name, extra field and comment
}

// Compression methods.
const (
	Store   = 0
	Deflate = 8
)

const (
	recordLen = 46 // central directory record, without name, extra and comment
	recordSig = 0x02014b50
	zip64ID   = 0x0001 // the extra field holding zip64 sizes
)

// IsFolder reports whether the member is a folder (its name ends in /).
func (m *Member) IsFolder() bool { return len(m.Name) > 0 && m.Name[len(m.Name)-1] == '/' }

// next is the offset of the record after m.
func (m *Member) next() int64 { return m.Record + recordLen + int64(m.tail) }

// readRecord reads the central directory record at at into m. It
// returns false where archive/zip stops reading records (a wrong
// signature, a record cut short, a zip64 field too short or missing), and
// an error where archive/zip fails outright (the file ends exactly where
// a record or its names would start).
func readRecord(data []byte, at int64, m *Member) (bool, error) {
	size := int64(len(data))
	if at < 0 || at > size {
		return false, nil
	}
	if at == size {
		return false, formats.Errorf(at, "zip: the file ends where central directory record would start")
	}
	if size-at < recordLen {
		return false, nil
	}
	r := data[at : at+recordLen]
	if binary.LittleEndian.Uint32(r) != recordSig {
		return false, nil
	}
	nameLen := int64(binary.LittleEndian.Uint16(r[28:]))
	extraLen := int64(binary.LittleEndian.Uint16(r[30:]))
	commentLen := int64(binary.LittleEndian.Uint16(r[32:]))
	rest := at + recordLen
	if tail := nameLen + extraLen + commentLen; tail > 0 {
		if rest == size {
			return false, formats.Errorf(rest, "zip: the file ends where the name of central directory record at byte %d would start", at)
		}
		if size-rest < tail {
			return false, nil
		}
	}
	*m = Member{
		Record:           at,
		Flags:            binary.LittleEndian.Uint16(r[8:]),
		Method:           binary.LittleEndian.Uint16(r[10:]),
		CRC32:            binary.LittleEndian.Uint32(r[16:]),
		CompressedSize:   uint64(binary.LittleEndian.Uint32(r[20:])),
		UncompressedSize: uint64(binary.LittleEndian.Uint32(r[24:])),
		LocalHeader:      int64(binary.LittleEndian.Uint32(r[42:])),
		Name:             data[rest : rest+nameLen : rest+nameLen],
		tail:             uint32(nameLen + extraLen + commentLen),
	}
	return m.readZip64(data[rest+nameLen : rest+nameLen+extraLen]), nil
}

// readZip64 takes the sizes and offset the record leaves at their maximum
// from its zip64 extra field, and reports whether all were there. An
// uncompressed size of 2³²-1 without a zip64 field may be true (archive/zip
// accepts it); the other two may not.
func (m *Member) readZip64(extra []byte) bool {
	header := uint64(m.LocalHeader)
	needSize := m.UncompressedSize == 0xffffffff
	needPacked := m.CompressedSize == 0xffffffff
	needHeader := header == 0xffffffff
	for len(extra) >= 4 {
		tag := binary.LittleEndian.Uint16(extra)
		n := int(binary.LittleEndian.Uint16(extra[2:]))
		extra = extra[4:]
		if len(extra) < n {
			break
		}
		field := extra[:n]
		extra = extra[n:]
		if tag != zip64ID {
			continue
		}
		// Only the values the record leaves at their maximum are in the
		// zip64 field, in this order; archive/zip reads the first field.
		for _, v := range [...]struct {
			need *bool
			dst  *uint64
		}{{&needSize, &m.UncompressedSize}, {&needPacked, &m.CompressedSize}, {&needHeader, &header}} {
			if !*v.need {
				continue
			}
			*v.need = false
			if len(field) < 8 {
				return false
			}
			*v.dst = binary.LittleEndian.Uint64(field)
			field = field[8:]
		}
	}
	m.LocalHeader = int64(header)
	return !needPacked && !needHeader
}

// describeRecord says why no record could be read at at, for errors.
func describeRecord(data []byte, at int64) string {
	size := int64(len(data))
	switch {
	case at < 0 || at > size:
		return fmt.Sprintf("expected at byte %d, outside the %d-byte file", at, size)
	case size-at < recordLen:
		return fmt.Sprintf("expected %d bytes at byte %d, the file holds %d", recordLen, at, size-at)
	case binary.LittleEndian.Uint32(data[at:]) != recordSig:
		return fmt.Sprintf("expected the signature PK\\x01\\x02 at byte %d, found %q", at, data[at:at+4])
	}
	return fmt.Sprintf("the record at byte %d is cut short or lacks its zip64 sizes", at)
}
