package npy

import (
	"encoding/binary"
	"errors"
	"strings"
	"testing"

	"tensorscope/formats"
)

// npyFile builds an .npy of the given version around a header dict.
func npyFile(major byte, dict string, data []byte) []byte {
	pre := 10
	if major > 1 {
		pre = 12
	}
	total := (pre + len(dict) + 1 + 63) / 64 * 64
	b := make([]byte, total, total+len(data))
	copy(b, "\x93NUMPY")
	b[6], b[7] = major, 0
	if major == 1 {
		binary.LittleEndian.PutUint16(b[8:], uint16(total-pre))
	} else {
		binary.LittleEndian.PutUint32(b[8:], uint32(total-pre))
	}
	n := copy(b[pre:], dict)
	for i := pre + n; i < total-1; i++ {
		b[i] = ' '
	}
	b[total-1] = '\n'
	return append(b, data...)
}

func TestHeaderLiterals(t *testing.T) {
	good := []struct {
		dict  string
		shape []int
		name  string
	}{
		{"{'descr': '<f4', 'fortran_order': False, 'shape': (2L, 3L), }", []int{2, 3}, "float32"},
		{`{"descr": "<i2", "fortran_order": True, "shape": (4,)}`, []int{4}, "int16"},
		{"{'descr': '|b1', 'fortran_order': False, 'shape': ()}", []int{}, "bool"},
		{"{'descr': '>M8[ms]', 'fortran_order': False, 'shape': (1,), }", []int{1}, "datetime64[ms]"},
		{"{'shape': (0, 5), 'fortran_order': False, 'descr': [('a', '<u2'), (('title', 'b'), '<f8', (2,))]}", []int{0, 5}, "void144"},
	}
	for _, g := range good {
		h, err := parseHeader(npyFile(1, g.dict, nil), 0)
		if err != nil {
			t.Errorf("%s: %v", g.dict, err)
			continue
		}
		if h.elem.name() != g.name || len(h.shape) != len(g.shape) {
			t.Errorf("%s: got %s%v, want %s%v", g.dict, h.elem.name(), h.shape, g.name, g.shape)
		}
	}
	bad := []struct{ dict, want string }{
		{"{'descr': '<f4', 'fortran_order': False, 'shape': (2)}", "not a tuple"},
		{"{'descr': '<f4', 'fortran_order': 0, 'shape': (2,)}", "fortran_order"},
		{"{'descr': '<f4', 'fortran_order': False}", "missing key \"shape\""},
		{"{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'extra': 1}", "unexpected key"},
		{"{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (2,)}", "appears twice"},
		{"{'descr': '<f4', 'fortran_order': False, 'shape': (-2,)}", "expected a size"},
		{"{'descr': '<f4', 'fortran_order': False, 'shape': (2.5,)}", "float"},
		{"{'descr': '<q9', 'fortran_order': False, 'shape': (2,)}", "unknown kind"},
		{"{'descr': '<f4', 'fortran_order': False, 'shape': (2,)} junk", "end of the header"},
		{"{'descr': '<f4', 'fortran_order': False, 'shape': (2,)", "found the end"},
		{"{'descr': __import__('os'), 'fortran_order': False, 'shape': (2,)}", "expected a Python literal"},
		{"{'descr': " + strings.Repeat("[", 100000) + "}", "nested more than"},
		{"{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999, 99999999999, 99999999999)}", "2^48"},
	}
	for _, b := range bad {
		_, err := parseHeader(npyFile(2, b.dict, nil), 100)
		var fe *formats.Error
		if err == nil || !errors.As(err, &fe) || !strings.Contains(err.Error(), b.want) {
			t.Errorf("%.60s: error %v, want one mentioning %q", b.dict, err, b.want)
			continue
		}
		if fe.Offset < 112 {
			t.Errorf("%.60s: error at byte %d, expected inside the header text (from 112)", b.dict, fe.Offset)
		}
	}
}

func TestHeaderLengthPastTheEnd(t *testing.T) {
	b := npyFile(2, "{'descr': '<f4', 'fortran_order': False, 'shape': (2,)}", nil)
	binary.LittleEndian.PutUint32(b[8:], 0xfffffff0)
	_, err := parseHeader(b, 0)
	if err == nil || !strings.Contains(err.Error(), "only") {
		t.Fatalf("a header length past the end: %v", err)
	}
	_, err = parseHeader(append([]byte("\x93NUMPY\x04\x00"), 0, 0), 0)
	if err == nil || !strings.Contains(err.Error(), "version") {
		t.Fatalf("version 4.0: %v", err)
	}
}
