package safetensors

import (
	"encoding/binary"
	"errors"
	"fmt"
	"unsafe"

	"tensorscope/formats"
	"tensorscope/tensor"
)

// maxHeaderSize is the reference implementation's limit on the JSON header.
const maxHeaderSize = 100_000_000

// entry is one tensor as the header describes it.
type entry struct {
	name       string
	dtypeName  string
	dtype      tensor.DType // Invalid for an unknown dtype name
	shape      []int
	start, end int64 // data_offsets, relative to the data buffer
	at, span   int64 // file offset and length of the entry's JSON
	problem    string
	index      int // place in header.tensors
}

// header is a parsed safetensors header.
type header struct {
	size     int64 // bytes of JSON after the 8-byte length
	tensors  []*entry
	byName   nameIndex     // positions in tensors by name (see lookup)
	metadata *formats.Meta // __metadata__, nil when absent
	metaAt   int64
	metaSpan int64
	warnings []formats.Warning
	listings []listing // the tensors' entries, by index (see tensorEntry)
}

// nameAt is the name of tensor i, for byName.
func (h *header) nameAt(i int) string { return h.tensors[i].name }

// lookup returns the tensor named name, or nil.
func (h *header) lookup(name string) *entry {
	if i, ok := h.byName.find(name, h.nameAt); ok {
		return h.tensors[i]
	}
	return nil
}

// bufferStart is the file offset of the data buffer.
func (h *header) bufferStart() int64 { return 8 + h.size }

// headerSize reads and checks the length prefix against the file's size.
func headerSize(prefix []byte, fileSize int64) (int64, error) {
	if len(prefix) < 8 || fileSize < 8 {
		return 0, formats.Errorf(0, "header length: expected 8 bytes, the file has %d", fileSize)
	}
	n := binary.LittleEndian.Uint64(prefix)
	if n > maxHeaderSize {
		return 0, formats.Errorf(0, "header length: %d bytes is over the 100 MB limit", n)
	}
	if int64(n) > fileSize-8 {
		return 0, formats.Errorf(0, "header length: %d bytes of header would end at byte %d, past the end of the %d-byte file", n, 8+n, fileSize)
	}
	if n < 2 {
		return 0, formats.Errorf(0, "header length: %d bytes cannot hold a JSON object", n)
	}
	return int64(n), nil
}

// parseHeader reads the JSON header text (which starts at file offset 8).
// The header keeps nothing of text: a shard's text can be read into a
// buffer that the next shard reuses.
func parseHeader(text []byte) (*header, error) {
	h := &header{size: int64(len(text))}
	if text[0] != '{' {
		return nil, formats.Errorf(8, "header: expected '{', found %q", text[0])
	}
	sc := &scanner{b: text}
	// An entry takes some 90 bytes or more: sized once, neither the map
	// nor the list grows its way up to a shard's hundreds of tensors, and
	// the entries, their shapes and names are carved from a few larger
	// allocations (slabs) instead of four each.
	estimate := len(text)/90 + 1
	h.byName = newNameIndex(estimate)
	h.tensors = make([]*entry, 0, estimate)
	p := entryParser{entries: slab[entry]{chunk: estimate}, dims: slab[int]{chunk: 2 * estimate}, names: slab[byte]{chunk: len(text) / 3}}
	err := sc.members(func(key []byte, keyAt int) error {
		at := 8 + int64(keyAt)
		if string(key) == "__metadata__" {
			return h.readMetadata(sc, at)
		}
		e, err := p.read(sc, key, at)
		if err != nil {
			return err
		}
		if _, dup := h.byName.add(e.name, len(h.tensors), h.nameAt); dup {
			h.warn(at, "tensor %q appears twice in the header: only the first is listed", key)
			return nil
		}
		e.index = len(h.tensors)
		h.tensors = append(h.tensors, e)
		return nil
	})
	if err != nil {
		return nil, headerErr(err)
	}
	for i := sc.pos; i < len(text); i++ {
		if c := text[i]; c != ' ' && c != '\n' && c != '\t' && c != '\r' {
			return nil, formats.Errorf(8+int64(i), "header: expected only spaces after the JSON object, found %q", c)
		}
	}
	return h, nil
}

// slab hands out pieces of larger allocations, chunk elements at a time:
// a header's entries, shapes and names. A piece lives as long as any
// piece of its chunk.
type slab[T any] struct {
	free  []T
	chunk int
}

func (s *slab[T]) take(n int) []T {
	if n == 0 {
		return []T{}
	}
	if len(s.free) < n {
		s.free = make([]T, max(n, s.chunk, 16))
	}
	p := s.free[:n:n]
	s.free = s.free[n:]
	return p
}

// slabString copies b into s as a string.
func slabString(s *slab[byte], b []byte) string {
	if len(b) == 0 {
		return ""
	}
	p := s.take(len(b))
	copy(p, b)
	return unsafe.String(&p[0], len(p)) // p is never written again
}

// entryParser reads a header's entries into its slabs.
type entryParser struct {
	entries slab[entry]
	dims    slab[int]
	names   slab[byte]
	scratch [2][]int64 // shape and data_offsets as read
	dtype   string     // the last dtype read
}

// headerErr places a scanning error in the file.
func headerErr(err error) error {
	var se *scanError
	if errors.As(err, &se) {
		return formats.Errorf(8+int64(se.pos), "header: %s", se.msg)
	}
	return err
}

// read reads one tensor's {"dtype", "shape", "data_offsets"}; other keys
// are skipped, as the reference does.
func (p *entryParser) read(sc *scanner, name []byte, at int64) (*entry, error) {
	f := entryFields{shape: p.scratch[0][:0], offsets: p.scratch[1][:0]}
	err := sc.members(func(key []byte, _ int) error {
		var err error
		switch string(key) {
		case "dtype":
			var b []byte
			if b, err = sc.strBytes(); err == nil {
				if string(b) != p.dtype { // usually the previous tensor's
					p.dtype = intern(b)
				}
				f.dtype = p.dtype
			}
			f.has |= hasDType
		case "shape":
			f.shape, err = sc.uints(f.shape[:0], name, "shape")
			f.has |= hasShape
		case "data_offsets":
			f.offsets, err = sc.uints(f.offsets[:0], name, "data_offsets")
			f.has |= hasOffsets
		default:
			_, err = sc.value(1)
		}
		return err
	})
	if err != nil {
		return nil, headerErr(err)
	}
	p.scratch[0], p.scratch[1] = f.shape, f.offsets
	e := &p.entries.take(1)[0]
	*e = entry{at: at, span: 8 + int64(sc.pos) - at}
	if err := e.fill(&f, &p.dims); err != nil {
		return nil, formats.Errorf(at, "tensor %q: %v", name, err)
	}
	e.name = slabString(&p.names, name)
	return e, nil
}

// entryFields are the fields of a tensor's entry as read, and which of
// them were there.
type entryFields struct {
	dtype          string
	shape, offsets []int64
	has            uint8
}

const (
	hasDType = 1 << iota
	hasShape
	hasOffsets
)

func (h *header) warn(at int64, format string, args ...any) {
	h.warnings = append(h.warnings, formats.Warning{Offset: at, Message: fmt.Sprintf(format, args...)})
}

// fill checks the entry's fields as the reference's types do: a known
// dtype name, non-negative integers. The shape is carved from dims.
func (e *entry) fill(f *entryFields, dims *slab[int]) error {
	switch {
	case f.has&hasDType == 0:
		return fmt.Errorf("missing \"dtype\"")
	case f.has&hasShape == 0:
		return fmt.Errorf("missing \"shape\"")
	case f.has&hasOffsets == 0:
		return fmt.Errorf("missing \"data_offsets\"")
	case len(f.offsets) != 2:
		return fmt.Errorf("data_offsets: expected [begin, end], found %d numbers", len(f.offsets))
	}
	e.dtypeName = f.dtype
	e.dtype = dtypes[f.dtype]
	e.start, e.end = f.offsets[0], f.offsets[1]
	if e.start < 0 || e.end < 0 {
		return fmt.Errorf("data_offsets %v: expected non-negative offsets", f.offsets)
	}
	for i, d := range f.shape {
		if d < 0 || d > tensor.MaxElements {
			return fmt.Errorf("shape %v: dimension %d is %d, expected 0 to 2^48", f.shape, i, d)
		}
	}
	e.shape = dims.take(len(f.shape))
	for i, d := range f.shape {
		e.shape[i] = int(d)
	}
	return nil
}

// readMetadata reads __metadata__: a flat map of strings (or null).
func (h *header) readMetadata(sc *scanner, at int64) error {
	raw, err := sc.value(0)
	if err != nil {
		return headerErr(err)
	}
	h.metaAt, h.metaSpan = at, 8+int64(sc.pos)-at
	if string(raw) == "null" {
		return nil
	}
	tree, err := formats.JSONTree("__metadata__", raw, 8+int64(sc.pos-len(raw)))
	if err != nil {
		return err
	}
	if tree.IsLeaf() {
		h.warn(at, "__metadata__ is not an object of strings")
	} else {
		for _, c := range tree.Children {
			if _, ok := c.Value.(string); !ok || !c.IsLeaf() {
				h.warn(at, "__metadata__ %q is not a string (the reference accepts only strings)", c.Name)
			}
		}
	}
	h.metadata = tree
	return nil
}
