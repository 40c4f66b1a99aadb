package tmfile_test

import (
	"reflect"
	"testing"

	"tensorscope/formats"
	"tensorscope/formats/tmfile"
)

// opAttrs gives every param field of op a distinct value of its kind.
func opAttrs(t *testing.T, id uint32) []formats.Attr {
	t.Helper()
	op, err := tmfile.NewOperator(tmfile.OpName(id))
	if err != nil {
		t.Fatal(err)
	}
	var out []formats.Attr
	for i, a := range op.Attrs() {
		var v any
		switch a.Value.(type) {
		case int64:
			v = int64(i*7 - 3)
		case formats.Enum:
			v = int64(i + 1)
		case float64:
			v = float64(i) + 0.25
		case bool:
			v = i%2 == 0
		case nil:
			// An offset field: its kind shows once set, so try each.
			for _, try := range []any{[]int64{int64(i), -1, 7}, []float64{1.5, -2, float64(i), 0.5}, "opname-" + a.Name} {
				probe, err := tmfile.NewOperator(tmfile.OpName(id), formats.Attr{Name: a.Name, Value: try})
				if err == nil && len(probe.Refs) == 1 {
					v = try
					if probe.Refs[0].Kind == tmfile.RefAnchors {
						v = []float64{0, 0, 15, 15, -8, -8, 23, 23}
					}
					break
				}
			}
		default:
			t.Fatalf("%s.%s has an unexpected zero value %T", tmfile.OpName(id), a.Name, a.Value)
		}
		out = append(out, formats.Attr{Name: a.Name, Value: v})
	}
	return out
}

// everyOpModel has one node of every operator op-params.tsv defines, each
// with every param field set.
func everyOpModel(t *testing.T) *tmfile.Model {
	b := tmfile.NewBuilder(3, "every operator")
	x := b.Input("x", []int32{1, 2, 3, 4})
	for id := uint32(0); id < tmfile.NumOps; id++ {
		name := tmfile.OpName(id)
		if _, ok := tmfile.OpID(name); !ok || name == "InputOp" {
			continue
		}
		if name == "Const" {
			b.Const("const", []int32{2, 2}, []float32{1, 2, 3, 4})
			continue
		}
		x = b.Op("node_"+name, name, opAttrs(t, id), []int32{1, 2, 3, 4}, x)
	}
	b.Output(x)
	m, err := b.Model()
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestOperatorTable(t *testing.T) {
	named := 0
	for id := uint32(0); id < tmfile.NumOps; id++ {
		name := tmfile.OpName(id)
		back, ok := tmfile.OpID(name)
		if !ok {
			if id != 104 {
				t.Errorf("op id %d has no name", id)
			}
			continue
		}
		named++
		if back != id {
			t.Errorf("OpID(%q) = %d, want %d", name, back, id)
		}
	}
	if named != 107 || tmfile.NumOps != 108 {
		t.Errorf("%d named operators of %d ids, want 107 of 108", named, tmfile.NumOps)
	}
	if got := tmfile.OpName(104); got != "Unknown(104)" {
		t.Errorf("OpName(104) = %q", got)
	}
}

// TestParamsEncodeDecode sets every field of every operator through the
// table and reads it back through the same table.
func TestParamsEncodeDecode(t *testing.T) {
	for id := uint32(0); id < tmfile.NumOps; id++ {
		name := tmfile.OpName(id)
		if _, ok := tmfile.OpID(name); !ok {
			continue
		}
		want := opAttrs(t, id)
		op, err := tmfile.NewOperator(name, want...)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got := op.Attrs()
		if len(got) != len(want) {
			t.Fatalf("%s: %d attrs back, want %d", name, len(got), len(want))
		}
		for i := range want {
			g, w := got[i].Value, want[i].Value
			if e, ok := g.(formats.Enum); ok {
				g = e.Value
			}
			if g == nil && w == nil {
				continue
			}
			if !reflect.DeepEqual(g, w) {
				t.Errorf("%s.%s = %#v, want %#v", name, want[i].Name, g, w)
			}
		}
	}
	if _, err := tmfile.NewOperator("Convolution", formats.Attr{Name: "no_such", Value: 1}); err == nil {
		t.Error("unknown param accepted")
	}
	if _, err := tmfile.NewOperator("Convolution", formats.Attr{Name: "kernel_h", Value: "3"}); err == nil {
		t.Error("string for an int32 param accepted")
	}
	if _, err := tmfile.NewOperator("NoSuchOp"); err == nil {
		t.Error("unknown operator accepted")
	}
}

// A param shorter than the newest layout decodes only the fields it holds.
func TestShortParamDecodesFittingFields(t *testing.T) {
	op, err := tmfile.NewOperator("Eltwise", formats.Attr{Name: "type", Value: 2}, formats.Attr{Name: "caffe_flavor", Value: 1},
		formats.Attr{Name: "scale", Value: 3.0})
	if err != nil {
		t.Fatal(err)
	}
	op.Param = op.Param[:8]
	got := op.Attrs()
	if len(got) != 2 || got[0].Value != (formats.Enum{Value: 2, Name: "SUM"}) || got[1].Value != int64(1) {
		t.Errorf("8-byte Eltwise param: %+v", got)
	}
	long, _ := tmfile.NewOperator("Softmax", formats.Attr{Name: "axis", Value: 1})
	long.Param = append(long.Param, 9, 0, 0, 0)
	got = long.Attrs()
	if len(got) != 2 || got[1].Name != "extra" || !reflect.DeepEqual(got[1].Value, formats.Bytes{9, 0, 0, 0}) {
		t.Errorf("Softmax param with 4 extra bytes: %+v", got)
	}
}

func TestEveryOpModelSetsEveryField(t *testing.T) {
	m := everyOpModel(t)
	refs := map[tmfile.RefKind]int{}
	for _, n := range m.Nodes {
		for _, a := range n.Op.Attrs() {
			if a.Value == nil {
				t.Errorf("%s.%s is not set", tmfile.OpName(n.Op.Type), a.Name)
			}
		}
		for _, r := range n.Op.Refs {
			refs[r.Kind]++
		}
	}
	if refs[tmfile.RefDims] == 0 || refs[tmfile.RefFloats] == 0 || refs[tmfile.RefAnchors] != 1 || refs[tmfile.RefString] != 1 {
		t.Errorf("references by kind: %v", refs)
	}
}
