package formats

import (
	"reflect"
	"strings"
	"testing"
)

type countingAttrs struct{ calls int }

func (c *countingAttrs) AppendAttrs(dst []Attr) []Attr {
	c.calls++
	return append(dst, Attr{Name: "computed", Value: int64(c.calls)})
}

// Attributes are Attrs followed by the source's, computed on each call;
// the caller's buffer is never one of the entry's slices.
func TestAttributesFromSource(t *testing.T) {
	e := &TensorEntry{Name: "x", Attrs: []Attr{{Name: "kept", Value: "yes"}}}
	if got := e.Attributes(); !reflect.DeepEqual(got, e.Attrs) {
		t.Fatalf("without a source: %v", got)
	}
	src := &countingAttrs{}
	e.SetAttrSource(src)
	want := []Attr{{Name: "kept", Value: "yes"}, {Name: "computed", Value: int64(1)}}
	if got := e.Attributes(); !reflect.DeepEqual(got, want) {
		t.Fatalf("with a source: %v", got)
	}
	buf := e.AppendAttributes(make([]Attr, 0, 1))
	buf = e.AppendAttributes(buf[:0])
	if len(buf) != 2 || buf[1].Value != int64(3) || len(e.Attrs) != 1 || e.Attrs[0].Name != "kept" {
		t.Fatalf("reused buffer %v, Attrs %v", buf, e.Attrs)
	}
	b, _, err := appendTensorJSON(nil, e, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := `"attrs":{"kept":"yes","computed":4}`; !strings.Contains(string(b), want) {
		t.Fatalf("JSON %s lacks %s", b, want)
	}
}
