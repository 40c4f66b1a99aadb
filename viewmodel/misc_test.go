package viewmodel

import (
	"errors"
	"math"
	"os"
	"reflect"
	"strings"
	"testing"

	"tensorscope/formats"
)

func TestRecent(t *testing.T) {
	r := NewRecent(MemPrefs{})
	for _, p := range []string{"/a", "/b", "/a", "/c"} {
		r.Add(p)
	}
	if got := r.List(); !reflect.DeepEqual(got, []string{"/c", "/a", "/b"}) {
		t.Errorf("recent %v", got)
	}
	for i := 0; i < 20; i++ {
		r.Add("/f" + string(rune('a'+i)))
	}
	if len(r.List()) != MaxRecent {
		t.Errorf("kept %d", len(r.List()))
	}
	r.Remove("/fa")
	r.Clear()
	if len(r.List()) != 0 {
		t.Errorf("clear")
	}
}

func TestMetaTree(t *testing.T) {
	root := formats.NewObject("",
		formats.Leaf("device", "cpu"),
		formats.NewObject("training", formats.NewList("stages", formats.NewObject("0", formats.Leaf("epochs", int64(3))))))
	mt := NewMetaTree(root)
	if got := mt.Children(""); !reflect.DeepEqual(got, []string{"0", "1"}) {
		t.Fatalf("children %v", got)
	}
	if mt.IsBranch("0") || !mt.IsBranch("1") {
		t.Errorf("IsBranch wrong")
	}
	if got := mt.Label("0"); got != `device: "cpu"` {
		t.Errorf("leaf label %q", got)
	}
	if got := mt.Label("1/0"); got != "stages [1]" {
		t.Errorf("list label %q", got)
	}
	if got := mt.Path("1/0/0/0"); got != "training.stages[0].epochs" {
		t.Errorf("path %q", got)
	}
	if got := mt.CopyText("0"); got != "cpu" {
		t.Errorf("copy leaf %q", got)
	}
	if got := mt.CopyText("1"); !strings.Contains(got, `"epochs": 3`) {
		t.Errorf("copy subtree %q", got)
	}
	if mt.Node("9/9") != nil || mt.Node("x") != nil {
		t.Errorf("bad ids must give nil")
	}
}

func TestOpenErrorNamesFileOnce(t *testing.T) {
	fe := formats.Errorf(16, "dtype: expected 1, 2 or 3, found 9")
	fe.Path = "/tmp/m.tsr"
	if got := OpenError("/tmp/m.tsr", fe).Error(); got != "Could not open m.tsr: at byte 16: dtype: expected 1, 2 or 3, found 9" {
		t.Errorf("%q", got)
	}
	if got := OpenError("/tmp/m.bin", errors.New("/tmp/m.bin: unknown format: not one of A, B")).Error(); got != "Could not open m.bin: unknown format: not one of A, B" {
		t.Errorf("%q", got)
	}
	if !errors.Is(OpenError("x", os.ErrNotExist), os.ErrNotExist) {
		t.Errorf("must unwrap")
	}
}

func TestColormaps(t *testing.T) {
	v := Colormaps[0]
	if v.At(0) != viridisAnchors[0] || v.At(1) != viridisAnchors[10] {
		t.Errorf("viridis ends %v %v", v.At(0), v.At(1))
	}
	cw := ColormapByName("coolwarm (diverging)")
	if !cw.Diverging {
		t.Fatal("coolwarm must be diverging")
	}
	// Zero sits in the middle even for an asymmetric range.
	if p := cw.Position(0, -1, 4); p != 0.5 {
		t.Errorf("diverging centre %g", p)
	}
	if p := cw.Position(-1, -1, 4); p != 0 {
		t.Errorf("diverging low %g", p)
	}
	if c := v.Color(math.NaN(), 0, 1); c != v.NaN {
		t.Errorf("NaN colour")
	}
	if c := v.Color(math.Inf(-1), 0, 1); c != v.NegInf {
		t.Errorf("-Inf colour")
	}
	for _, c := range Colormaps {
		for i := 0; i < 256; i++ {
			if c.lut[i] == c.NaN || c.lut[i] == c.PosInf || c.lut[i] == c.NegInf {
				t.Errorf("%s: special colour inside the map at %d", c.Name, i)
			}
		}
	}
}
