package pytorch

import (
	"archive/zip"
	"bytes"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"tensorscope/formats"
	"tensorscope/formats/internal/zipfile"
	"tensorscope/internal/samples"
)

// archiveZipPickle is where archive/zip finds the first <folder>/data.pkl.
func archiveZipPickle(t *testing.T, b []byte) (folder string, at, size int64) {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range zr.File {
		dir, base := path.Split(f.Name)
		if base == "data.pkl" && strings.Count(dir, "/") == 1 && cleanName(f.Name) {
			at, err := f.DataOffset()
			if err != nil {
				t.Fatal(err)
			}
			return strings.TrimSuffix(dir, "/"), at, int64(f.UncompressedSize64)
		}
	}
	t.Fatal("archive/zip finds no data.pkl")
	return
}

// TestArchiveFolderAgreesWithArchiveZip: on every sample checkpoint in
// torch's zip format, the archive folder and data.pkl found from the
// shared directory reader are where archive/zip finds them.
func TestArchiveFolderAgreesWithArchiveZip(t *testing.T) {
	checked := 0
	filepath.WalkDir(samples.Dir(t, "pytorch"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil || !sniffZip(b) {
			return nil
		}
		dir, err := zipfile.Read(b)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		var list []zipfile.Member
		dir.Each(func(m *zipfile.Member) { list = append(list, *m) })
		folder, pickle, err := archiveFolder(list)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		at, err := dir.DataOffset(pickle)
		wantFolder, wantAt, wantSize := archiveZipPickle(t, b)
		if err != nil || folder != wantFolder || at != wantAt || int64(pickle.UncompressedSize) != wantSize {
			t.Errorf("%s: %q at %d, %d bytes (%v); archive/zip %q at %d, %d bytes", p, folder, at, pickle.UncompressedSize, err, wantFolder, wantAt, wantSize)
		}
		checked++
		return nil
	})
	if checked == 0 {
		t.Error("no sample in torch's zip format")
	}
}

// A checkpoint with a deflated data.pkl opens as a stored one; one with
// bytes before the archive is refused, as torch refuses it.
func TestPickleDeflatedOrPrefixed(t *testing.T) {
	pickle := new(pk).proto(2).op(opEmptyDict).str("epoch").int(3).op(opSetItem).stop()
	plain := zipFile(t, zipMember{name: "archive/data.pkl", data: pickle}, zipMember{name: "archive/version", data: []byte("3\n")})
	deflated := zipFile(t, zipMember{name: "archive/data.pkl", data: pickle, deflate: true}, zipMember{name: "archive/version", data: []byte("3\n")})
	prefixed := append([]byte("#!/bin/sh\nexit 0\n"), plain...)
	if _, err := formats.DecodeAs("pytorch", "prefixed.pt", prefixed); err == nil || !strings.Contains(err.Error(), "neither a zip archive") {
		t.Errorf("prefixed: %v", err)
	}
	for name, b := range map[string][]byte{"plain": plain, "deflated": deflated} {
		doc, err := formats.DecodeAs("pytorch", name+".pt", b)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if got := metaText(doc.Metadata); !strings.Contains(got, "epoch") {
			t.Errorf("%s: the object reads %s", name, got)
		}
		if doc.Version != "3" {
			t.Errorf("%s: version %q", name, doc.Version)
		}
		doc.Close()
	}
}
