package tflite

import (
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"unicode/utf8"

	"tensorscope/formats"
)

// FlexBuffers (custom operators' options) have no Go reader in the
// FlatBuffers module: flexTree decodes one into a metadata tree, every
// read bounds-checked, nesting and entries bounded.

const (
	flexNull         = 0
	flexInt          = 1
	flexUint         = 2
	flexFloat        = 3
	flexKey          = 4
	flexString       = 5
	flexIndirectInt  = 6
	flexIndirectUint = 7
	flexIndirectFlt  = 8
	flexMap          = 9
	flexVector       = 10
	flexVectorInt    = 11 // …VectorKey = 14, VectorStringDeprecated = 15
	flexVectorInt2   = 16 // …VectorFloat4 = 24
	flexBlob         = 25
	flexBool         = 26
	flexVectorBool   = 36
)

// maxFlexDepth and maxFlexEntries bound hostile options.
const (
	maxFlexDepth   = 32
	maxFlexEntries = 10000
)

type flexReader struct {
	b       []byte
	entries int
}

// flexTree decodes buf as a FlexBuffer named name.
func flexTree(name string, buf []byte) (*formats.Meta, error) {
	n := len(buf)
	if n < 3 {
		return nil, fmt.Errorf("a FlexBuffer needs at least 3 bytes, found %d", n)
	}
	bw := int(buf[n-1])
	if bw != 1 && bw != 2 && bw != 4 && bw != 8 {
		return nil, fmt.Errorf("root byte width %d, expected 1, 2, 4 or 8", bw)
	}
	if n < 2+bw {
		return nil, fmt.Errorf("%d bytes hold no root of width %d", n, bw)
	}
	r := &flexReader{b: buf}
	return r.value(name, n-2-bw, bw, buf[n-2], 0)
}

func (r *flexReader) uint(at, w int) (uint64, error) {
	if at < 0 || w <= 0 || at+w > len(r.b) {
		return 0, fmt.Errorf("byte %d: %d-byte value outside the %d bytes", at, w, len(r.b))
	}
	switch w {
	case 1:
		return uint64(r.b[at]), nil
	case 2:
		return uint64(binary.LittleEndian.Uint16(r.b[at:])), nil
	case 4:
		return uint64(binary.LittleEndian.Uint32(r.b[at:])), nil
	case 8:
		return binary.LittleEndian.Uint64(r.b[at:]), nil
	}
	return 0, fmt.Errorf("byte %d: width %d", at, w)
}

func (r *flexReader) int(at, w int) (int64, error) {
	u, err := r.uint(at, w)
	if err != nil {
		return 0, err
	}
	shift := uint(64 - 8*w)
	return int64(u<<shift) >> shift, nil
}

func (r *flexReader) float(at, w int) (float64, error) {
	u, err := r.uint(at, w)
	switch {
	case err != nil:
		return 0, err
	case w == 4:
		return float64(math.Float32frombits(uint32(u))), nil
	case w == 8:
		return math.Float64frombits(u), nil
	}
	return 0, fmt.Errorf("byte %d: a float of %d bytes", at, w)
}

// indirect follows the offset at at (of width w) backwards.
func (r *flexReader) indirect(at, w int) (int, error) {
	u, err := r.uint(at, w)
	if err != nil {
		return 0, err
	}
	if u > uint64(at) {
		return 0, fmt.Errorf("byte %d: offset %d points before the buffer", at, u)
	}
	return at - int(u), nil
}

func (r *flexReader) cstring(at int) (string, error) {
	for j := at; j < len(r.b); j++ {
		if r.b[j] == 0 {
			return text(r.b[at:j]), nil
		}
	}
	return "", fmt.Errorf("byte %d: key without a terminating NUL", at)
}

// sized reads the length stored before a vector, string or blob at at.
func (r *flexReader) sized(at, w int) (int, error) {
	n, err := r.uint(at-w, w)
	if err != nil {
		return 0, err
	}
	if n > uint64(len(r.b)) {
		return 0, fmt.Errorf("byte %d: length %d exceeds the %d bytes", at-w, n, len(r.b))
	}
	return int(n), nil
}

// value decodes the value stored at at with parent width w and packed type pt.
func (r *flexReader) value(name string, at, w int, pt byte, depth int) (*formats.Meta, error) {
	r.entries++
	if depth > maxFlexDepth || r.entries > maxFlexEntries {
		return nil, fmt.Errorf("byte %d: more than %d levels or %d entries", at, maxFlexDepth, maxFlexEntries)
	}
	typ, bw := int(pt>>2), 1<<(pt&3)
	switch typ {
	case flexNull:
		return formats.Leaf(name, nil), nil
	case flexInt:
		v, err := r.int(at, w)
		return formats.Leaf(name, v), err
	case flexUint:
		v, err := r.uint(at, w)
		return formats.Leaf(name, int64(v)), err
	case flexFloat:
		v, err := r.float(at, w)
		return formats.Leaf(name, v), err
	case flexBool:
		v, err := r.uint(at, w)
		return formats.Leaf(name, v != 0), err
	}
	target, err := r.indirect(at, w)
	if err != nil {
		return nil, err
	}
	switch typ {
	case flexIndirectInt:
		v, err := r.int(target, bw)
		return formats.Leaf(name, v), err
	case flexIndirectUint:
		v, err := r.uint(target, bw)
		return formats.Leaf(name, int64(v)), err
	case flexIndirectFlt:
		v, err := r.float(target, bw)
		return formats.Leaf(name, v), err
	case flexKey:
		s, err := r.cstring(target)
		return formats.Leaf(name, s), err
	case flexString, flexBlob:
		n, err := r.sized(target, bw)
		if err != nil {
			return nil, err
		}
		if target+n > len(r.b) {
			return nil, fmt.Errorf("byte %d: %d bytes run past the end", target, n)
		}
		if typ == flexBlob {
			return formats.Leaf(name, formats.Bytes(r.b[target:target+n])), nil
		}
		return formats.Leaf(name, text(r.b[target:target+n])), nil
	case flexMap:
		return r.mapValue(name, target, bw, depth)
	case flexVector:
		n, err := r.sized(target, bw)
		if err != nil {
			return nil, err
		}
		if target+n*bw+n > len(r.b) {
			return nil, fmt.Errorf("byte %d: vector of %d runs past the end", target, n)
		}
		list := formats.NewList(name)
		for k := 0; k < n; k++ {
			c, err := r.value(strconv.Itoa(k), target+k*bw, bw, r.b[target+n*bw+k], depth+1)
			if err != nil {
				return nil, err
			}
			list.Add(c)
		}
		return list, nil
	}
	// Typed vectors: elements of one type, with a length before them
	// unless their length is fixed (2, 3 or 4).
	var elem, n int
	switch {
	case typ >= flexVectorInt && typ <= flexVectorInt+4:
		elem = typ - flexVectorInt + flexInt
	case typ == flexVectorBool:
		elem = flexBool
	case typ >= flexVectorInt2 && typ <= flexVectorInt2+8:
		elem, n = (typ-flexVectorInt2)%3+flexInt, (typ-flexVectorInt2)/3+2
	default:
		return nil, fmt.Errorf("byte %d: FlexBuffer type %d is not defined", at, typ)
	}
	if n == 0 {
		if n, err = r.sized(target, bw); err != nil {
			return nil, err
		}
	}
	if target+n*bw > len(r.b) {
		return nil, fmt.Errorf("byte %d: vector of %d runs past the end", target, n)
	}
	list := formats.NewList(name)
	for k := 0; k < n; k++ {
		pt := byte(elem<<2) | widthBits(bw)
		c, err := r.value(strconv.Itoa(k), target+k*bw, bw, pt, depth+1)
		if err != nil {
			return nil, err
		}
		list.Add(c)
	}
	return list, nil
}

func widthBits(bw int) byte {
	switch bw {
	case 2:
		return 1
	case 4:
		return 2
	case 8:
		return 3
	}
	return 0
}

func (r *flexReader) mapValue(name string, target, bw, depth int) (*formats.Meta, error) {
	n, err := r.sized(target, bw)
	if err != nil {
		return nil, err
	}
	if target+n*bw+n > len(r.b) {
		return nil, fmt.Errorf("byte %d: map of %d runs past the end", target, n)
	}
	keysAt, err := r.indirect(target-3*bw, bw)
	if err != nil {
		return nil, err
	}
	kw, err := r.uint(target-2*bw, bw)
	if err != nil {
		return nil, err
	}
	if kw != 1 && kw != 2 && kw != 4 && kw != 8 {
		return nil, fmt.Errorf("byte %d: key width %d", target-2*bw, kw)
	}
	if keysAt+n*int(kw) > len(r.b) {
		return nil, fmt.Errorf("byte %d: %d keys run past the end", keysAt, n)
	}
	obj := formats.NewObject(name)
	for k := 0; k < n; k++ {
		kat, err := r.indirect(keysAt+k*int(kw), int(kw))
		if err != nil {
			return nil, err
		}
		key, err := r.cstring(kat)
		if err != nil {
			return nil, err
		}
		c, err := r.value(key, target+k*bw, bw, r.b[target+n*bw+k], depth+1)
		if err != nil {
			return nil, err
		}
		obj.Add(c)
	}
	return obj, nil
}

// text is b as a string, or its bytes in hex when it is not UTF-8.
func text(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	return fmt.Sprintf("%x", b)
}
