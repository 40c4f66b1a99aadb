package npy_test

import (
	"archive/zip"
	"bytes"
	"reflect"
	"strings"
	"testing"

	"tensorscope/formats"
)

// An archive's arrays describe their layout and member on demand
// (formats.AttrSource), the same facts the archive listed eagerly before.
func TestMemberAttributes(t *testing.T) {
	body := npyBytes("{'descr': '>i2', 'fortran_order': True, 'shape': (2, 2), }", make([]byte, 8))
	var zbuf bytes.Buffer
	zw := zip.NewWriter(&zbuf)
	for _, m := range []struct {
		name   string
		method uint16
	}{{"s.npy", zip.Store}, {"d.npy", zip.Deflate}} {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: m.name, Method: m.method})
		if err != nil {
			t.Fatal(err)
		}
		w.Write(body)
	}
	zw.Close()
	doc, err := formats.OpenBytes("a.npz", zbuf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	defer doc.Close()
	layout := []formats.Attr{{Name: "descr", Value: ">i2"}, {Name: "order", Value: "Fortran"}, {Name: "byte order", Value: "big-endian"}}
	s := doc.Tensor("s")
	if want := append(layout[:3:3], formats.Attr{Name: "member", Value: "s.npy"}, formats.Attr{Name: "compression", Value: "stored"}); !reflect.DeepEqual(s.Attributes(), want) {
		t.Errorf("stored member: %v", s.Attributes())
	}
	d := doc.Tensor("d")
	got := d.Attributes()
	if len(got) != 7 || !reflect.DeepEqual(got[:5], append(layout[:3:3], formats.Attr{Name: "member", Value: "d.npy"}, formats.Attr{Name: "compression", Value: "deflate"})) ||
		got[5].Name != "compressed bytes" || got[5].Value != d.NBytes || got[6] != (formats.Attr{Name: "inflated bytes", Value: int64(len(body))}) {
		t.Errorf("deflated member: %v", got)
	}
	if len(s.Attrs) != 0 || len(d.Attrs) != 0 {
		t.Errorf("attributes kept in the entries: %v, %v", s.Attrs, d.Attrs)
	}
	js, err := doc.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(js), `"member":"d.npy","compression":"deflate"`) {
		t.Errorf("JSON lacks the member's attributes: %s", js)
	}
}

// A member whose local header is broken is left out with a warning at the
// header's byte; the others are listed.
func TestBrokenLocalHeader(t *testing.T) {
	var zbuf bytes.Buffer
	zw := zip.NewWriter(&zbuf)
	for _, name := range []string{"a.npy", "b.npy"} {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Store})
		if err != nil {
			t.Fatal(err)
		}
		w.Write(npyBytes("{'descr': '|u1', 'fortran_order': False, 'shape': (1,), }", []byte{7}))
	}
	zw.Close()
	b := zbuf.Bytes()
	second := bytes.Index(b[4:], []byte("PK\x03\x04")) + 4
	b[second+2] = 'X'
	doc, err := formats.OpenBytes("a.npz", b)
	if err != nil {
		t.Fatal(err)
	}
	defer doc.Close()
	if len(doc.Tensors) != 1 || doc.Tensors[0].Name != "a" {
		t.Fatalf("tensors %v", doc.Tensors)
	}
	if len(doc.Warnings) != 1 || doc.Warnings[0].Offset != int64(second) ||
		doc.Warnings[0].Message != `member "b.npy": zip: local header: expected the signature PK\x03\x04, found "PKX\x04"` {
		t.Errorf("warnings %v (local header at %d)", doc.Warnings, second)
	}
}
