package safetensors

import (
	"encoding/binary"
	"errors"
	"fmt"

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
	byName   map[string]*entry // the same tensors by name
	metadata *formats.Meta     // __metadata__, nil when absent
	metaAt   int64
	metaSpan int64
	warnings []formats.Warning
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
func parseHeader(text []byte) (*header, error) {
	h := &header{size: int64(len(text))}
	if text[0] != '{' {
		return nil, formats.Errorf(8, "header: expected '{', found %q", text[0])
	}
	sc := &scanner{b: text}
	// An entry takes some 90 bytes or more: sized once, neither the map
	// nor the list grows its way up to a shard's hundreds of tensors.
	h.byName = make(map[string]*entry, len(text)/90)
	h.tensors = make([]*entry, 0, len(text)/90)
	err := sc.members(func(name string, keyAt int) error {
		at := 8 + int64(keyAt)
		if name == "__metadata__" {
			return h.readMetadata(sc, at)
		}
		e, err := readEntry(sc, name, at)
		if err != nil {
			return err
		}
		if h.byName[name] != nil {
			h.warn(at, "tensor %q appears twice in the header: only the first is listed", name)
			return nil
		}
		h.byName[name] = e
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

// headerErr places a scanning error in the file.
func headerErr(err error) error {
	var se *scanError
	if errors.As(err, &se) {
		return formats.Errorf(8+int64(se.pos), "header: %s", se.msg)
	}
	return err
}

// readEntry reads one tensor's {"dtype", "shape", "data_offsets"}; other
// keys are skipped, as the reference does.
func readEntry(sc *scanner, name string, at int64) (*entry, error) {
	var f entryFields
	err := sc.members(func(key string, _ int) error {
		var err error
		switch key {
		case "dtype":
			f.dtype, err = sc.str()
			f.has |= hasDType
		case "shape":
			f.shape, err = sc.uints(name, "shape")
			f.has |= hasShape
		case "data_offsets":
			f.offsets, err = sc.uints(name, "data_offsets")
			f.has |= hasOffsets
		default:
			_, err = sc.value(1)
		}
		return err
	})
	if err != nil {
		return nil, headerErr(err)
	}
	e := &entry{name: name, at: at, span: 8 + int64(sc.pos) - at}
	if err := e.fill(&f); err != nil {
		return nil, formats.Errorf(at, "tensor %q: %v", name, err)
	}
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
// dtype name, non-negative integers.
func (e *entry) fill(f *entryFields) error {
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
	e.shape = make([]int, len(f.shape))
	for i, d := range f.shape {
		if d < 0 || d > tensor.MaxElements {
			return fmt.Errorf("shape %v: dimension %d is %d, expected 0 to 2^48", f.shape, i, d)
		}
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
