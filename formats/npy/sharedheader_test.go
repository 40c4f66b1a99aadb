package npy

import (
	"archive/zip"
	"bytes"
	"strconv"
	"testing"
	"unsafe"

	"tensorscope/formats"
)

// Members past the Header pane's first ones share one parsed header when
// their header bytes are the same; those the pane lists keep their text.
func TestMembersShareHeaders(t *testing.T) {
	h, err := Header("<f4", []int{2})
	if err != nil {
		t.Fatal(err)
	}
	body := append(h, make([]byte, 8)...)
	var zbuf bytes.Buffer
	zw := zip.NewWriter(&zbuf)
	n := maxHeaderFields + 10
	for i := range n {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: "m" + strconv.Itoa(i) + ".npy", Method: uint16(i%2) * zip.Deflate})
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
	if len(doc.Tensors) != n || len(doc.Header) != maxHeaderFields {
		t.Fatalf("%d tensors, %d header fields", len(doc.Tensors), len(doc.Header))
	}
	// An array's entry is its first field.
	arr := func(i int) *array { return (*array)(unsafe.Pointer(doc.Tensors[i])) }
	if arr(0).h.dict == "" || arr(0).h == arr(1).h {
		t.Error("a member the Header pane lists has no header text of its own")
	}
	last, before := arr(n-1), arr(n-3)
	if last.h != before.h || last.h.dict != "" {
		t.Error("later members do not share their header")
	}
	for _, i := range []int{0, n - 1} {
		x, err := doc.Tensors[i].Load(t.Context())
		if err != nil || x.Shape()[0] != 2 {
			t.Fatalf("member %d: %v", i, err)
		}
	}
}
