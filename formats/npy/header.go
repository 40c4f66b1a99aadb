package npy

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"tensorscope/formats"
	"tensorscope/tensor"
)

const magic = "\x93NUMPY"

// prefixLen is the bytes before a header's dict text: magic, version and
// the length field (2 bytes in version 1, 4 in versions 2 and 3).
func prefixLen(major byte) int64 {
	if major == 1 {
		return 10
	}
	return 12
}

// header is a parsed .npy header. Offsets are relative to the start of the
// .npy data; base is added for messages and header fields.
type header struct {
	major, minor byte
	textLen      int64 // bytes of the dict text
	dataOffset   int64 // where the array data starts
	elem         *elemType
	fortran      bool
	shape        []int
	count        int64 // elements
	dict         string
}

// sniffNPY reports whether b starts like a .npy file.
func sniffNPY(b []byte) bool {
	return len(b) >= 10 && string(b[:6]) == magic && b[6] >= 1 && b[6] <= 3
}

// peekHeaderLen returns the total header length (prefix plus dict) that
// the first bytes of an .npy announce; b needs prefixLen bytes.
func peekHeaderLen(b []byte, base int64) (int64, error) {
	if len(b) < 8 || string(b[:6]) != magic {
		found := b[:min(len(b), 6)]
		return 0, formats.Errorf(base, "magic: expected %q, found %q", magic, found)
	}
	major := b[6]
	if major < 1 || major > 3 {
		return 0, formats.Errorf(base+6, "version: expected 1.0, 2.0 or 3.0, found %d.%d", b[6], b[7])
	}
	p := prefixLen(major)
	if int64(len(b)) < p {
		return 0, formats.Errorf(base+int64(len(b)), "header: expected %d bytes of magic, version and length, found %d", p, len(b))
	}
	if major == 1 {
		return p + int64(binary.LittleEndian.Uint16(b[8:10])), nil
	}
	return p + int64(binary.LittleEndian.Uint32(b[8:12])), nil
}

// parseHeader reads the header at the start of b, an .npy's bytes (or its
// first bytes: the data need not be present).
func parseHeader(b []byte, base int64) (*header, error) { return parseHeaderText(b, base, true) }

// parseHeaderText is parseHeader; with keepDict false a header NumPy wrote
// keeps no copy of its text (h.dict is ""): an archive's members past the
// first ones the Header pane lists need none.
func parseHeaderText(b []byte, base int64, keepDict bool) (*header, error) {
	total, err := peekHeaderLen(b, base)
	if err != nil {
		return nil, err
	}
	h := &header{major: b[6], minor: b[7], dataOffset: total}
	p := prefixLen(h.major)
	h.textLen = total - p
	if h.minor != 0 {
		return h, formats.Errorf(base+7, "version: expected %d.0, found %d.%d", h.major, h.major, h.minor)
	}
	if total > int64(len(b)) {
		return h, formats.Errorf(base+8, "header length: the header claims %d bytes but only %d follow", h.textLen, int64(len(b))-p)
	}
	raw := b[p:total]
	if h.readNumPyDict(raw) {
		if keepDict {
			h.dict = string(raw) // ASCII, as numpyDict accepts only that
		}
		return h, nil
	}
	if h.major == 3 {
		if !utf8.Valid(raw) {
			return h, formats.Errorf(base+p, "header: version 3.0 headers are UTF-8, found invalid bytes")
		}
		h.dict = string(raw)
	} else {
		h.dict = latin1(raw)
	}
	lit, err := parseLiteral(h.dict)
	if err != nil {
		var le *literalError
		if errors.As(err, &le) {
			return h, formats.Errorf(base+p+byteOffset(raw, h.major, le.pos), "header: %s", le.msg)
		}
		return h, formats.Errorf(base+p, "header: %v", err)
	}
	if err := h.readDict(lit); err != nil {
		return h, formats.Errorf(base+p, "header: %v", err)
	}
	return h, nil
}

// byteOffset maps a position in the decoded header text back to the file:
// latin-1 characters above 0x7f take two bytes of UTF-8 in the Go string.
func byteOffset(raw []byte, major byte, pos int) int64 {
	if major == 3 {
		return int64(pos)
	}
	s := latin1(raw)
	return int64(utf8.RuneCountInString(s[:min(pos, len(s))]))
}

func latin1(b []byte) string {
	ascii := true
	for _, c := range b {
		if c >= 0x80 {
			ascii = false
			break
		}
	}
	if ascii {
		return string(b)
	}
	var sb strings.Builder
	for _, c := range b {
		sb.WriteRune(rune(c))
	}
	return sb.String()
}

// readDict checks the header dict as NumPy's read_array_header does:
// exactly the keys descr, fortran_order and shape.
func (h *header) readDict(v pyValue) error {
	d, ok := v.(*pyDict)
	if !ok {
		return fmt.Errorf("expected a dict, found %s", describe(v))
	}
	want := []string{"descr", "fortran_order", "shape"}
	for _, k := range d.keys {
		if k != "descr" && k != "fortran_order" && k != "shape" {
			return fmt.Errorf("unexpected key %q (expected only %s)", k, strings.Join(want, ", "))
		}
	}
	for _, k := range want {
		if _, ok := d.values[k]; !ok {
			return fmt.Errorf("missing key %q", k)
		}
	}
	fo, ok := d.values["fortran_order"].(bool)
	if !ok {
		return fmt.Errorf("fortran_order: expected True or False, found %s", describe(d.values["fortran_order"]))
	}
	h.fortran = fo
	st, ok := d.values["shape"].(pyTuple)
	if !ok {
		return fmt.Errorf("shape: expected a tuple of ints, found %s", describe(d.values["shape"]))
	}
	shape, err := intsOf(st, "shape")
	if err != nil {
		return err
	}
	n, err := tensor.NumElements(shape)
	if err != nil {
		return fmt.Errorf("shape: %v", err)
	}
	h.shape, h.count = shape, int64(n)
	elem, err := parseDescr(d.values["descr"], 0)
	if err != nil {
		return err
	}
	h.elem = elem
	return nil
}

// dataBytes is the size of the array data, or -1 for object arrays (a
// pickle of unknown length) and on overflow.
func (h *header) dataBytes() int64 {
	if h.elem.kind == 'O' || hasObjects(h.elem) {
		return -1
	}
	if h.elem.size == 0 {
		return 0
	}
	if h.count > (1<<62)/int64(h.elem.size) {
		return -1
	}
	return h.count * int64(h.elem.size)
}

// hasObjects reports whether a record holds object fields (NumPy pickles
// the whole array then).
func hasObjects(t *elemType) bool {
	if t.kind == 'O' {
		return true
	}
	for _, f := range t.fields {
		if hasObjects(f.elem) {
			return true
		}
	}
	return false
}

// headerFields lists the fixed fields for the Header pane.
func (h *header) headerFields(base int64) []formats.HeaderField {
	dict := h.dict
	if len(dict) > 200 {
		dict = dict[:200] + "…"
	}
	return append(h.prefixFields(base), formats.HeaderField{Name: "header", Offset: base + prefixLen(h.major),
		Size: int(h.textLen), Value: strings.TrimRight(dict, " \n"), Meaning: h.meaning()})
}

// prefixFields are the fields before the dict (magic, version, header
// length), all that a header that failed to parse can show.
func (h *header) prefixFields(base int64) []formats.HeaderField {
	lenField := formats.HeaderField{Name: "header_len", Offset: base + 8, Size: 2, Value: h.textLen}
	if h.major != 1 {
		lenField.Size = 4
	}
	return []formats.HeaderField{
		{Name: "magic", Offset: base, Size: 6, Value: []byte(magic), Meaning: "NumPy array"},
		{Name: "major_version", Offset: base + 6, Size: 1, Value: int64(h.major)},
		{Name: "minor_version", Offset: base + 7, Size: 1, Value: int64(h.minor)},
		lenField,
	}
}

func (h *header) meaning() string {
	order := "C order"
	if h.fortran {
		order = "Fortran order"
	}
	return fmt.Sprintf("%s%v, %s, data at byte %d", h.elem.name(), h.shape, order, h.dataOffset)
}

// versionString is "1.0", "2.0" or "3.0".
func (h *header) versionString() string { return fmt.Sprintf("%d.%d", h.major, h.minor) }
