package npy_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"tensorscope/formats"
	_ "tensorscope/formats/all"
	"tensorscope/internal/pyref"
	"tensorscope/internal/samples"
	"tensorscope/tensor"
)

// numpyReference prints, for each array of an .npy or .npz file, what NumPy
// reads: dtype name, shape, the little-endian C-order bytes of numeric
// arrays and of each numeric field (base64), and the text of string
// arrays. Object arrays are not loaded (allow_pickle stays False).
const numpyReference = `
import sys, json, base64
import numpy as np

def numeric(a):
    return a.dtype.kind in 'biufcMm'

def le_bytes(a):
    a = np.ascontiguousarray(a)
    return base64.b64encode(a.astype(a.dtype.newbyteorder('<')).tobytes()).decode()

def fields(a, prefix, out):
    for name in a.dtype.names:
        f = a[name]
        if f.dtype.names:
            fields(f, prefix + '.' + name, out)
        elif numeric(f):
            out[prefix + '.' + name] = {'shape': list(f.shape), 'bytes': le_bytes(f)}

def describe(name, a, out):
    if a.dtype.kind == 'O':
        out[name] = {'object': True}
        return
    d = {'shape': list(a.shape)}
    if a.dtype.names:
        fields(a, name, out)
    elif numeric(a):
        d['bytes'] = le_bytes(a)
    elif a.dtype.kind == 'U':
        d['text'] = [str(x) for x in a.flat]
    elif a.dtype.kind == 'S':
        d['text'] = [x.rstrip(b'\0').decode('utf-8', 'replace') for x in a.flat]
    out[name] = d

def load(path):
    try:
        return np.load(path, allow_pickle=False, max_header_size=10**7)
    except TypeError:  # NumPy before 1.24 has no header limit
        return np.load(path, allow_pickle=False)

def read(path):
    out = {}
    if path.endswith('.npz'):
        with load(path) as z:
            for name in z.files:
                try:
                    describe(name, z[name], out)
                except ValueError as e:
                    if 'allow_pickle' not in str(e):
                        raise
                    out[name] = {'object': True}
    else:
        try:
            describe('#0', load(path), out)
        except ValueError as e:
            if 'allow_pickle' not in str(e):
                raise
            out['#0'] = {'object': True}
    return out

print(json.dumps({p: read(p) for p in sys.argv[1:]}))
`

type numpyArray struct {
	Shape  []int    `json:"shape"`
	Bytes  *string  `json:"bytes"`
	Text   []string `json:"text"`
	Object bool     `json:"object"`
}

// numpyRead reads every file with one run of NumPy.
func numpyRead(t *testing.T, paths []string) map[string]map[string]numpyArray {
	t.Helper()
	cmd := exec.Command(pyref.NumPy(t), append([]string{"-c", numpyReference}, paths...)...)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("NumPy reading the samples: %v", err)
	}
	var m map[string]map[string]numpyArray
	if err := json.Unmarshal(out, &m); err != nil {
		t.Fatalf("NumPy output: %v", err)
	}
	return m
}

func sampleFiles(t *testing.T) []string {
	dir := samples.Dir(t, "npy")
	var files []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".npy") || strings.HasSuffix(p, ".npz")) {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 40 {
		t.Fatalf("found only %d sample files in %s", len(files), dir)
	}
	return files
}

// rowMajorBytes returns a tensor's elements as stored, in row-major order.
func rowMajorBytes(t *testing.T, x *tensor.Tensor) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := formats.TensorChunks(x, func(c []byte) error { buf.Write(c); return nil }); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestValuesMatchNumPy opens every sample and checks every array, field
// and string against what NumPy itself reads from the same file.
func TestValuesMatchNumPy(t *testing.T) {
	pyref.NumPy(t)
	checked := 0
	files := sampleFiles(t)
	refs := numpyRead(t, files)
	for _, path := range files {
		t.Run(filepath.Base(filepath.Dir(path))+"/"+filepath.Base(path), func(t *testing.T) {
			doc, err := formats.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer doc.Close()
			ref := refs[path]
			if len(ref) == 0 {
				t.Fatalf("NumPy read no arrays from %s", path)
			}
			for name, want := range ref {
				e := doc.Tensor(name)
				if e == nil {
					t.Errorf("%s: NumPy reads array %q, which is not listed", path, name)
					continue
				}
				switch {
				case want.Object:
					if e.HasData() || e.Note != "pickled Python objects: not loaded" {
						t.Errorf("%s: object array listed with data or note %q", name, e.Note)
					}
				case want.Bytes != nil:
					x, err := e.Load(context.Background())
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					if !equalInts(x.Shape(), want.Shape) {
						t.Errorf("%s: shape %v, NumPy %v", name, x.Shape(), want.Shape)
					}
					wantBytes, _ := base64.StdEncoding.DecodeString(*want.Bytes)
					if got := rowMajorBytes(t, x); !bytes.Equal(got, wantBytes) {
						t.Errorf("%s: %s values differ from NumPy's", name, x)
					}
					checked++
				case want.Text != nil:
					for i, w := range want.Text {
						got, err := e.TextAt(i)
						if err != nil || got != w {
							t.Errorf("%s[%d]: text %q (%v), NumPy %q", name, i, got, err, w)
						}
					}
					checked++
				}
			}
		})
	}
	if checked < 60 {
		t.Errorf("only %d arrays compared with NumPy", checked)
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
