package nn

import (
	"bytes"
	"context"
	"fmt"
	"unicode/utf8"

	"tensorscope/formats"
	"tensorscope/tensor"
)

const (
	magic   = "DATACODE"
	version = 1
	// minRecord is the smallest tensor record: name length, empty name,
	// ndim 0 and one f32 (a 0-dim tensor is a scalar).
	minRecord = 4 + 4 + 4
)

var format = &formats.Format{
	ID:         "nn",
	Name:       "DataCode .nn model",
	Extensions: []string{".nn"},
	Sniff:      func(b []byte) bool { return bytes.HasPrefix(b, []byte(magic)) },
}

func init() {
	// Set here: decode refers to format, which its literal cannot do
	// without an initialisation cycle.
	format.Decode = decode
	formats.Register(format)
}

// record is one tensor as the file stores it.
type record struct {
	name   string
	at     int64 // offset of the record (its name length)
	shape  []int
	elems  int   // the shape's element count, checked when read
	offset int64 // offset of the f32 data
}

func decode(src *formats.Source) (*formats.Document, error) {
	data := src.Data
	r := formats.NewReader(data)
	doc := src.NewDocument(format, "")

	m := string(r.Bytes(8, "magic"))
	if err := r.Err(); err != nil {
		return nil, err
	}
	if m != magic {
		return nil, formats.Errorf(0, "magic: expected %q, found %q", magic, m)
	}
	v := r.U32("version")
	if err := r.Err(); err != nil {
		return nil, err
	}
	if v != version {
		return nil, formats.Errorf(8, "version: expected 1 (the only DataCode .nn version), found %d", v)
	}
	doc.Version = fmt.Sprint(v)
	jsonLen := r.Count(1, "JSON length")
	text := r.Bytes(int64(jsonLen), "JSON")
	if err := r.Err(); err != nil {
		return nil, err
	}
	root, err := formats.JSONTree("", text, 16)
	if err != nil {
		return nil, err
	}
	if root.IsLeaf() || root.List {
		return nil, formats.Errorf(16, "JSON: expected an object {device, layers, training}, found %s", kind(root))
	}
	if !utf8.Valid(text) {
		doc.Warn(16, "the JSON is not valid UTF-8; invalid bytes are shown as U+FFFD")
	}
	countAt := r.Offset()
	count := r.Count(minRecord, "tensor count")
	if err := r.Err(); err != nil {
		return nil, err
	}
	doc.Header = []formats.HeaderField{
		{Name: "magic", Offset: 0, Size: 8, Value: magic},
		{Name: "version", Offset: 8, Size: 4, Value: v},
		{Name: "json_length", Offset: 12, Size: 4, Value: uint32(jsonLen)},
		{Name: "json", Offset: 16, Size: jsonLen, Value: string(text), Meaning: "architecture and training history"},
		{Name: "tensor_count", Offset: countAt, Size: 4, Value: uint32(count)},
	}
	doc.HeaderSpan = formats.Span{Offset: 0, Len: countAt + 4}
	doc.Metadata = root

	records := make([]record, 0, count)
	for i := 0; i < count; i++ {
		rec, err := readRecord(r, doc, i)
		if err != nil {
			return nil, err
		}
		records = append(records, rec)
	}
	if rest := r.Remaining(); rest > 0 {
		doc.Warn(r.Offset(), "%d trailing bytes after the last tensor", rest)
	}

	for _, rec := range records {
		n := rec.elems
		e := &formats.TensorEntry{
			Name: rec.name, DType: tensor.Float32, Shape: rec.shape,
			Offset: rec.offset, NBytes: int64(n) * 4, Role: formats.RoleWeight,
			Attrs: []formats.Attr{{Name: "record_offset", Value: rec.at}},
		}
		off, shape, st := rec.offset, rec.shape, src.Storage
		e.SetLoader(func(ctx context.Context) (*tensor.Tensor, error) {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			return tensor.New(st, off, tensor.Float32, shape)
		})
		doc.Tensors = append(doc.Tensors, e)
	}
	describe(doc, root)
	return doc, nil
}

func readRecord(r *formats.Reader, doc *formats.Document, i int) (record, error) {
	rec := record{at: r.Offset()}
	nameLen := r.Count(1, fmt.Sprintf("tensor %d name length", i))
	name := r.Bytes(int64(nameLen), fmt.Sprintf("tensor %d name", i))
	ndimAt := r.Offset()
	ndim := r.Count(4, fmt.Sprintf("tensor %d ndim", i))
	if err := r.Err(); err != nil {
		return rec, err
	}
	rec.name = string(name)
	if !utf8.Valid(name) {
		doc.Warn(rec.at+4, "tensor %d: name %q is not valid UTF-8", i, name)
	}
	rec.shape = make([]int, ndim)
	for k := range rec.shape {
		rec.shape[k] = int(r.U32(fmt.Sprintf("tensor %q dim %d", rec.name, k)))
	}
	if err := r.Err(); err != nil {
		return rec, err
	}
	n, err := tensor.NumElements(rec.shape)
	if err != nil {
		return rec, formats.Errorf(ndimAt+4, "tensor %q: shape %v: %v", rec.name, rec.shape, err)
	}
	rec.elems = n
	rec.offset = r.Offset()
	if int64(n) > r.Remaining()/4 {
		return rec, formats.Errorf(rec.offset, "tensor %q: shape %v needs %d bytes of f32 data, only %d left in the file",
			rec.name, rec.shape, int64(n)*4, r.Remaining())
	}
	r.Skip(int64(n)*4, "tensor data")
	return rec, r.Err()
}

func kind(m *formats.Meta) string {
	switch {
	case m.List:
		return "a list"
	case m.IsLeaf():
		return fmt.Sprintf("the value %v", m.Value)
	}
	return "an object"
}
