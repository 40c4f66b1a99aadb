package npy

import (
	"context"
	"fmt"
	"strings"

	"tensorscope/formats"
	"tensorscope/formats/internal/zipfile"
	"tensorscope/tensor"
)

// Where an array's data lies.
const (
	inFile    = iota // the .npy file itself, viewed in place
	storedIn         // a stored .npz member, viewed in place in the zip
	deflateIn        // a deflated .npz member, inflated on first use
)

// array is one .npy array of a document: its entry, and what loading it
// and describing it need, in one object. An archive of 100,000 small
// arrays keeps 100,000 of them, so nothing here is kept that can be
// worked out again: the entry's attributes are made when asked for
// (AppendAttrs), the loader's placement when loading.
type array struct {
	entry            formats.TensorEntry // Name is "#0", or the .npz member's name without ".npy"
	h                *header
	fileOffset       int64 // offset of the array data in the file; -1 when compressed
	fileBytes        int64 // bytes the data (or the compressed member) takes in the file
	where            int8  // inFile, storedIn or deflateIn
	file             *tensor.Storage
	zipfile.Inflater // deflated members only
}

// data returns the storage holding the array's data and the offset of
// the data in it: the mapped file for .npy and stored .npz members, an
// inflated copy for deflated members.
func (a *array) data(ctx context.Context) (*tensor.Storage, int64, error) {
	if a.where != deflateIn {
		return a.file, a.fileOffset, nil
	}
	st, err := a.Inflate(ctx)
	return st, a.h.dataOffset, err
}

// objectWarning is the warning every object array gets.
const objectWarning = "pickled Python objects: not loaded"

// appendEntries appends the array's tensor entries to list: the array
// itself, then one entry per numeric field of a record.
func (a *array) appendEntries(doc *formats.Document, list []*formats.TensorEntry) []*formats.TensorEntry {
	h := a.h
	e := &a.entry
	e.DType, e.Shape, e.Offset, e.NBytes, e.Role = h.elem.dtype, h.shape, a.fileOffset, a.fileBytes, formats.RoleData
	e.SetAttrSource(a)
	if n := h.elem.name(); n != h.elem.dtype.String() {
		e.TypeName = n
	}
	name := e.Name
	switch {
	case hasObjects(h.elem):
		e.Note = objectWarning
		e.NBytes = 0
		at := a.fileOffset
		if at < 0 {
			at = -1
		}
		where := objectWarning
		if name != "#0" {
			where = fmt.Sprintf("%s: %s", name, objectWarning)
		}
		doc.Warn(at, "%s", where)
		return append(list, e)
	case h.elem.numeric():
		e.SetLoader(a.load)
	}
	list = append(list, e)
	if h.elem.numeric() {
		return list
	}
	strides := recordStrides(h.shape, h.elem.size, h.fortran)
	e.SetText(a.textReader(strides)) // strings and records: the core has no numbers for them
	if h.elem.kind != 'r' {
		return list
	}
	names, places, skipped := fieldPlacements(h.elem, name, 0, h.shape, strides)
	for _, s := range skipped {
		doc.Warn(a.fileOffset, "field %s has more than 2^48 elements: not listed", s)
	}
	for i, p := range places {
		f := &formats.TensorEntry{Name: names[i], DType: p.dtype, Shape: p.shape, Offset: -1, Role: formats.RoleData,
			Attrs: []formats.Attr{{Name: "field of", Value: name}, {Name: "byte offset in record", Value: p.offset}}}
		if a.fileOffset >= 0 {
			f.Offset = a.fileOffset + p.offset
		}
		if n, err := tensor.NumElements(p.shape); err == nil {
			f.NBytes = int64(n) * int64(p.size)
		}
		if p.bigEndian {
			f.Attrs = append(f.Attrs, formats.Attr{Name: "byte order", Value: "big-endian"})
		}
		if p.dtype == tensor.Datetime64 || p.dtype == tensor.Timedelta64 {
			f.Attrs = append(f.Attrs, formats.Attr{Name: "unit", Value: fieldUnit(h.elem, strings.TrimPrefix(names[i], name+"."))})
		}
		f.SetLoader(a.loader(p))
		list = append(list, f)
	}
	return list
}

// AppendAttrs appends the array's attributes: its layout, and for an
// .npz member the member's name and compression.
func (a *array) AppendAttrs(attrs []formats.Attr) []formats.Attr {
	attrs = a.layoutAttrs(attrs)
	switch a.where {
	case storedIn:
		attrs = append(attrs, formats.Attr{Name: "member", Value: a.entry.Name + ".npy"}, formats.Attr{Name: "compression", Value: "stored"})
	case deflateIn:
		attrs = append(attrs, formats.Attr{Name: "member", Value: a.entry.Name + ".npy"}, formats.Attr{Name: "compression", Value: "deflate"},
			formats.Attr{Name: "compressed bytes", Value: a.CompressedSize()}, formats.Attr{Name: "inflated bytes", Value: a.Size()})
	}
	return attrs
}

// layoutAttrs appends the array's layout facts to attrs.
func (a *array) layoutAttrs(attrs []formats.Attr) []formats.Attr {
	h := a.h
	order := "C"
	if h.fortran {
		order = "Fortran"
	}
	attrs = append(attrs, formats.Attr{Name: "descr", Value: descrText(h)}, formats.Attr{Name: "order", Value: order})
	if h.elem.bigEndian() {
		attrs = append(attrs, formats.Attr{Name: "byte order", Value: "big-endian"})
	}
	if h.elem.kind == 'M' || h.elem.kind == 'm' {
		attrs = append(attrs, formats.Attr{Name: "unit", Value: h.elem.unit})
	}
	if h.elem.kind == 'r' {
		attrs = append(attrs, formats.Attr{Name: "fields", Value: h.elem.fieldsText()})
	}
	return attrs
}

// descrText is the descr as the header spells it, shortened for records.
func descrText(h *header) string {
	if h.elem.kind != 'r' {
		return h.elem.descr
	}
	return fmt.Sprintf("record of %d fields, %d bytes", len(h.elem.fields), h.elem.size)
}

func fieldUnit(t *elemType, dotted string) string {
	for _, part := range strings.Split(dotted, ".") {
		for _, f := range t.fields {
			if f.name == part {
				t = f.elem
				break
			}
		}
	}
	return t.unit
}

func (a *array) loader(p *placement) func(ctx context.Context) (*tensor.Tensor, error) {
	return func(ctx context.Context) (*tensor.Tensor, error) {
		st, off, err := a.data(ctx)
		if err != nil {
			return nil, err
		}
		return p.load(ctx, st, off)
	}
}

// load loads the array of a numeric dtype.
func (a *array) load(ctx context.Context) (*tensor.Tensor, error) {
	h := a.h
	p := placement{dtype: h.elem.dtype, size: h.elem.size, shape: h.shape,
		strides: recordStrides(h.shape, h.elem.size, h.fortran), bigEndian: h.elem.bigEndian()}
	return a.loader(&p)(ctx)
}

// textReader spells element flat of the array from its bytes.
func (a *array) textReader(strides []int64) func(flat int) (string, error) {
	h := a.h
	return func(flat int) (string, error) {
		st, off, err := a.data(context.Background())
		if err != nil {
			return "", err
		}
		at := off + elementOffset(h.shape, strides, flat)
		b := st.Bytes()
		if at < 0 || at+int64(h.elem.size) > int64(len(b)) {
			return "", fmt.Errorf("element %d at byte %d lies past the data", flat, at)
		}
		var s string
		err = tensor.CatchFault(func() error {
			s = elementText(h.elem, b[at:at+int64(h.elem.size)])
			return nil
		})
		return s, err
	}
}
