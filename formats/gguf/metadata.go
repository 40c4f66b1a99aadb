package gguf

import (
	"encoding/binary"
	"math"
	"strconv"

	"tensorscope/formats"
)

const (
	// maxNesting bounds arrays of arrays: ggml writes one level; a hostile
	// file must not drive recursion without bound.
	maxNesting = 8
	// eagerArray is the longest array shown as tree nodes; longer ones
	// stay in the file as lazy lists.
	eagerArray = 64
)

// scalar reads one value of a fixed-size type or a string. A value cut
// short by the end of the file reads as its type's zero (r.err says why).
func (r *reader) scalar(t uint32, what string) any {
	switch sz := fixedSize(t); {
	case t == typeBool:
		at := r.off
		b := r.u8(what)
		if b > 1 && r.err == nil {
			r.failf(at, "%s: a bool must be 0 or 1, found %d", what, b)
		}
		return b == 1
	case sz > 0:
		b := r.bytes(sz, what)
		if b == nil {
			b = make([]byte, sz)
		}
		return decodeScalar(t, r.order, b)
	case t == typeString:
		return r.str(what)
	}
	r.failf(r.off, "%s: unknown value type %d", what, t)
	return nil
}

// valueNode reads a value of type t into a metadata node named name.
func (r *reader) valueNode(name string, t uint32, depth int, what string) *formats.Meta {
	if t != typeArray {
		return formats.Leaf(name, r.scalar(t, what))
	}
	elem, n, start := r.arrayHeader(depth, what)
	if r.err != nil {
		return nil
	}
	if n <= eagerArray {
		list := formats.NewList(name)
		for i := int64(0); i < n && r.err == nil; i++ {
			list.Add(r.valueNode("", elem, depth+1, what))
		}
		for i, c := range list.Children {
			if c != nil {
				c.Name = strconv.Itoa(i)
			}
		}
		return list
	}
	lazy := r.lazyArray(elem, n, start, depth, what)
	if r.err != nil {
		return nil
	}
	return formats.NewLazyList(name, lazy)
}

// arrayHeader reads an array's element type and count and checks them.
func (r *reader) arrayHeader(depth int, what string) (elem uint32, n int64, start int64) {
	at := r.off
	elem = r.u32(what + ": array element type")
	if r.err != nil {
		return
	}
	if elem > typeFloat64 {
		r.failf(at, "%s: array element type: expected 0…12, found %d", what, elem)
		return
	}
	if elem == typeArray && depth+1 >= maxNesting {
		r.failf(at, "%s: arrays nested more than %d deep", what, maxNesting)
		return
	}
	n = r.count(minSize(elem), what+": array length")
	return elem, n, r.off
}

// skipValue moves past a value of type t, checking it as it goes.
func (r *reader) skipValue(t uint32, depth int, what string) {
	switch {
	case t == typeString:
		n := r.count(1, what+": string length")
		r.bytes(n, what)
	case t == typeArray:
		elem, n, _ := r.arrayHeader(depth, what)
		if sz := fixedSize(elem); sz > 0 {
			r.bytes(n*sz, what)
			return
		}
		for i := int64(0); i < n && r.err == nil; i++ {
			r.skipValue(elem, depth+1, what)
		}
	case fixedSize(t) > 0:
		if t == typeBool {
			r.scalar(t, what)
			return
		}
		r.bytes(fixedSize(t), what)
	default:
		r.failf(r.off, "%s: unknown value type %d", what, t)
	}
}

// lazyArray indexes an array of n elements of type elem starting at the
// reader's position, moves past it, and returns a list that reads entries
// from the file on demand. Variable-size entries (strings, arrays) are
// checked and their offsets kept; fixed-size ones need no index.
func (r *reader) lazyArray(elem uint32, n, start int64, depth int, what string) *formats.LazyList {
	data, order, fileSize := r.data, r.order, r.fileSize
	at := func(off int64) *reader {
		return &reader{data: data, fileSize: fileSize, off: off, order: order}
	}
	list := &formats.LazyList{Len: int(n), Elem: typeName(elem)}
	if sz := fixedSize(elem); sz > 0 {
		if elem == typeBool {
			for i := int64(0); i < n && r.err == nil; i++ {
				r.scalar(elem, what)
			}
		} else {
			r.bytes(n*sz, what)
		}
		list.At = func(i int) any { return decodeScalar(elem, order, data[start+int64(i)*sz:]) }
		return list
	}
	offsets := make([]int64, n)
	if elem == typeString {
		r.indexStrings(offsets, what)
		if r.err != nil {
			return nil
		}
		// Checked while indexing: read the bytes directly.
		list.Raw = func(i int) []byte {
			off := offsets[i]
			n := int64(order.Uint64(data[off:]))
			return data[off+8 : off+8+n]
		}
		list.At = func(i int) any { return string(list.Raw(i)) }
		return list
	}
	for i := range offsets {
		offsets[i] = r.off
		r.skipValue(elem, depth+1, what)
		if r.err != nil {
			return nil
		}
	}
	list.At = func(i int) any { return at(offsets[i]).anyValue(typeArray, depth+1, what) }
	return list
}

// anyValue reads a value as plain Go values, arrays as []any.
func (r *reader) anyValue(t uint32, depth int, what string) any {
	if t != typeArray {
		return r.scalar(t, what)
	}
	elem, n, _ := r.arrayHeader(depth, what)
	out := make([]any, 0, min(n, 1<<16))
	for i := int64(0); i < n && r.err == nil; i++ {
		out = append(out, r.anyValue(elem, depth+1, what))
	}
	return out
}

// indexStrings records the offsets of len(offsets) strings and moves past
// them: the tight loop behind opening a 150,000-token vocabulary quickly.
func (r *reader) indexStrings(offsets []int64, what string) {
	data, off, end := r.data, r.off, r.fileSize
	for i := range offsets {
		if off+8 > int64(len(data)) {
			r.off = off
			r.bytes(8, what+" length") // reports truncation or a short prefix
			return
		}
		n := r.order.Uint64(data[off:])
		if n > uint64(end-off-8) {
			r.off = off
			r.str(what) // reports the bad length with its offset
			if r.err == nil {
				r.failf(off, "%s: string length %d runs past the end of the file", what, n)
			}
			return
		}
		offsets[i] = off
		off += 8 + int64(n)
	}
	if off > int64(len(data)) {
		r.err = errPrefix
		return
	}
	r.off = off
}

// decodeScalar decodes a value of fixed-size type t from the start of b,
// which the caller has checked holds it: a lazy list's entries, read
// without a reader per entry.
func decodeScalar(t uint32, order binary.ByteOrder, b []byte) any {
	switch t {
	case typeUint8:
		return b[0]
	case typeInt8:
		return int8(b[0])
	case typeBool:
		return b[0] == 1
	case typeUint16:
		return order.Uint16(b)
	case typeInt16:
		return int16(order.Uint16(b))
	case typeUint32:
		return order.Uint32(b)
	case typeInt32:
		return int32(order.Uint32(b))
	case typeFloat32:
		return math.Float32frombits(order.Uint32(b))
	case typeUint64:
		return order.Uint64(b)
	case typeInt64:
		return int64(order.Uint64(b))
	case typeFloat64:
		return math.Float64frombits(order.Uint64(b))
	}
	return nil // not a fixed-size type: lazyArray never asks
}
