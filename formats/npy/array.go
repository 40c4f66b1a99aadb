package npy

import (
	"context"
	"fmt"
	"strings"

	"tensorscope/formats"
	"tensorscope/tensor"
)

// dataSource returns the storage holding an array's data and the offset of
// the data in it: the mapped file for .npy and stored .npz members, an
// inflated copy for deflated members.
type dataSource func(ctx context.Context) (*tensor.Storage, int64, error)

// array is one .npy array of a document, ready to be listed.
type array struct {
	name       string // "#0", or the .npz member's name without ".npy"
	h          *header
	data       dataSource
	fileOffset int64 // offset of the array data in the file; -1 when compressed
	fileBytes  int64 // bytes the data (or the compressed member) takes in the file
	attrs      []formats.Attr
}

// objectWarning is the warning every object array gets.
const objectWarning = "pickled Python objects: not loaded"

// entries lists the array as tensor entries: the array itself, then one
// entry per numeric field of a record.
func (a *array) entries(doc *formats.Document) []*formats.TensorEntry {
	h := a.h
	// One slice of the exact size: a is kept by the loaders, so its own
	// attrs are dropped once copied (13 MB for 100,000 members).
	attrs := append(a.layoutAttrs(make([]formats.Attr, 0, a.layoutAttrCount()+len(a.attrs))), a.attrs...)
	a.attrs = nil
	e := &formats.TensorEntry{
		Name: a.name, DType: h.elem.dtype, Shape: h.shape, Offset: a.fileOffset,
		NBytes: a.fileBytes, Role: formats.RoleData, Attrs: attrs,
	}
	if n := h.elem.name(); n != h.elem.dtype.String() {
		e.TypeName = n
	}
	strides := recordStrides(h.shape, h.elem.size, h.fortran)
	switch {
	case hasObjects(h.elem):
		e.Note = objectWarning
		e.NBytes = 0
		at := a.fileOffset
		if at < 0 {
			at = -1
		}
		where := objectWarning
		if a.name != "#0" {
			where = fmt.Sprintf("%s: %s", a.name, objectWarning)
		}
		doc.Warn(at, "%s", where)
		return []*formats.TensorEntry{e}
	case h.elem.numeric():
		p := &placement{dtype: h.elem.dtype, size: h.elem.size, shape: h.shape, strides: strides, bigEndian: h.elem.bigEndian()}
		e.SetLoader(a.loader(p))
	}
	if !h.elem.numeric() {
		e.SetText(a.textReader(strides)) // strings and records: the core has no numbers for them
	}
	out := []*formats.TensorEntry{e}
	if h.elem.kind != 'r' {
		return out
	}
	names, places, skipped := fieldPlacements(h.elem, a.name, 0, h.shape, strides)
	for _, s := range skipped {
		doc.Warn(a.fileOffset, "field %s has more than 2^48 elements: not listed", s)
	}
	for i, p := range places {
		f := &formats.TensorEntry{Name: names[i], DType: p.dtype, Shape: p.shape, Offset: -1, Role: formats.RoleData,
			Attrs: []formats.Attr{{Name: "field of", Value: a.name}, {Name: "byte offset in record", Value: p.offset}}}
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
			f.Attrs = append(f.Attrs, formats.Attr{Name: "unit", Value: fieldUnit(h.elem, strings.TrimPrefix(names[i], a.name+"."))})
		}
		f.SetLoader(a.loader(p))
		out = append(out, f)
	}
	return out
}

// layoutAttrCount is how many attributes layoutAttrs appends.
func (a *array) layoutAttrCount() int {
	n := 2
	if a.h.elem.bigEndian() {
		n++
	}
	if k := a.h.elem.kind; k == 'M' || k == 'm' || k == 'r' {
		n++
	}
	return n
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
