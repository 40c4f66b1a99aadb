package onnx

import (
	"fmt"
	"sync"

	"google.golang.org/protobuf/encoding/protowire"

	"tensorscope/formats"
	"tensorscope/tensor"
)

// stringTypeName is how a STRING tensor's element type is listed: the
// onnx package reads one as a NumPy array of dtype object, and the npy
// codec names its object arrays the same way.
const stringTypeName = "object"

// stringEntry makes a STRING tensor's elements readable as text. Opening
// only counts the string_data entries; the first read indexes where each
// one lies (off the UI goroutine: the inspector reads element 0 in a
// task), and every later read is one slice of the mapped file.
func (b *builder) stringEntry(e *formats.TensorEntry, tp *tensorProto, n int) {
	e.Offset, e.NBytes = tp.m.start, tp.m.end-tp.m.start
	e.TypeName = stringTypeName
	if tp.typed != n {
		b.warn(tp.m.start, "tensor %q: string_data holds %d strings, the dims %v imply %d", e.Name, tp.typed, tp.dims, n)
		e.Note = fmt.Sprintf("%d strings stored for %d elements", tp.typed, n)
	}
	table := &stringTable{m: tp.m, count: tp.typed}
	e.SetText(table.at)
}

// stringTable reads the string_data entries of one TensorProto.
type stringTable struct {
	m     msg
	count int
	once  sync.Once
	spans []stringSpan
	err   error
}

// stringSpan is where one entry's bytes lie in the file.
type stringSpan struct{ start, end int64 }

// at returns entry flat as text (hex bytes when it is not UTF-8).
func (st *stringTable) at(flat int) (string, error) {
	st.once.Do(st.index)
	if st.err != nil {
		return "", st.err
	}
	if flat >= len(st.spans) {
		return "", fmt.Errorf("element %d: string_data holds only %d strings", flat, len(st.spans))
	}
	sp := st.spans[flat]
	var s string
	err := tensor.CatchFault(func() error {
		s = text(st.m.data[sp.start:sp.end])
		return nil
	})
	return s, err
}

// index records where each string_data entry lies, in file order.
func (st *stringTable) index() {
	spans := make([]stringSpan, 0, st.count)
	st.err = tensor.CatchFault(func() error {
		return st.m.each("TensorProto", func(f field) error {
			if f.num == fieldStringData && f.typ == protowire.BytesType {
				spans = append(spans, stringSpan{f.valAt, f.end})
			}
			return nil
		})
	})
	st.spans = spans
}
