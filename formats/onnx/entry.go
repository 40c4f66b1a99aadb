package onnx

import (
	"context"
	"fmt"
	"strconv"

	"tensorscope/formats"
	"tensorscope/tensor"
)

// entry makes the document's entry for a TensorProto: dtype, shape and a
// loader over the mapped bytes (raw_data), over a further file (external
// data), or decoding the typed *_data fields on first use. name overrides
// the TensorProto's own name (a Constant node's output) when not "".
func (b *builder) entry(tp *tensorProto, name string, role formats.Role) *formats.TensorEntry {
	if name == "" {
		name = tp.name
	}
	e := &formats.TensorEntry{Name: name, DType: dtypeOf(tp.dataType), Shape: tp.dims, Offset: -1, Role: role}
	if e.Shape == nil {
		e.Shape = []int{}
	}
	e.Attrs = b.typeAttrs(tp.dataType)
	if _, known := dataTypes[tp.dataType]; !known {
		b.warn(tp.m.start, "tensor %q has %s, which this version of ONNX does not define", name, dataTypeName(tp.dataType))
		e.Note = "unknown data type " + strconv.FormatInt(tp.dataType, 10)
		return e
	}
	n, err := tp.elements()
	if err != nil || len(tp.dims) > maxRank {
		if err == nil {
			err = fmt.Errorf("%d dims; at most %d are shown", len(tp.dims), maxRank)
		}
		b.warn(tp.m.start, "tensor %q: dims %v: %v", name, tp.dims, err)
		e.Note = "invalid dims"
		return e
	}
	if tp.segment {
		b.warn(tp.m.start, "tensor %q is a segment of a larger tensor; it is shown as stored", name)
	}
	switch {
	case tp.dataType == dtString:
		b.stringEntry(e, tp, n)
	case tp.location == 1 || len(tp.external) > 0:
		b.externalEntry(e, tp, n)
	case tp.rawAt >= 0:
		b.rawEntry(e, tp, n)
	case tp.typed > 0:
		b.typedEntry(e, tp, n)
	case n == 0:
		e.Offset, e.NBytes = tp.m.start, 0
		b.setView(e, b.src.Storage, 0, n)
	default:
		b.warn(tp.m.start, "tensor %q: dims %v imply %d values, but none are stored", name, tp.dims, n)
		e.Note = "no values are stored"
	}
	return e
}

// typeAttrs is the attribute naming an ONNX data type. Entries share one
// slice per type (capacity = length, so appending copies): a model of
// 50,000 initializers needs a handful, not 50,000.
func (b *builder) typeAttrs(t int64) []formats.Attr {
	if a, ok := b.attrCache[t]; ok {
		return a
	}
	a := []formats.Attr{{Name: "onnx data type", Value: formats.Enum{Value: t, Name: dataTypeName(t)}}}
	b.attrCache[t] = a[:1:1]
	return a[:1:1]
}

// rawAttrs is typeAttrs plus "storage raw_data", shared the same way.
func (b *builder) rawAttrs(t int64) []formats.Attr {
	key := t | 1<<40
	if a, ok := b.attrCache[key]; ok {
		return a
	}
	a := append(b.typeAttrs(t), formats.Attr{Name: "storage", Value: "raw_data"})
	b.attrCache[key] = a[:2:2]
	return a[:2:2]
}

// needBytes is the bytes n elements of the entry's dtype occupy.
func needBytes(e *formats.TensorEntry, n int) int64 {
	need, err := tensor.StorageBytes(e.DType, int64(n))
	if err != nil {
		return -1
	}
	return need
}

func (b *builder) rawEntry(e *formats.TensorEntry, tp *tensorProto, n int) {
	e.Offset, e.NBytes = tp.rawAt, tp.rawLen
	e.Attrs = b.rawAttrs(tp.dataType)
	need := needBytes(e, n)
	switch {
	case tp.rawLen < need:
		b.warn(tp.rawAt, "tensor %q: raw_data holds %d bytes, the dims %v of %s need %d", e.Name, tp.rawLen, tp.dims, e.DType, need)
		e.Note = fmt.Sprintf("raw_data is %d bytes short", need-tp.rawLen)
		return
	case tp.rawLen > need:
		b.warn(tp.rawAt, "tensor %q: raw_data holds %d bytes, the dims %v of %s need only %d; the rest is ignored", e.Name, tp.rawLen, tp.dims, e.DType, need)
	}
	b.setView(e, b.src.Storage, tp.rawAt, n)
}

// setView installs a loader that views n elements at off in st.
func (b *builder) setView(e *formats.TensorEntry, st *tensor.Storage, off int64, n int) {
	dt, shape := e.DType, e.Shape
	e.SetLoader(func(context.Context) (*tensor.Tensor, error) { return viewAt(st, off, dt, shape) })
}

// viewAt views n elements of dt at off in st, packed types included.
func viewAt(st *tensor.Storage, off int64, dt tensor.DType, shape []int) (*tensor.Tensor, error) {
	return tensor.New(st, off, dt, shape)
}

func (b *builder) typedEntry(e *formats.TensorEntry, tp *tensorProto, n int) {
	num, per := typedField(tp.dataType)
	e.Offset, e.NBytes = tp.m.start, tp.m.end-tp.m.start
	e.Attrs = append(e.Attrs, formats.Attr{Name: "storage", Value: typedFieldName(tp.typedNum)})
	want := int64(n) * int64(per)
	if e.DType.Packed() {
		want = needBytes(e, n)
	}
	if tp.typedNum != num || int64(tp.typed) != want {
		b.warn(tp.m.start, "tensor %q: %s holds %d values; %s with dims %v needs %d in %s",
			e.Name, typedFieldName(tp.typedNum), tp.typed, dataTypeName(tp.dataType), tp.dims, want, typedFieldName(num))
		e.Note = "stored values do not match the dims"
		return
	}
	dt, shape := e.DType, e.Shape
	e.SetLoader(func(ctx context.Context) (*tensor.Tensor, error) {
		raw, err := tp.typedBytes(dt, n)
		if err != nil {
			return nil, err
		}
		return viewAt(tensor.NewStorage(raw), 0, dt, shape)
	})
}
