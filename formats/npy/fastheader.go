package npy

import (
	"bytes"
	"sync"

	"tensorscope/tensor"
)

// numpyDict reads the header text exactly as NumPy writes it,
//
//	{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }
//
// followed by spaces and a newline, without the general literal parser's
// map and values: an archive of 100,000 small arrays spent a third of its
// opening there. ok is false for any other spelling (records, Python 2's
// 3L, other spacing or key order, escapes, values out of range), which the
// general parser then reads and, when wrong, reports.
func numpyDict(raw []byte) (descr []byte, fortran bool, shape []int, ok bool) {
	rest, ok := bytes.CutPrefix(raw, []byte("{'descr': '"))
	if !ok {
		return nil, false, nil, false
	}
	end := bytes.IndexByte(rest, '\'')
	if end <= 0 {
		return nil, false, nil, false
	}
	descr, rest = rest[:end], rest[end+1:]
	for _, c := range descr {
		if c < 0x20 || c >= 0x7f || c == '\\' {
			return nil, false, nil, false
		}
	}
	if rest, ok = bytes.CutPrefix(rest, []byte(", 'fortran_order': ")); !ok {
		return nil, false, nil, false
	}
	switch {
	case bytes.HasPrefix(rest, []byte("False")):
		rest = rest[len("False"):]
	case bytes.HasPrefix(rest, []byte("True")):
		fortran, rest = true, rest[len("True"):]
	default:
		return nil, false, nil, false
	}
	if rest, ok = bytes.CutPrefix(rest, []byte(", 'shape': (")); !ok {
		return nil, false, nil, false
	}
	// (), (n,) or (n, m, ...): Python's repr of a tuple of ints.
	count := 0
	for i := 0; i < len(rest) && rest[i] != ')'; i++ {
		if rest[i] >= '0' && rest[i] <= '9' && (i == 0 || rest[i-1] < '0' || rest[i-1] > '9') {
			count++
		}
	}
	shape = make([]int, 0, count)
	for len(rest) > 0 && rest[0] != ')' {
		n, digits := 0, 0
		for digits < len(rest) && rest[digits] >= '0' && rest[digits] <= '9' {
			n = n*10 + int(rest[digits]-'0')
			digits++
		}
		if digits == 0 || digits > 15 || n > tensor.MaxElements {
			return nil, false, nil, false
		}
		shape, rest = append(shape, n), rest[digits:]
		switch {
		case bytes.HasPrefix(rest, []byte(",)")) && len(shape) == 1:
			rest = rest[1:]
		case bytes.HasPrefix(rest, []byte(", ")) && len(rest) > 2 && rest[2] != ')':
			rest = rest[2:]
		case len(rest) > 0 && rest[0] == ')' && len(shape) > 1:
		default:
			return nil, false, nil, false
		}
	}
	if rest, ok = bytes.CutPrefix(rest, []byte("), }")); !ok {
		return nil, false, nil, false
	}
	for _, c := range rest {
		switch c {
		case ' ', '\t', '\n', '\r', '\f', '\v':
		default:
			return nil, false, nil, false
		}
	}
	return descr, fortran, shape, true
}

// simpleTypes holds the simple types already parsed, shared by every
// array that names them (an element type is never changed once parsed):
// one per descr instead of one per array. It is bounded, since a long
// session may open files naming many datetime units.
var simpleTypes struct {
	sync.RWMutex
	byDescr map[string]*elemType
}

const maxSimpleTypes = 64

// simpleType returns the parsed simple type descr names, or nil when it
// is not one.
func simpleType(descr []byte) *elemType {
	simpleTypes.RLock()
	t := simpleTypes.byDescr[string(descr)]
	simpleTypes.RUnlock()
	if t != nil {
		return t
	}
	t, err := parseTypeString(string(descr))
	if err != nil {
		return nil
	}
	simpleTypes.Lock()
	if simpleTypes.byDescr == nil {
		simpleTypes.byDescr = map[string]*elemType{}
	}
	if len(simpleTypes.byDescr) < maxSimpleTypes {
		simpleTypes.byDescr[t.descr] = t
	}
	simpleTypes.Unlock()
	return t
}

// readNumPyDict fills h from a header NumPy wrote, as readDict would
// from the parsed literal; false when numpyDict does not apply or the
// values need the general path's messages.
func (h *header) readNumPyDict(raw []byte) bool {
	descr, fortran, shape, ok := numpyDict(raw)
	if !ok {
		return false
	}
	elem := simpleType(descr)
	if elem == nil {
		return false
	}
	n, err := tensor.NumElements(shape)
	if err != nil {
		return false
	}
	h.fortran, h.shape, h.count, h.elem = fortran, shape, int64(n), elem
	return true
}
