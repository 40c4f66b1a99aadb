package safetensors

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math"

	"tensorscope/formats"
	"tensorscope/tensor"
)

// Named is a tensor to write under a name. AsFloat32 writes its values
// converted to F32, chunk by chunk: how tensors of a dtype safetensors
// lacks (block-quantised GGML types) are exported.
type Named struct {
	Name      string
	Tensor    *tensor.Tensor
	AsFloat32 bool
}

// headerAlign is the alignment of the data buffer: the reference pads the
// header with spaces so that the buffer starts on an 8-byte boundary.
const headerAlign = 8

// Write writes tensors, in order, as one safetensors file whose
// __metadata__ is metadata (omitted when empty). Any view can be written:
// strided views are written in row-major order without a full copy.
// Cancelling ctx stops the write between chunks.
func Write(ctx context.Context, w io.Writer, tensors []Named, metadata map[string]string) error {
	h, err := EncodeHeader(tensors, metadata)
	if err != nil {
		return err
	}
	if _, err := w.Write(h); err != nil {
		return err
	}
	for _, n := range tensors {
		write := func(c []byte) error {
			if err := ctx.Err(); err != nil {
				return err
			}
			_, err := w.Write(c)
			return err
		}
		var err error
		switch {
		case n.AsFloat32:
			err = float32Chunks(n.Tensor, write)
		case n.Tensor.DType().Packed():
			err = packedChunks(n.Tensor, write)
		default:
			err = formats.TensorChunks(n.Tensor, write)
		}
		if err != nil {
			return fmt.Errorf("tensor %q: %w", n.Name, err)
		}
	}
	return nil
}

// EncodeHeader returns the length prefix and the padded JSON header for
// tensors laid out back to back in order.
func EncodeHeader(tensors []Named, metadata map[string]string) ([]byte, error) {
	var js bytes.Buffer
	js.WriteByte('{')
	if len(metadata) > 0 {
		m, err := json.Marshal(metadata) // sorted keys
		if err != nil {
			return nil, err
		}
		js.WriteString(`"__metadata__":`)
		js.Write(m)
	}
	seen := map[string]bool{}
	var offset int64
	for i, n := range tensors {
		if n.Name == "__metadata__" || seen[n.Name] {
			return nil, fmt.Errorf("tensor name %q is used twice or reserved", n.Name)
		}
		seen[n.Name] = true
		dt := n.Tensor.DType()
		if n.AsFloat32 {
			dt = tensor.Float32
		}
		name := dtypeName(dt)
		if dt.BlockQuantized() {
			return nil, fmt.Errorf("tensor %q: safetensors has no block-quantised %s; export it as float32", n.Name, dt)
		}
		if ue := dt.UnitElems(); dt.Packed() && n.Tensor.Len()%ue != 0 {
			// Readers (the reference's too) refuse a tensor that ends inside a byte.
			return nil, fmt.Errorf("tensor %q: %d %s elements do not fill whole bytes (safetensors needs a multiple of %d)",
				n.Name, n.Tensor.Len(), dt, ue)
		}
		if name == "" {
			return nil, fmt.Errorf("tensor %q: %s has no safetensors dtype", n.Name, dt)
		}
		size, err := tensor.StorageBytes(dt, int64(n.Tensor.Len()))
		if err != nil {
			return nil, fmt.Errorf("tensor %q: %v", n.Name, err)
		}
		if i > 0 || len(metadata) > 0 {
			js.WriteByte(',')
		}
		key, err := json.Marshal(n.Name)
		if err != nil {
			return nil, fmt.Errorf("tensor %q: %v", n.Name, err)
		}
		shape, err := json.Marshal(nonNil(n.Tensor.Shape()))
		if err != nil {
			return nil, fmt.Errorf("tensor %q: %v", n.Name, err)
		}
		fmt.Fprintf(&js, `%s:{"dtype":"%s","shape":%s,"data_offsets":[%d,%d]}`, key, name, shape, offset, offset+size)
		offset += size
	}
	js.WriteByte('}')
	for (8+js.Len())%headerAlign != 0 {
		js.WriteByte(' ')
	}
	if js.Len() > maxHeaderSize {
		return nil, fmt.Errorf("a header of %d bytes is over the 100 MB limit readers accept", js.Len())
	}
	out := make([]byte, 8, 8+js.Len())
	binary.LittleEndian.PutUint64(out, uint64(js.Len()))
	return append(out, js.Bytes()...), nil
}

func nonNil(s []int) []int {
	if s == nil {
		return []int{}
	}
	return s
}

// packedChunkElems is how many elements packedChunks packs (and
// float32Chunks converts) at a time: a multiple of every sub-byte dtype's
// unit (2 for F4, 4 for F6).
const packedChunkElems = 1 << 16

// float32Chunks writes t's values as little-endian float32 in row-major
// order, converting a chunk at a time.
func float32Chunks(t *tensor.Tensor, fn func([]byte) error) error {
	n := int64(t.Len())
	f64 := make([]float64, min(n, packedChunkElems))
	out := make([]byte, 4*len(f64))
	for start := int64(0); start < n; start += int64(len(f64)) {
		k := min(int64(len(f64)), n-start)
		if err := tensor.CatchFault(func() error { return t.ReadFloat64s(start, f64[:k]) }); err != nil {
			return err
		}
		for i, v := range f64[:k] {
			binary.LittleEndian.PutUint32(out[4*i:], math.Float32bits(float32(v)))
		}
		if err := fn(out[:4*k]); err != nil {
			return err
		}
	}
	return nil
}

// packedChunks writes a tensor of a sub-byte dtype (F4, F6_*) packed as
// safetensors stores it, in row-major order, whatever the view: each chunk
// of values is read and packed again. Packing a value read from the same
// dtype gives back its bits.
func packedChunks(t *tensor.Tensor, fn func([]byte) error) error {
	n := int64(t.Len())
	f64 := make([]float64, min(n, packedChunkElems))
	f32 := make([]float32, len(f64))
	for start := int64(0); start < n; start += int64(len(f64)) {
		k := min(int64(len(f64)), n-start)
		if err := tensor.CatchFault(func() error { return t.ReadFloat64s(start, f64[:k]) }); err != nil {
			return err
		}
		for i, v := range f64[:k] {
			f32[i] = float32(v)
		}
		b, err := tensor.PackSubByte(t.DType(), f32[:k])
		if err != nil {
			return err
		}
		if err := fn(b); err != nil {
			return err
		}
	}
	return nil
}
