package nn

import (
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"math"

	"tensorscope/formats"
	"tensorscope/tensor"
)

// Model is what a .nn file holds: the JSON metadata (device, layers,
// training) and named float32 tensors in file order.
type Model struct {
	Metadata *formats.Meta // a JSON object; written compact with sorted keys
	Tensors  []Tensor
}

// Tensor is a named tensor of a Model. Linear layer k's parameters are
// "layer{k}.weight" ([out, in]) and "layer{k}.bias" ([out]), k counting
// Linear layers only.
type Tensor struct {
	Name string
	Data *tensor.Tensor
}

// FromDocument returns the model a decoded .nn document holds, loading its
// tensors (views of the file: the document must stay open while the model
// is used).
func FromDocument(ctx context.Context, doc *formats.Document) (*Model, error) {
	if doc.Format != format.ID {
		return nil, fmt.Errorf("%s is a %s document, not a DataCode .nn model", doc.Path, doc.FormatName)
	}
	m := &Model{Metadata: doc.Metadata}
	for _, e := range doc.Tensors {
		t, err := e.Load(ctx)
		if err != nil {
			return nil, err
		}
		m.Tensors = append(m.Tensors, Tensor{Name: e.Name, Data: t})
	}
	return m, nil
}

// Encode writes m as a DataCode .nn file, version 1. Tensors must be
// float32 (the only type the format has); any view is accepted.
func Encode(w io.Writer, m *Model) error {
	if m.Metadata == nil || m.Metadata.IsLeaf() || m.Metadata.List {
		return fmt.Errorf(".nn metadata must be a JSON object")
	}
	text, err := appendJSON(nil, m.Metadata)
	if err != nil {
		return fmt.Errorf(".nn metadata: %w", err)
	}
	if len(text) > math.MaxUint32 || len(m.Tensors) > math.MaxUint32 {
		return fmt.Errorf(".nn file too large: %d bytes of JSON, %d tensors", len(text), len(m.Tensors))
	}
	for _, t := range m.Tensors {
		if t.Data.DType() != tensor.Float32 {
			return fmt.Errorf("tensor %q: .nn files store float32 only, not %s", t.Name, t.Data.DType())
		}
		if len(t.Name) > math.MaxUint32 || t.Data.Rank() > math.MaxUint32 {
			return fmt.Errorf("tensor %q: name or rank too large", t.Name)
		}
		for _, d := range t.Data.Shape() {
			if d > math.MaxUint32 {
				return fmt.Errorf("tensor %q: dim %d does not fit the format's u32", t.Name, d)
			}
		}
	}
	le := binary.LittleEndian
	head := make([]byte, 0, 16+len(text)+4)
	head = append(head, magic...)
	head = le.AppendUint32(head, version)
	head = le.AppendUint32(head, uint32(len(text)))
	head = append(head, text...)
	head = le.AppendUint32(head, uint32(len(m.Tensors)))
	if _, err := w.Write(head); err != nil {
		return err
	}
	for _, t := range m.Tensors {
		rec := le.AppendUint32(nil, uint32(len(t.Name)))
		rec = append(rec, t.Name...)
		rec = le.AppendUint32(rec, uint32(t.Data.Rank()))
		for _, d := range t.Data.Shape() {
			rec = le.AppendUint32(rec, uint32(d))
		}
		if _, err := w.Write(rec); err != nil {
			return err
		}
		if err := formats.TensorChunks(t.Data, func(c []byte) error { _, err := w.Write(c); return err }); err != nil {
			return fmt.Errorf("tensor %q: %w", t.Name, err)
		}
	}
	return nil
}
