package npy

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"

	"tensorscope/formats"
	"tensorscope/formats/internal/zipfile"
)

var npzFormat = &formats.Format{
	ID:         "npz",
	Name:       "NumPy .npz archive",
	Extensions: []string{".npz"},
	Sniff:      sniffNPZ,
}

// sniffNPZ accepts a zip whose first member is a .npy (what np.savez
// writes), or an empty zip: other zip-based files (PyTorch checkpoints,
// Office documents) start with other members.
func sniffNPZ(b []byte) bool {
	if len(b) >= 22 && string(b[:4]) == "PK\x05\x06" {
		return true
	}
	if len(b) < 30 || string(b[:4]) != "PK\x03\x04" {
		return false
	}
	nameLen := int(binary.LittleEndian.Uint16(b[26:28]))
	if nameLen == 0 || 30+nameLen > len(b) {
		return false
	}
	return strings.HasSuffix(string(b[30:30+nameLen]), ".npy")
}

// maxHeaderFields bounds how many members' headers the Header pane lists.
const maxHeaderFields = 256

// maxMetaMembers bounds how many members the metadata tree describes: its
// six values per member (a few hundred bytes) made an archive of 100,000
// small arrays hold 115 MB of metadata that repeats what the Tensors pane
// lists.
const maxMetaMembers = 1000

// maxSharedHeaders bounds how many distinct member headers decodeNPZ
// shares between members (an archive of many arrays repeats a few).
const maxSharedHeaders = 4096

// decodeNPZ lists every .npy member of the zip. Stored members are viewed
// in place over the mapped zip; deflated ones have their header inflated
// now and their data on first use. The central directory is read from the
// mapping a record at a time (zipfile.Directory), and each listed member is
// one object (array).
func decodeNPZ(src *formats.Source) (*formats.Document, error) {
	dir, err := zipfile.Read(src.Data)
	if err != nil {
		return nil, err
	}
	doc := src.NewDocument(npzFormat, "")
	doc.Metadata = formats.NewObject("")
	doc.Tensors = make([]*formats.TensorEntry, 0, dir.Len())
	members := formats.NewObject("members")
	r := npzReader{doc: doc, src: src, dir: dir, seen: make(map[string]struct{}, dir.Len()), headers: map[string]*header{}}
	dir.Each(r.member)
	doc.Metadata.Add(
		formats.Leaf("members", int64(dir.Len())),
		formats.Leaf("stored", int64(r.stored)),
		formats.Leaf("deflated", int64(r.deflated)),
		members)
	for _, a := range r.described {
		members.Add(arrayMeta(a.entry.Name, a.h))
	}
	if r.undescribed > 0 {
		doc.Metadata.Add(formats.Leaf("members not described", fmt.Sprintf("%d more arrays: the Tensors pane lists them all", r.undescribed)))
	}
	if len(doc.Header) > 0 {
		h := doc.Header[0]
		doc.HeaderSpan = formats.Span{Offset: 0, Len: h.Offset + int64(h.Size)}
	}
	return doc, nil
}

// npzReader is what listing an archive's members keeps from one member to
// the next.
type npzReader struct {
	doc              *formats.Document
	src              *formats.Source
	dir              *zipfile.Directory
	seen             map[string]struct{}
	headers          map[string]*header // shared headers, by their bytes
	scratch          headerScratch
	stored, deflated int
	described        []*array // the first maxMetaMembers, for the metadata tree
	undescribed      int
}

// member lists the member of record m, or warns why not.
func (r *npzReader) member(m *zipfile.Member) {
	if m.IsFolder() {
		return
	}
	a, at, err := r.read(m)
	if err != nil {
		r.doc.Warn(at, "member %q: %v", m.Name, err)
		return
	}
	if a == nil {
		return
	}
	if _, dup := r.seen[a.entry.Name]; dup {
		r.doc.Warn(at, "member %q appears again: only the first is listed", m.Name)
		return
	}
	r.seen[a.entry.Name] = struct{}{}
	if m.Method == zipfile.Store {
		r.stored++
	} else {
		r.deflated++
	}
	if len(r.doc.Header) < maxHeaderFields && at >= 0 {
		r.doc.Header = append(r.doc.Header, formats.HeaderField{Name: string(m.Name), Offset: at,
			Size: int(min(a.h.dataOffset, 1<<30)), Value: strings.TrimRight(a.h.dict, " \n"), Meaning: a.h.meaning()})
	}
	if len(r.described) < maxMetaMembers {
		r.described = append(r.described, a)
	} else {
		r.undescribed++
	}
	r.doc.Tensors = a.appendEntries(r.doc, r.doc.Tensors)
}

// read reads one member's .npy header. It returns nil for members that
// are not arrays (after warning), and the offset to report problems at.
func (r *npzReader) read(m *zipfile.Member) (*array, int64, error) {
	at, err := r.dir.DataOffset(m)
	if err != nil {
		var fe *formats.Error
		if errors.As(err, &fe) {
			return nil, fe.Offset, errors.New(fe.Msg)
		}
		return nil, -1, err
	}
	if !bytes.HasSuffix(m.Name, []byte(".npy")) {
		r.doc.Warn(at, "member %q is not a .npy array: not listed", m.Name)
		return nil, at, nil
	}
	keepDict := len(r.doc.Header) < maxHeaderFields
	var a *array
	switch m.Method {
	case zipfile.Store:
		a, err = r.storedMember(m, at, keepDict)
	case zipfile.Deflate:
		a, err = r.deflatedMember(m, at, keepDict)
	default:
		return nil, at, fmt.Errorf("compression method %d is not supported (expected 0 stored or 8 deflate)", m.Method)
	}
	if a != nil {
		a.entry.Name = string(m.Name[:len(m.Name)-len(".npy")])
	}
	return a, at, err
}

// parseHeader parses the member header b (at base in the file), sharing
// one header between the members whose header bytes are the same when its
// text is not kept.
func (r *npzReader) parseHeader(b []byte, base int64, keepDict bool) (*header, error) {
	if keepDict {
		return parseHeaderText(b, base, true)
	}
	if total, err := peekHeaderLen(b, base); err == nil && total <= int64(len(b)) {
		if h, ok := r.headers[string(b[:total])]; ok {
			return h, nil
		}
		h, err := parseHeaderText(b, base, false)
		if err == nil && len(r.headers) < maxSharedHeaders {
			r.headers[string(b[:total])] = h
		}
		return h, err
	}
	return parseHeaderText(b, base, false)
}

// storedMember views a stored member in place: its bytes are a .npy inside
// the mapped zip.
func (r *npzReader) storedMember(m *zipfile.Member, at int64, keepDict bool) (*array, error) {
	data := r.src.Data
	n := int64(m.UncompressedSize)
	if m.UncompressedSize != m.CompressedSize || n < 0 || at+n > int64(len(data)) || at+n < at {
		return nil, fmt.Errorf("stored member of %d bytes at byte %d does not fit in the %d-byte file", m.CompressedSize, at, len(data))
	}
	body := data[at : at+n]
	h, err := r.parseHeader(body, at, keepDict)
	if err != nil {
		return nil, err
	}
	want := h.dataBytes()
	if want >= 0 && n-h.dataOffset < want {
		return nil, formats.Errorf(at+n, "data: %s%v needs %d bytes, the member holds %d", h.elem.name(), h.shape, want, n-h.dataOffset)
	}
	if want < 0 {
		want = n - h.dataOffset
	}
	return &array{h: h, fileOffset: at + h.dataOffset, fileBytes: want, where: storedIn, file: r.src.Storage}, nil
}

// deflatedMember reads the header of a deflated member by inflating its
// first bytes; the data is inflated on first use.
func (r *npzReader) deflatedMember(m *zipfile.Member, at int64, keepDict bool) (*array, error) {
	a := &array{fileOffset: -1, fileBytes: int64(m.CompressedSize), where: deflateIn}
	if err := a.Init(r.doc, r.src.Storage, at, m); err != nil {
		return nil, err
	}
	head, err := a.readHeader(&r.scratch)
	if err != nil {
		return nil, err
	}
	h, err := r.parseHeader(head, 0, keepDict)
	if err != nil {
		var fe *formats.Error
		if errors.As(err, &fe) && fe.Offset >= 0 {
			return nil, fmt.Errorf("at byte %d of the inflated data: %s", fe.Offset, fe.Msg)
		}
		return nil, err
	}
	want := h.dataBytes()
	if want >= 0 && a.Size()-h.dataOffset < want {
		return nil, fmt.Errorf("data: %s%v needs %d bytes, the member declares %d after its header", h.elem.name(), h.shape, want, a.Size()-h.dataOffset)
	}
	a.h = h
	return a, nil
}
