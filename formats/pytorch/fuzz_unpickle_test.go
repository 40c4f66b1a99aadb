package pytorch

import (
	"archive/zip"
	"bytes"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tensorscope/internal/samples"
)

// seedPickles adds the pickles of the real checkpoints: each zip sample's
// .pkl members, and each legacy sample whole (a run of pickles).
func seedPickles(f *testing.F) {
	var files []string
	filepath.WalkDir(samples.Dir(f, "pytorch"), func(p string, e fs.DirEntry, err error) error {
		if err == nil && !e.IsDir() {
			files = append(files, p)
		}
		return nil
	})
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil || len(b) > 4<<20 {
			continue
		}
		zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			if sniffLegacy(b) {
				f.Add(b)
			}
			continue
		}
		for _, m := range zr.File {
			if !strings.HasSuffix(m.Name, ".pkl") {
				continue
			}
			if r, err := m.Open(); err == nil {
				if pkl, err := io.ReadAll(io.LimitReader(r, 4<<20)); err == nil {
					f.Add(pkl)
				}
				r.Close()
			}
		}
	}
}

// FuzzUnpickle runs the unpickler alone over any bytes, then the walks
// that name tensors and build the metadata tree: no input may panic,
// hang, or grow without bound. Persistent ids resolve to a storage of a
// thousand float32 elements.
func FuzzUnpickle(f *testing.F) {
	f.Add(new(pk).proto(2).dict1("w", func(p *pk) { p.tensor("FloatStorage", "0", 8, 0, []int64{2, 4}, []int64{4, 1}) }).stop())
	f.Add(new(pk).proto(2).global("os", "system").op(opMark).str("true").op(opTuple, opReduce).stop())
	f.Add(new(pk).proto(2).op(opEmptyList, opBinPut, 0, opBinGet, 0, opAppend).stop())
	f.Add([]byte("(dp0\nVa\np1\nL12L\nsS'x\\n'\np2\n(I01\nF1.5\ntp3\ns."))
	f.Add(new(pk).proto(4).str("numpy.core.multiarray").str("scalar").op(opStackGlobal).
		global("numpy", "dtype").op(opMark).str("f8").op(opNewFalse, opNewTrue, opTuple, opReduce).
		op(opMark).int(3).str("<").op(opNone, opNone, opNone).int(-1).int(-1).int(0).op(opTuple, opBuild).
		op(opShortBinBytes, 8, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f).op(opTuple2, opReduce).stop())
	seedPickles(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		u := newUnpickler(b, 0)
		storage := &blob{key: "0", at: 0, size: 4000}
		u.persistent = func(pid any, at int64) (any, error) {
			return &pyStorage{key: "0", elem: storageTypes["FloatStorage"], numel: 1000, at: at, blob: storage}, nil
		}
		v, err := u.load()
		if err != nil {
			return
		}
		c := &checkpoint{size: int64(len(b)), blobs: map[string]*blob{"0": storage}}
		for _, nt := range nameTensors(c, v) {
			(&builder{c: c}).check(nt.t)
		}
		metaOf("object", v, newMetaBuilder(int64(len(b))), 0).MarshalJSON()
	})
}
