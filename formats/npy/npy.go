package npy

import (
	"fmt"

	"tensorscope/formats"
)

var npyFormat = &formats.Format{
	ID:         "npy",
	Name:       "NumPy array",
	Extensions: []string{".npy"},
	Sniff:      sniffNPY,
}

func init() {
	npyFormat.Decode = decodeNPY
	npzFormat.Decode = decodeNPZ
	npyFormat.Encoder = encoder
	formats.Register(npyFormat)
	formats.Register(npzFormat)
}

// decodeNPY reads a .npy file: its header, and one array named #0 viewed
// over the mapped file.
func decodeNPY(src *formats.Source) (*formats.Document, error) {
	h, err := parseHeader(src.Data, 0)
	if err != nil {
		if h == nil {
			return nil, err
		}
		partial := src.NewDocument(npyFormat, "")
		partial.Header = h.prefixFields(0)
		return partial, err
	}
	doc := src.NewDocument(npyFormat, h.versionString())
	doc.Header = h.headerFields(0)
	doc.HeaderSpan = formats.Span{Offset: 0, Len: h.dataOffset}
	size := int64(len(src.Data))
	want := h.dataBytes()
	if want >= 0 {
		if have := size - h.dataOffset; have < want {
			return doc, formats.Errorf(size, "data: %s%v needs %d bytes after the header at byte %d, the file holds %d",
				h.elem.name(), h.shape, want, h.dataOffset, have)
		} else if have > want {
			doc.Warn(h.dataOffset+want, "%d bytes after the array's data (ignored)", have-want)
		}
	} else {
		want = size - h.dataOffset
	}
	a := &array{entry: formats.TensorEntry{Name: "#0"}, h: h, fileOffset: h.dataOffset, fileBytes: want, where: inFile, file: src.Storage}
	doc.Tensors = a.appendEntries(doc, nil)
	doc.Metadata = arrayMeta("", h)
	return doc, nil
}

// arrayMeta is the metadata tree of one array's header.
func arrayMeta(name string, h *header) *formats.Meta {
	shape := make([]int64, len(h.shape))
	for i, d := range h.shape {
		shape[i] = int64(d)
	}
	m := formats.NewObject(name,
		formats.Leaf("version", h.versionString()),
		formats.Leaf("descr", descrText(h)),
		formats.Leaf("dtype", h.elem.name()),
		formats.Leaf("fortran_order", h.fortran),
		formats.Leaf("shape", shape),
		formats.Leaf("header_bytes", h.dataOffset),
	)
	if h.elem.kind == 'r' {
		fields := formats.NewList("fields")
		for _, f := range h.elem.fieldsText() {
			fields.Add(formats.Leaf(fmt.Sprint(len(fields.Children)), f))
		}
		m.Add(fields)
	}
	return m
}
