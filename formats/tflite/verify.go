package tflite

import (
	"tensorscope/formats"
)

// The FlatBuffers Go runtime (v25.12.19) has no verifier: its accessors
// index the buffer and panic on a hostile offset. verify walks the whole
// file by the schema before any accessor runs, as the C++ runtime's
// Verifier does: every table's vtable and fields, every offset, string
// and vector length is checked against the file's end, so that the
// generated accessors read only bytes that exist.

// maxDepth bounds nesting of tables (the schema nests at most a handful).
const maxDepth = 64

type verifier struct {
	buf    []byte
	words  *farWords
	size   uint64
	budget int // objects left to visit: bounds files that share one table many times
}

func (v *verifier) u32(at uint64) uint32 { return v.words.u32(at) }
func (v *verifier) u16(at uint64) uint16 { return v.words.u16(at) }

func (v *verifier) spend(at uint64) error {
	v.budget--
	if v.budget < 0 {
		return formats.Errorf(int64(at), "the flatbuffer refers to more tables, vectors and strings than a file of %d bytes can hold", v.size)
	}
	return nil
}

// verifyModel checks the file from its root offset, reading its words
// through words.
func verifyModel(buf []byte, words *farWords, s *fbSchema) error {
	v := &verifier{buf: buf, words: words, size: uint64(len(buf)), budget: len(buf)/2 + 1024}
	if v.size < 8 {
		return formats.Errorf(0, "a flatbuffer needs at least 8 bytes (root offset and identifier), the file has %d", v.size)
	}
	root := uint64(v.u32(0))
	if root+4 > v.size {
		return formats.Errorf(0, "the root table offset %d points past the end of the file (size %d)", root, v.size)
	}
	return v.table(root, s.root, 0)
}

// deref follows the uoffset stored at at.
func (v *verifier) deref(at uint64, what string) (uint64, error) {
	target := at + uint64(v.u32(at))
	if target+4 > v.size {
		return 0, formats.Errorf(int64(at), "%s: offset %d points to byte %d, past the end of the file (size %d)", what, v.u32(at), target, v.size)
	}
	return target, nil
}

func (v *verifier) table(pos uint64, t *fbTable, depth int) error {
	if depth > maxDepth {
		return formats.Errorf(int64(pos), "%s: tables nest more than %d deep", t.name, maxDepth)
	}
	if err := v.spend(pos); err != nil {
		return err
	}
	if pos+4 > v.size {
		return formats.Errorf(int64(pos), "table %s at byte %d runs past the end of the file (size %d)", t.name, pos, v.size)
	}
	soff := int64(int32(v.u32(pos)))
	vt := int64(pos) - soff
	if soff == 0 {
		return formats.Errorf(int64(pos), "table %s: its vtable offset is 0, pointing into the table itself", t.name)
	}
	if vt < 0 || uint64(vt)+4 > v.size {
		return formats.Errorf(int64(pos), "table %s: vtable at byte %d is outside the file (size %d)", t.name, vt, v.size)
	}
	vtab := uint64(vt)
	vsize, tsize := uint64(v.u16(vtab)), uint64(v.u16(vtab+2))
	switch {
	case vsize < 4 || vsize%2 != 0:
		return formats.Errorf(vt, "table %s: vtable size %d, expected an even number of at least 4", t.name, vsize)
	case vtab+vsize > v.size:
		return formats.Errorf(vt, "table %s: vtable of %d bytes runs past the end of the file (size %d)", t.name, vsize, v.size)
	case vtab < pos+4 && vtab+vsize > pos:
		return formats.Errorf(vt, "table %s at byte %d: its vtable overlaps the table's own offset", t.name, pos)
	case tsize < 4:
		return formats.Errorf(vt, "table %s: inline size %d, expected at least 4", t.name, tsize)
	case pos+tsize > v.size:
		return formats.Errorf(int64(pos), "table %s of %d bytes runs past the end of the file (size %d)", t.name, tsize, v.size)
	}
	for k := range t.fields {
		f := &t.fields[k]
		if f.deprecated || uint64(f.slot)+2 > vsize {
			continue
		}
		off := uint64(v.u16(vtab + uint64(f.slot)))
		if off == 0 {
			continue
		}
		width := uint64(4)
		if f.typ.kind == kScalar {
			width = uint64(f.typ.size)
		}
		if off+width > tsize {
			return formats.Errorf(int64(pos+off), "%s.%s: field at offset %d of a table of %d bytes", t.name, f.name, off, tsize)
		}
		at := pos + off
		switch f.typ.kind {
		case kScalar:
			continue
		case kUnion:
			if err := v.union(t, f, pos, vtab, vsize, tsize, at, depth); err != nil {
				return err
			}
			continue
		}
		target, err := v.deref(at, t.name+"."+f.name)
		if err != nil {
			return err
		}
		if err := v.value(target, f.typ, t.name+"."+f.name, depth); err != nil {
			return err
		}
	}
	return nil
}

// union checks a union value against the type stored in the slot before it.
func (v *verifier) union(t *fbTable, f *fbField, pos, vtab, vsize, tsize, at uint64, depth int) error {
	var code uint64
	if tslot := uint64(f.slot - 2); tslot+2 <= vsize {
		if toff := uint64(v.u16(vtab + tslot)); toff != 0 {
			if toff+1 > tsize {
				return formats.Errorf(int64(pos+toff), "%s.%s_type: field at offset %d of a table of %d bytes", t.name, f.name, toff, tsize)
			}
			code = uint64(v.buf[pos+toff])
		}
	}
	if code == 0 {
		return nil // NONE: the value is not read
	}
	u := f.typ.union
	if code > uint64(len(u.members)) {
		// A member added to the schema after this copy: readers skip it
		// (and say so), as an older TFLite runtime would.
		return nil
	}
	target, err := v.deref(at, t.name+"."+f.name)
	if err != nil {
		return err
	}
	return v.table(target, u.members[code-1], depth+1)
}

// value checks a string, vector or table at target.
func (v *verifier) value(target uint64, typ *fbType, what string, depth int) error {
	switch typ.kind {
	case kTable:
		return v.table(target, typ.table, depth+1)
	case kString:
		if err := v.spend(target); err != nil {
			return err
		}
		n := uint64(v.u32(target))
		if target+4+n > v.size {
			return formats.Errorf(int64(target), "%s: string of %d bytes runs past the end of the file (size %d)", what, n, v.size)
		}
		return nil
	case kVector:
		if err := v.spend(target); err != nil {
			return err
		}
		n := uint64(v.u32(target))
		elem := typ.elem
		width := uint64(4)
		if elem.kind == kScalar {
			width = uint64(elem.size)
		}
		if n > (v.size-target-4)/width {
			return formats.Errorf(int64(target), "%s: vector of %d elements of %d bytes runs past the end of the file (size %d)", what, n, width, v.size)
		}
		if elem.kind == kScalar {
			return nil
		}
		if elem.kind == kUnion || elem.kind == kVector {
			return formats.Errorf(int64(target), "%s: vectors of %s are not read", what, elem.name)
		}
		for j := uint64(0); j < n; j++ {
			at := target + 4 + 4*j
			t, err := v.deref(at, what)
			if err != nil {
				return err
			}
			if err := v.value(t, elem, what, depth); err != nil {
				return err
			}
		}
		return nil
	}
	return nil
}
