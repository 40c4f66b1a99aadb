package gguf

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"

	"tensorscope/formats"
	"tensorscope/tensor"
)

var format = &formats.Format{
	ID:         "gguf",
	Name:       "GGUF model",
	Extensions: []string{".gguf"},
	Sniff:      func(b []byte) bool { return bytes.HasPrefix(b, []byte(magic)) },
}

func init() {
	format.Decode = decode
	formats.Register(format)
}

func decode(src *formats.Source) (*formats.Document, error) {
	h, err := parseHeader(src.Data, int64(len(src.Data)))
	if err != nil {
		partial := src.NewDocument(format, "")
		partial.Header = h.fields
		return partial, err
	}
	doc := src.NewDocument(format, fmt.Sprint(h.version))
	doc.Header = h.fields
	doc.HeaderSpan = formats.Span{Offset: 0, Len: min(h.dataStart, doc.Size)}
	doc.Metadata = h.meta
	doc.Warnings = append(doc.Warnings, h.warnings...)
	storage := func() (*tensor.Storage, error) { return src.Storage, nil }
	addTensors(doc, h, storage, doc.Size, "")
	openSplit(doc, src.Path, h)
	return doc, nil
}

// addTensors lists h's tensors in doc; storage gives the file's bytes when a
// tensor is first loaded (a further shard is mapped only then).
func addTensors(doc *formats.Document, h *header, storage func() (*tensor.Storage, error), fileSize int64, shard string) {
	for i := range h.tensors {
		ti := h.tensors[i]
		e := &formats.TensorEntry{
			Name:   ti.name,
			DType:  ti.dtype,
			Shape:  ti.shape,
			Offset: h.dataStart + ti.offset,
			NBytes: ti.nbytes,
			Role:   formats.RoleWeight,
			Attrs:  []formats.Attr{{Name: "ggml type", Value: formats.Enum{Value: int64(ti.ggmlType), Name: GGMLTypeName(ti.ggmlType)}}},
		}
		if shard != "" {
			e.Attrs = append(e.Attrs, formats.Attr{Name: "file", Value: shard})
		}
		if h.order == binary.BigEndian {
			e.Attrs = append(e.Attrs, formats.Attr{Name: "byte order", Value: "big-endian"})
		}
		if e.Offset > fileSize || ti.nbytes > fileSize-e.Offset {
			e.Note = fmt.Sprintf("the data (bytes %d…%d) lies beyond the end of the file (%d bytes)",
				e.Offset, e.Offset+ti.nbytes, fileSize)
		} else {
			e.SetLoader(loader(e.Offset, ti, h.order, storage))
		}
		doc.Tensors = append(doc.Tensors, e)
		doc.Tensors = append(doc.Tensors, quantViews(e)...)
	}
}

func loader(off int64, ti tensorInfo, order binary.ByteOrder, storage func() (*tensor.Storage, error)) func(context.Context) (*tensor.Tensor, error) {
	return func(ctx context.Context) (*tensor.Tensor, error) {
		st, err := storage()
		if err != nil {
			return nil, err
		}
		t, err := tensor.New(st, off, ti.dtype, ti.shape)
		if err != nil || order != binary.BigEndian {
			return t, err
		}
		// The kernels swap big-endian values as they read them.
		return t.BigEndian()
	}
}
