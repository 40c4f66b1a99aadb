package gguf

import (
	"encoding/binary"
	"fmt"
)

// toBigEndian rewrites a little-endian GGUF file in big-endian order, as
// llama.cpp's gguf_convert_endian.py does: every number of the header, the
// metadata and the tensor infos, and each element of the tensor data (of
// the byte-addressable types; block types are refused). It walks the file
// with its own code so that the reader is not checked against itself.
func toBigEndian(le []byte) ([]byte, error) {
	be := append([]byte(nil), le...)
	off := 0
	swap := func(n int) error {
		if off+n > len(be) {
			return fmt.Errorf("truncated at %d", off)
		}
		for i, j := off, off+n-1; i < j; i, j = i+1, j-1 {
			be[i], be[j] = be[j], be[i]
		}
		off += n
		return nil
	}
	u32 := func() uint32 { return binary.LittleEndian.Uint32(le[off:]) }
	u64 := func() uint64 { return binary.LittleEndian.Uint64(le[off:]) }
	off = 4
	swap(4)
	nTensors, nKV := u64(), binary.LittleEndian.Uint64(le[16:])
	swap(8)
	swap(8)
	str := func() {
		n := u64()
		swap(8)
		off += int(n)
	}
	alignment := uint64(32)
	var value func(t uint32)
	value = func(t uint32) {
		switch t {
		case typeString:
			str()
		case typeArray:
			et, n := u32(), uint64(0)
			swap(4)
			n = u64()
			swap(8)
			for i := uint64(0); i < n; i++ {
				value(et)
			}
		default:
			swap(int(fixedSize(t)))
		}
	}
	for i := uint64(0); i < nKV; i++ {
		n := u64()
		key := string(le[off+8 : off+8+int(n)])
		str()
		t := u32()
		swap(4)
		if key == "general.alignment" {
			alignment = uint64(u32())
		}
		value(t)
	}
	type info struct {
		dtype  uint32
		elems  uint64
		offset uint64
	}
	var infos []info
	for i := uint64(0); i < nTensors; i++ {
		str()
		nd := u32()
		swap(4)
		elems := uint64(1)
		for d := uint32(0); d < nd; d++ {
			elems *= u64()
			swap(8)
		}
		t := u32()
		swap(4)
		o := u64()
		swap(8)
		infos = append(infos, info{t, elems, o})
	}
	start := (uint64(off) + alignment - 1) / alignment * alignment
	for _, ti := range infos {
		g := ggmlTypes[ti.dtype]
		if g.dtype.Packed() {
			return nil, fmt.Errorf("block type %s", g.name)
		}
		size := g.dtype.Size()
		off = int(start + ti.offset)
		for k := uint64(0); k < ti.elems; k++ {
			if err := swap(size); err != nil {
				return nil, err
			}
		}
	}
	return be, nil
}
