package zipfile

import (
	"encoding/binary"
	"io"

	"tensorscope/formats"
)

const (
	localLen = 30 // local file header, without name and extra
	localSig = 0x04034b50
)

// DataOffset returns where m's data starts, after its local header (whose
// own name and extra lengths count, as in archive/zip), reading the header
// from the mapped file.
func (d *Directory) DataOffset(m *Member) (int64, error) {
	if err := d.checkLocal(m); err != nil {
		return 0, err
	}
	return dataAfter(d.data[m.LocalHeader:m.LocalHeader+localLen], m)
}

// ReadDataOffset is DataOffset reading the local header through r, the
// same file: thousands of local headers lie each on a page of its own,
// and on a virtual machine a page fault costs more than a 30-byte pread.
func (d *Directory) ReadDataOffset(r io.ReaderAt, m *Member) (int64, error) {
	if err := d.checkLocal(m); err != nil {
		return 0, err
	}
	var l [localLen]byte
	if _, err := r.ReadAt(l[:], m.LocalHeader); err != nil {
		return 0, formats.Errorf(m.LocalHeader, "zip: local header: %v", err)
	}
	return dataAfter(l[:], m)
}

// checkLocal checks that m's local header lies within the file.
func (d *Directory) checkLocal(m *Member) error {
	size := int64(len(d.data))
	if m.LocalHeader < 0 || m.LocalHeader >= size || size-m.LocalHeader < localLen {
		return formats.Errorf(m.Record, "zip: local header expected at byte %d, outside the %d-byte file", m.LocalHeader, size)
	}
	return nil
}

// dataAfter is the data offset of m, whose local header is l.
func dataAfter(l []byte, m *Member) (int64, error) {
	if binary.LittleEndian.Uint32(l) != localSig {
		return 0, formats.Errorf(m.LocalHeader, "zip: local header: expected the signature PK\\x03\\x04, found %q", l[:4])
	}
	return m.LocalHeader + localLen + int64(binary.LittleEndian.Uint16(l[26:])) + int64(binary.LittleEndian.Uint16(l[28:])), nil
}
