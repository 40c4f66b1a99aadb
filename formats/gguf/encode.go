package gguf

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"math"

	"tensorscope/tensor"
)

// KV is one metadata key/value for WriteHeader. Value is one of uint8, int8,
// uint16, int16, uint32, int32, float32, bool, string, uint64, int64,
// float64, or a slice of one of them ([]string, []float32, []int32, …).
type KV struct {
	Key   string
	Value any
}

// TensorSpec is one tensor for WriteHeader: its shape in row-major order
// (written innermost first, as GGUF stores it) and ggml type number.
type TensorSpec struct {
	Name     string
	GGMLType uint32
	Shape    []int
}

// WriteHeader writes a little-endian GGUF v3 header: the key/values, the
// tensor infos with offsets packed at the alignment, and the padding up to
// the data section. It returns the data section's offset and each tensor's
// absolute offset; the caller writes (or, for sparse test files, skips) the
// data. Tests and benchmarks use it to make files of any size.
func WriteHeader(w io.Writer, kvs []KV, tensors []TensorSpec, alignment int64) (dataStart int64, offsets []int64, err error) {
	bw := bufio.NewWriter(w)
	cw := &countWriter{w: bw}
	le := binary.LittleEndian
	put := func(v any) { binary.Write(cw, le, v) }
	putString := func(s string) {
		put(uint64(len(s)))
		io.WriteString(cw, s)
	}
	cw.Write([]byte(magic))
	put(uint32(3))
	put(uint64(len(tensors)))
	put(uint64(len(kvs)))
	for _, kv := range kvs {
		putString(kv.Key)
		if err := writeValue(cw, kv.Value, putString, put); err != nil {
			return 0, nil, fmt.Errorf("key %s: %w", kv.Key, err)
		}
	}
	rel := int64(0)
	var rels []int64
	for _, t := range tensors {
		putString(t.Name)
		put(uint32(len(t.Shape)))
		n := int64(1)
		for i := len(t.Shape) - 1; i >= 0; i-- {
			put(uint64(t.Shape[i]))
			n *= int64(t.Shape[i])
		}
		put(t.GGMLType)
		put(uint64(rel))
		rels = append(rels, rel)
		g, ok := lookupGGMLType(t.GGMLType)
		if !ok {
			return 0, nil, fmt.Errorf("tensor %s: unknown ggml type %d", t.Name, t.GGMLType)
		}
		nb, err := tensor.StorageBytes(g.dtype, n)
		if err != nil {
			return 0, nil, fmt.Errorf("tensor %s: %w", t.Name, err)
		}
		rel = alignUp(rel+nb, alignment)
	}
	dataStart = alignUp(cw.n, alignment)
	cw.Write(make([]byte, dataStart-cw.n))
	if cw.err != nil {
		return 0, nil, cw.err
	}
	for _, r := range rels {
		offsets = append(offsets, dataStart+r)
	}
	return dataStart, offsets, bw.Flush()
}

func writeValue(w io.Writer, v any, putString func(string), put func(any)) error {
	scalar := func(x any) (uint32, bool) {
		switch x.(type) {
		case uint8:
			return typeUint8, true
		case int8:
			return typeInt8, true
		case uint16:
			return typeUint16, true
		case int16:
			return typeInt16, true
		case uint32:
			return typeUint32, true
		case int32:
			return typeInt32, true
		case float32:
			return typeFloat32, true
		case bool:
			return typeBool, true
		case string:
			return typeString, true
		case uint64:
			return typeUint64, true
		case int64:
			return typeInt64, true
		case float64:
			return typeFloat64, true
		}
		return 0, false
	}
	putScalar := func(x any) {
		switch s := x.(type) {
		case string:
			putString(s)
		case bool:
			b := uint8(0)
			if s {
				b = 1
			}
			put(b)
		case float32:
			put(math.Float32bits(s))
		default:
			put(s)
		}
	}
	if t, ok := scalar(v); ok {
		put(t)
		putScalar(v)
		return nil
	}
	var items []any
	switch xs := v.(type) {
	case []string:
		for _, x := range xs {
			items = append(items, x)
		}
	case []float32:
		for _, x := range xs {
			items = append(items, x)
		}
	case []int32:
		for _, x := range xs {
			items = append(items, x)
		}
	case []any:
		items = xs
	default:
		return fmt.Errorf("cannot write a %T", v)
	}
	elem := uint32(typeUint8)
	if len(items) > 0 {
		t, ok := scalar(items[0])
		if !ok {
			return fmt.Errorf("cannot write arrays of %T", items[0])
		}
		elem = t
	}
	put(uint32(typeArray))
	put(elem)
	put(uint64(len(items)))
	for _, x := range items {
		putScalar(x)
	}
	return nil
}

type countWriter struct {
	w   io.Writer
	n   int64
	err error
}

func (c *countWriter) Write(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.w.Write(p)
	c.n += int64(n)
	c.err = err
	return n, err
}
