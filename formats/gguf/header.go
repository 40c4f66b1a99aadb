package gguf

import (
	"encoding/binary"
	"fmt"
	"math/bits"

	"tensorscope/formats"
	"tensorscope/tensor"
)

const (
	magic            = "GGUF"
	defaultAlignment = 32
	// maxDims is GGML_MAX_DIMS: ggml tensors have at most 4 dimensions.
	maxDims = 4
)

// header is everything before the tensor data of one GGUF file.
type header struct {
	version   uint32
	order     binary.ByteOrder
	nTensors  int64
	nKV       int64
	fields    []formats.HeaderField
	meta      *formats.Meta
	kv        map[string]any // scalar values by key, for the keys the reader interprets
	alignment int64
	tensors   []tensorInfo
	infoEnd   int64 // end of the tensor-info table
	dataStart int64 // aligned start of the tensor data
	warnings  []formats.Warning
}

// tensorInfo is one entry of the tensor-info table.
type tensorInfo struct {
	name     string
	at       int64 // offset of the entry in the file
	ggmlType uint32
	dtype    tensor.DType
	shape    []int // row-major (GGUF stores dims innermost first)
	offset   int64 // relative to the data section
	nbytes   int64
}

func (h *header) warn(off int64, format string, args ...any) {
	h.warnings = append(h.warnings, formats.Warning{Offset: off, Message: fmt.Sprintf(format, args...)})
}

// parseHeader reads the header of a GGUF file of fileSize bytes from data,
// which holds the whole file or a prefix of it (then errPrefix asks for more).
// With an error it returns the header as far as it was read.
func parseHeader(data []byte, fileSize int64) (*header, error) {
	h := &header{alignment: defaultAlignment, kv: map[string]any{}}
	r := &reader{data: data, fileSize: fileSize, order: binary.LittleEndian}
	if m := r.bytes(4, "magic"); r.err == nil && string(m) != magic {
		return h, formats.Errorf(0, "magic: expected %q, found %q", magic, m)
	}
	h.readVersion(r)
	if r.err != nil {
		return h, r.err
	}
	h.nTensors = int64(r.u64("tensor count"))
	h.nKV = int64(r.u64("metadata key/value count"))
	if r.err != nil {
		return h, r.err
	}
	h.fields = append(h.fields,
		formats.HeaderField{Name: "tensor_count", Offset: 8, Size: 8, Value: uint64(h.nTensors)},
		formats.HeaderField{Name: "metadata_kv_count", Offset: 16, Size: 8, Value: uint64(h.nKV)})
	// Each key/value takes at least 8 (key length) + 4 (type) + 1 bytes;
	// each tensor info at least 8 + 4 + 4 + 8 bytes.
	if h.nKV < 0 || h.nKV > r.remaining()/13 {
		return h, formats.Errorf(16, "metadata_kv_count: %d key/values need at least %d bytes, only %d left in the file",
			uint64(h.nKV), satMul(uint64(h.nKV), 13), r.remaining())
	}
	if h.nTensors < 0 || h.nTensors > r.remaining()/24 {
		return h, formats.Errorf(8, "tensor_count: %d tensors need at least %d bytes, only %d left in the file",
			uint64(h.nTensors), satMul(uint64(h.nTensors), 24), r.remaining())
	}
	h.readMetadata(r)
	if r.err != nil {
		return h, r.err
	}
	h.readAlignment()
	h.readTensorInfos(r)
	if r.err != nil {
		return h, r.err
	}
	h.infoEnd = r.off
	h.dataStart = alignUp(r.off, h.alignment)
	if err := h.checkTensorData(fileSize); err != nil {
		return h, err
	}
	return h, nil
}

// readVersion detects the byte order from the version field: a big-endian
// file's version 3 reads as 0x03000000 in little-endian order.
func (h *header) readVersion(r *reader) {
	b := r.bytes(4, "version")
	if r.err != nil {
		return
	}
	le, be := binary.LittleEndian.Uint32(b), binary.BigEndian.Uint32(b)
	switch {
	case le == 2 || le == 3:
		h.version, h.order = le, binary.LittleEndian
	case be == 2 || be == 3:
		h.version, h.order = be, binary.BigEndian
	case le == 1 || be == 1:
		r.failf(4, "version: GGUF version 1 (the August 2023 draft with 32-bit counts) is not supported; expected 2 or 3")
		return
	default:
		r.failf(4, "version: expected 2 or 3 in either byte order, found bytes % x", b)
		return
	}
	r.order = h.order
	order := "little-endian"
	if h.order == binary.BigEndian {
		order = "big-endian"
	}
	h.fields = append(h.fields,
		formats.HeaderField{Name: "magic", Offset: 0, Size: 4, Value: magic},
		formats.HeaderField{Name: "version", Offset: 4, Size: 4, Value: h.version,
			Meaning: fmt.Sprintf("GGUF v%d, %s (detected from this field)", h.version, order)})
}

func (h *header) readMetadata(r *reader) {
	h.meta = formats.NewObject("")
	seen := make(map[string]int64, h.nKV)
	for i := int64(0); i < h.nKV && r.err == nil; i++ {
		at := r.off
		key := r.str(fmt.Sprintf("metadata key %d", i))
		typeAt := r.off
		t := r.u32("value type of " + key)
		if r.err != nil {
			return
		}
		if t > typeFloat64 {
			r.failf(typeAt, "value type of %q: expected 0…12, found %d", key, t)
			return
		}
		if prev, dup := seen[key]; dup {
			h.warn(at, "metadata key %q repeats the key at byte %d", key, prev)
		}
		seen[key] = at
		valueAt := r.off
		node := r.valueNode(key, t, 0, key)
		if r.err != nil {
			return
		}
		h.meta.Add(node)
		if t != typeArray {
			h.kv[key] = node.Value
			h.kv[key+"@"] = valueAt
		}
	}
}

// readAlignment applies general.alignment: a power of two, as a uint32.
func (h *header) readAlignment() {
	v, ok := h.kv["general.alignment"]
	if !ok {
		return
	}
	at, _ := h.kv["general.alignment@"].(int64)
	a, isU32 := v.(uint32)
	switch {
	case !isU32:
		h.warn(at, "general.alignment should be a uint32, found %T; using %d", v, defaultAlignment)
	case a == 0 || bits.OnesCount32(a) != 1:
		h.warn(at, "general.alignment %d is not a power of two; using %d", a, defaultAlignment)
	default:
		h.alignment = int64(a)
	}
}

func (h *header) readTensorInfos(r *reader) {
	h.tensors = make([]tensorInfo, 0, h.nTensors)
	for i := int64(0); i < h.nTensors && r.err == nil; i++ {
		ti := tensorInfo{at: r.off}
		ti.name = r.str(fmt.Sprintf("tensor %d name", i))
		dimsAt := r.off
		nd := r.u32(fmt.Sprintf("tensor %q n_dims", ti.name))
		if r.err != nil {
			return
		}
		if nd > maxDims {
			r.failf(dimsAt, "tensor %q: n_dims: expected at most %d, found %d", ti.name, maxDims, nd)
			return
		}
		ti.shape = make([]int, nd)
		elems := int64(1)
		for d := uint32(0); d < nd; d++ {
			at := r.off
			ne := r.u64(fmt.Sprintf("tensor %q dimension %d", ti.name, d))
			if r.err != nil {
				return
			}
			if ne > 1<<62 || (ne > 0 && elems > (1<<62)/int64(ne)) {
				r.failf(at, "tensor %q: dimension %d of %d overflows the element count", ti.name, d, ne)
				return
			}
			elems *= int64(ne)
			ti.shape[int(nd)-1-int(d)] = int(ne) // row-major: outermost first
		}
		typeAt := r.off
		ti.ggmlType = r.u32(fmt.Sprintf("tensor %q type", ti.name))
		offAt := r.off
		ti.offset = int64(r.u64(fmt.Sprintf("tensor %q offset", ti.name)))
		if r.err != nil {
			return
		}
		g, ok := lookupGGMLType(ti.ggmlType)
		if !ok {
			r.failf(typeAt, "tensor %q: type: expected a ggml type, found %s", ti.name, GGMLTypeName(ti.ggmlType))
			return
		}
		ti.dtype = g.dtype
		if nd > 0 && ti.shape[nd-1]%g.dtype.UnitElems() != 0 {
			r.failf(dimsAt+4, "tensor %q: rows of %d elements are not a whole number of %s blocks of %d",
				ti.name, ti.shape[nd-1], g.name, g.dtype.UnitElems())
			return
		}
		nb, err := tensor.StorageBytes(g.dtype, elems)
		if err != nil {
			r.failf(dimsAt, "tensor %q: %v", ti.name, err)
			return
		}
		ti.nbytes = nb
		if ti.offset < 0 {
			r.failf(offAt, "tensor %q: offset %d is negative", ti.name, uint64(ti.offset))
			return
		}
		h.tensors = append(h.tensors, ti)
	}
}

// checkTensorData checks each tensor's offset against the alignment and its
// bytes against the file. Tensors whose data the file lacks stay listed
// (their loaders report it) so that a truncated download can be looked at.
func (h *header) checkTensorData(fileSize int64) error {
	names := make(map[string]bool, len(h.tensors))
	for i := range h.tensors {
		ti := &h.tensors[i]
		if names[ti.name] {
			h.warn(ti.at, "tensor name %q repeats an earlier tensor's", ti.name)
		}
		names[ti.name] = true
		if ti.offset%h.alignment != 0 {
			h.warn(ti.at, "tensor %q: offset %d is not a multiple of the alignment %d", ti.name, ti.offset, h.alignment)
		}
		if ti.offset > fileSize || ti.nbytes > fileSize-h.dataStart-ti.offset {
			h.warn(ti.at, "tensor %q: data at bytes %d…%d lies beyond the end of the file (%d bytes)",
				ti.name, h.dataStart+ti.offset, h.dataStart+ti.offset+ti.nbytes, fileSize)
		}
	}
	return nil
}

func alignUp(off, a int64) int64 { return (off + a - 1) / a * a }
