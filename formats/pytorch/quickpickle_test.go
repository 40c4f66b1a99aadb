package pytorch

import (
	"archive/zip"
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tensorscope/formats"
	"tensorscope/internal/samples"
)

// archiveZipPickle is where archive/zip finds data.pkl: the reading
// quickPickle's must agree with.
func archiveZipPickle(t *testing.T, b []byte) (folder string, at, size int64, stored bool) {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	folder, err = archiveFolder(zr)
	if err != nil {
		t.Fatal(err)
	}
	f := findFile(zr.File, folder+"/data.pkl")
	at, err = f.DataOffset()
	if err != nil {
		t.Fatal(err)
	}
	return folder, at, int64(f.UncompressedSize64), f.Method == zip.Store
}

// TestQuickPickleAgreesWithArchiveZip: on every sample checkpoint in
// torch's zip format, data.pkl found from the central directory alone is
// where archive/zip finds it; torch's own files take the quick way.
func TestQuickPickleAgreesWithArchiveZip(t *testing.T) {
	quick := 0
	filepath.WalkDir(samples.Dir(t, "pytorch"), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil || !sniffZip(b) {
			return nil
		}
		folder, at, size, ok := quickPickle(b)
		wantFolder, wantAt, wantSize, stored := archiveZipPickle(t, b)
		switch {
		case ok && (folder != wantFolder || at != wantAt || size != wantSize || !stored):
			t.Errorf("%s: quickPickle %q at %d, %d bytes; archive/zip %q at %d, %d bytes (stored %v)", path, folder, at, size, wantFolder, wantAt, wantSize, stored)
		case ok:
			quick++
		case stored && filepath.Base(filepath.Dir(path)) == "generated-torch-1.13":
			t.Errorf("%s: torch's stored data.pkl was not found the quick way", path)
		}
		return nil
	})
	if quick == 0 {
		t.Error("no sample took the quick way")
	}
}

// A checkpoint with a deflated data.pkl is not read the quick way, and
// opens the same; nor is an archive with bytes before it (archive/zip
// reads one, shifting every offset; torch's sniffing refuses it anyway).
func TestQuickPickleDeclines(t *testing.T) {
	pickle := new(pk).proto(2).op(opEmptyDict).str("epoch").int(3).op(opSetItem).stop()
	plain := zipFile(t, zipMember{name: "archive/data.pkl", data: pickle}, zipMember{name: "archive/version", data: []byte("3\n")})
	deflated := zipFile(t, zipMember{name: "archive/data.pkl", data: pickle, deflate: true}, zipMember{name: "archive/version", data: []byte("3\n")})
	prefixed := append([]byte("#!/bin/sh\nexit 0\n"), plain...)
	if _, _, _, ok := quickPickle(plain); !ok {
		t.Error("a stored data.pkl was not found the quick way")
	}
	if _, _, _, ok := quickPickle(prefixed); ok {
		t.Error("prefixed: taken the quick way")
	}
	for name, b := range map[string][]byte{"deflated": deflated} {
		if _, _, _, ok := quickPickle(b); ok {
			t.Errorf("%s: taken the quick way", name)
		}
		doc, err := formats.OpenBytes(name+".pt", b)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if got := metaText(doc.Metadata); !strings.Contains(got, "epoch") {
			t.Errorf("%s: the object reads %s", name, got)
		}
		doc.Close()
	}
}
