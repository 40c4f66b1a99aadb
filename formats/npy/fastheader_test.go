package npy

import (
	"encoding/binary"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"tensorscope/internal/samples"
	"testing"
)

var numpyDictSeeds = []string{
	"{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }          \n",
	"{'descr': '>i8', 'fortran_order': True, 'shape': (2, 3), }\n",
	"{'descr': '|b1', 'fortran_order': False, 'shape': (), }    \n",
	"{'descr': '<M8[ns]', 'fortran_order': False, 'shape': (0, 4, 5), }\n",
	"{'descr': '<U5', 'fortran_order': False, 'shape': (7,), }\n",
	"{'descr': '|O', 'fortran_order': False, 'shape': (1,), }\n",
	"{'descr': '<f4', 'fortran_order': False, 'shape': (3L,), }\n",
	"{'descr': '<f4', 'fortran_order': False, 'shape': (3), }\n",
	"{'descr': '<f4', 'fortran_order': False, 'shape': (3, ), }\n",
	"{'descr': '<f4', 'fortran_order': False, 'shape': (281474976710657,), }\n",
	"{'descr': '<f4', 'fortran_order': False, 'shape': (65536, 65536, 65537), }\n",
	"{'descr': '<q9', 'fortran_order': False, 'shape': (3,), }\n",
	"{'descr': [('x', '<f4')], 'fortran_order': False, 'shape': (3,), }\n",
	"{'fortran_order': False, 'descr': '<f4', 'shape': (3,), }\n",
	"{'descr': '<f4', 'fortran_order': False, 'shape': (3,), } x\n",
	"{'descr': '<f\\x34', 'fortran_order': False, 'shape': (3,), }\n",
	"{'descr': '', 'fortran_order': False, 'shape': (3,), }\n",
}

// checkNumPyDict holds the fast reading of a header to the general one:
// whatever it accepts, the literal parser and readDict read the same way.
// headerDict is the dictionary text of an .npy file's header.
func headerDict(b []byte) (string, bool) {
	if len(b) < 10 || string(b[:6]) != "\x93NUMPY" {
		return "", false
	}
	start, n := 10, int(binary.LittleEndian.Uint16(b[8:10]))
	if b[6] >= 2 {
		if len(b) < 12 {
			return "", false
		}
		start, n = 12, int(binary.LittleEndian.Uint32(b[8:12]))
	}
	if n < 0 || start+n > len(b) {
		return "", false
	}
	return string(b[start : start+n]), true
}

func checkNumPyDict(t *testing.T, text string) {
	var fast header
	if !fast.readNumPyDict([]byte(text)) {
		return
	}
	lit, err := parseLiteral(text)
	if err != nil {
		t.Fatalf("%q: read fast, but the literal parser says %v", text, err)
	}
	var slow header
	if err := slow.readDict(lit); err != nil {
		t.Fatalf("%q: read fast, but readDict says %v", text, err)
	}
	if fast.fortran != slow.fortran || fast.count != slow.count || !reflect.DeepEqual(fast.shape, slow.shape) || !reflect.DeepEqual(*fast.elem, *slow.elem) {
		t.Fatalf("%q: fast %+v %+v, general %+v %+v", text, fast, *fast.elem, slow, *slow.elem)
	}
}

func TestNumPyDictMatchesLiteralParser(t *testing.T) {
	accepted := 0
	for _, s := range numpyDictSeeds {
		checkNumPyDict(t, s)
		var h header
		if h.readNumPyDict([]byte(s)) {
			accepted++
		}
	}
	if accepted != 6 {
		t.Errorf("the fast path read %d of the seeds, want the first 6", accepted)
	}
}

func FuzzNumPyDict(f *testing.F) {
	for _, s := range numpyDictSeeds {
		f.Add(s)
	}
	// The header dictionaries of the real .npy samples.
	filepath.WalkDir(samples.Dir(f, "npy"), func(p string, e fs.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".npy") {
			if b, err := os.ReadFile(p); err == nil {
				if d, ok := headerDict(b); ok {
					f.Add(d)
				}
			}
		}
		return nil
	})
	f.Fuzz(checkNumPyDict)
}
