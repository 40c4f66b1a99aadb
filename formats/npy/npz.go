package npy

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	kflate "github.com/klauspost/compress/flate"

	"tensorscope/formats"
	"tensorscope/tensor"
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

// decodeNPZ lists every .npy member of the zip. Stored members are viewed
// in place over the mapped zip; deflated ones have their header inflated
// now and their data on first use.
func decodeNPZ(src *formats.Source) (*formats.Document, error) {
	size := int64(len(src.Data))
	zr, err := zip.NewReader(bytes.NewReader(src.Data), size)
	if err != nil && !errors.Is(err, zip.ErrInsecurePath) {
		// Member names are never used as paths, so "insecure" names are only listed.
		return nil, formats.Errorf(-1, "zip: %v", err)
	}
	doc := src.NewDocument(npzFormat, "")
	doc.Metadata = formats.NewObject("")
	members := formats.NewObject("members")
	seen := map[string]bool{}
	var stored, deflated, unlisted int
	var scratch headerScratch
	for _, f := range zr.File {
		if strings.HasSuffix(f.Name, "/") {
			continue
		}
		a, at, err := readMember(doc, src, f, &scratch, len(doc.Header) < maxHeaderFields)
		if err != nil {
			doc.Warn(at, "member %q: %v", f.Name, err)
			continue
		}
		if a == nil {
			continue
		}
		if seen[a.name] {
			doc.Warn(at, "member %q appears again: only the first is listed", f.Name)
			continue
		}
		seen[a.name] = true
		if f.Method == zip.Store {
			stored++
		} else {
			deflated++
		}
		if len(doc.Header) < maxHeaderFields && at >= 0 {
			doc.Header = append(doc.Header, formats.HeaderField{Name: f.Name, Offset: at,
				Size: int(min(a.h.dataOffset, 1<<30)), Value: strings.TrimRight(a.h.dict, " \n"), Meaning: a.h.meaning()})
		}
		if len(members.Children) < maxMetaMembers {
			members.Add(arrayMeta(a.name, a.h))
		} else {
			unlisted++
		}
		doc.Tensors = append(doc.Tensors, a.entries(doc)...)
	}
	doc.Metadata.Add(
		formats.Leaf("members", int64(len(zr.File))),
		formats.Leaf("stored", int64(stored)),
		formats.Leaf("deflated", int64(deflated)),
		members)
	if unlisted > 0 {
		doc.Metadata.Add(formats.Leaf("members not described", fmt.Sprintf("%d more arrays: the Tensors pane lists them all", unlisted)))
	}
	if len(doc.Header) > 0 {
		h := doc.Header[0]
		doc.HeaderSpan = formats.Span{Offset: 0, Len: h.Offset + int64(h.Size)}
	}
	return doc, nil
}

// readMember reads one member's .npy header. It returns nil for members
// that are not arrays (after warning), and the offset to report problems at.
// keepDict says whether the header's text is kept (for the Header pane).
func readMember(doc *formats.Document, src *formats.Source, f *zip.File, scratch *headerScratch, keepDict bool) (*array, int64, error) {
	at, err := f.DataOffset()
	if err != nil {
		return nil, -1, fmt.Errorf("local header: %v", err)
	}
	if !strings.HasSuffix(f.Name, ".npy") {
		doc.Warn(at, "member %q is not a .npy array: not listed", f.Name)
		return nil, at, nil
	}
	name := strings.TrimSuffix(f.Name, ".npy")
	switch f.Method {
	case zip.Store:
		a, err := storedMember(src, f, at, keepDict)
		if a != nil {
			a.name = name
		}
		return a, at, err
	case zip.Deflate:
		a, err := deflatedMember(doc, src.Storage, f, at, scratch, keepDict)
		if a != nil {
			a.name = name
		}
		return a, at, err
	}
	return nil, at, fmt.Errorf("compression method %d is not supported (expected 0 stored or 8 deflate)", f.Method)
}

// storedMember views a stored member in place: its bytes are a .npy inside
// the mapped zip.
func storedMember(src *formats.Source, f *zip.File, at int64, keepDict bool) (*array, error) {
	n := int64(f.UncompressedSize64)
	if f.UncompressedSize64 != f.CompressedSize64 || n < 0 || at+n > int64(len(src.Data)) || at+n < at {
		return nil, fmt.Errorf("stored member of %d bytes at byte %d does not fit in the %d-byte file", f.CompressedSize64, at, len(src.Data))
	}
	body := src.Data[at : at+n]
	h, err := parseHeaderText(body, at, keepDict)
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
	dataAt := at + h.dataOffset
	return &array{h: h, fileOffset: dataAt, fileBytes: want,
		attrs: []formats.Attr{{Name: "member", Value: f.Name}, {Name: "compression", Value: "stored"}},
		data:  func(context.Context) (*tensor.Storage, int64, error) { return src.Storage, dataAt, nil }}, nil
}

// deflatedMember reads the header of a deflated member by inflating its
// first bytes; the data is inflated on first use.
func deflatedMember(doc *formats.Document, zipData *tensor.Storage, f *zip.File, at int64, scratch *headerScratch, keepDict bool) (*array, error) {
	m, err := newInflater(doc, zipData, f, at)
	if err != nil {
		return nil, err
	}
	head, err := m.readHeader(scratch)
	if err != nil {
		return nil, err
	}
	h, err := parseHeaderText(head, 0, keepDict)
	if err != nil {
		var fe *formats.Error
		if errors.As(err, &fe) && fe.Offset >= 0 {
			return nil, fmt.Errorf("at byte %d of the inflated data: %s", fe.Offset, fe.Msg)
		}
		return nil, err
	}
	want := h.dataBytes()
	if want >= 0 && m.size-h.dataOffset < want {
		return nil, fmt.Errorf("data: %s%v needs %d bytes, the member declares %d after its header", h.elem.name(), h.shape, want, m.size-h.dataOffset)
	}
	return &array{h: h, fileOffset: -1, fileBytes: int64(f.CompressedSize64),
		attrs: []formats.Attr{{Name: "member", Value: f.Name}, {Name: "compression", Value: "deflate"},
			{Name: "compressed bytes", Value: int64(f.CompressedSize64)}, {Name: "inflated bytes", Value: m.size}},
		data: func(ctx context.Context) (*tensor.Storage, int64, error) {
			st, err := m.inflate(ctx)
			return st, h.dataOffset, err
		}}, nil
}

// flateReaders holds decompressors to reuse: each has a 32 KiB window and
// Huffman tables (about 40 KB) to allocate and clear, which for an archive
// of 100,000 small members, each opened to read its header, was 4 GB of
// allocation and most of the time of opening it.
var flateReaders sync.Pool

// newFlateReader is kflate.NewReader(r) from the pool; Close returns it.
func newFlateReader(r io.Reader) io.ReadCloser {
	return &pooledFlate{getFlateReader(r)}
}

// getFlateReader is a decompressor of r from the pool, or a new one; put
// it back into flateReaders when done.
func getFlateReader(r io.Reader) io.ReadCloser {
	if fr, ok := flateReaders.Get().(io.ReadCloser); ok {
		if fr.(kflate.Resetter).Reset(r, nil) == nil {
			return fr
		}
	}
	return kflate.NewReader(r)
}

type pooledFlate struct{ io.ReadCloser }

func (p *pooledFlate) Close() error {
	if p.ReadCloser == nil {
		return nil
	}
	err := p.ReadCloser.Close()
	flateReaders.Put(p.ReadCloser)
	p.ReadCloser = nil
	return err
}

func (p *pooledFlate) Read(b []byte) (int, error) {
	if p.ReadCloser == nil {
		return 0, errors.New("read after Close")
	}
	return p.ReadCloser.Read(b)
}
