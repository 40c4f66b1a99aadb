package zipfile

import (
	"bytes"
	"io"
)

// HeadReader reads the start of members' inflated bytes (a format's
// header), one member after another, reusing its reader and decompressor.
// A member that lies within the mapped zip is read straight from it
// through a pooled decompressor, without the CRC check a partial read
// never reaches: archive/zip's reader would read the local header again
// and set up that check, a dozen allocations per member.
type HeadReader struct {
	compressed bytes.Reader
	pooled     io.ReadCloser // from flateReaders
	checked    io.ReadCloser // open's, for a member outside the mapping
}

// Open returns a reader of m's inflated bytes, valid until Close or the
// next Open.
func (h *HeadReader) Open(m *Inflater) (io.Reader, error) {
	h.Close()
	if data := m.compressedBytes(); data != nil {
		h.compressed.Reset(data)
		h.pooled = getFlateReader(&h.compressed)
		return h.pooled, nil
	}
	rc, err := m.open()
	if err != nil {
		return nil, err
	}
	h.checked = rc
	return rc, nil
}

// Close returns the decompressor to the pool.
func (h *HeadReader) Close() {
	if h.pooled != nil {
		flateReaders.Put(h.pooled)
		h.pooled = nil
	}
	if h.checked != nil {
		h.checked.Close()
		h.checked = nil
	}
}

// compressedBytes returns the member's compressed bytes within the mapped
// zip, or nil when it has none or they do not lie within it (open's reader
// then says what is wrong).
func (m *Inflater) compressedBytes() []byte {
	if m.zip == nil {
		return nil
	}
	data := m.zip.Bytes()
	if m.at < 0 || m.at > int64(len(data)) || m.packed < 0 || m.packed > int64(len(data))-m.at {
		return nil
	}
	return data[m.at : m.at+m.packed]
}
