package viewmodel

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"testing"

	"tensorscope/formats"
	"tensorscope/tensor"
)

func listFixture() []*formats.TensorEntry {
	return []*formats.TensorEntry{
		{Name: "layer10.weight", DType: tensor.Float32, Shape: []int{10, 128}, Role: formats.RoleWeight, Offset: 100},
		{Name: "layer2.weight", DType: tensor.Float32, Shape: []int{128, 784}, Role: formats.RoleWeight, Offset: 200},
		{Name: "input", DType: tensor.Uint8, Shape: []int{1, 28, 28}, Role: formats.RoleInput, Offset: -1},
		{Name: "layer2.bias", DType: tensor.Float16, Shape: []int{128}, Role: formats.RoleWeight, Offset: 300},
	}
}

func names(l *TensorList) []string {
	var out []string
	for r := 0; r < l.Len(); r++ {
		out = append(out, l.Entry(r).Name)
	}
	return out
}

func TestTensorListFilterAndSort(t *testing.T) {
	l := NewTensorList(listFixture())
	if got := names(l); !reflect.DeepEqual(got, []string{"layer10.weight", "layer2.weight", "input", "layer2.bias"}) {
		t.Fatalf("file order: %v", got)
	}
	l.SortBy(ColName)
	if got := names(l); !reflect.DeepEqual(got, []string{"input", "layer2.bias", "layer2.weight", "layer10.weight"}) {
		t.Errorf("natural name order: %v", got)
	}
	l.SortBy(ColName)
	if got := names(l); got[0] != "layer10.weight" {
		t.Errorf("descending: %v", got)
	}
	l.SortBy(ColName) // third time: file order again
	if _, _, ok := l.Sort(); ok || names(l)[0] != "layer10.weight" || names(l)[3] != "layer2.bias" {
		t.Errorf("third click should restore file order: %v", names(l))
	}
	l.SortBy(ColShape) // by element count
	if got := names(l); !reflect.DeepEqual(got, []string{"layer2.bias", "input", "layer10.weight", "layer2.weight"}) {
		t.Errorf("by elements: %v", got)
	}
	l.SetFilter("Weight FLOAT32")
	if got := names(l); !reflect.DeepEqual(got, []string{"layer10.weight", "layer2.weight"}) {
		t.Errorf("filter keeps sort and matches all words case-insensitively: %v", got)
	}
	if l.RowOf(2) != -1 || l.Index(0) != 0 {
		t.Errorf("RowOf/Index wrong")
	}
	l.SetFilter("128")
	if l.Len() != 3 {
		t.Errorf("shape filter: %v", names(l))
	}
	l.SetEntries(listFixture()[:1])
	if l.Len() != 1 || l.Filter() != "128" {
		t.Errorf("SetEntries must keep the filter: %v", names(l))
	}
}

func TestTensorListCells(t *testing.T) {
	e := listFixture()
	e[0].SetLoader(nil)
	l := NewTensorList(e)
	if got := l.Cell(0, ColShape); got != "[10, 128]" {
		t.Errorf("shape cell %q", got)
	}
	if got := l.Cell(0, ColSize); got != "no data" {
		t.Errorf("size cell without data %q", got)
	}
	e[0].Quant = &formats.Quant{Scales: []float64{0.5}}
	if got := l.Cell(0, ColDType); got != "float32 (quantised)" {
		t.Errorf("dtype cell %q", got)
	}
}

func TestNaturalLess(t *testing.T) {
	cases := []struct {
		a, b string
		want bool
	}{
		{"layer2", "layer10", true}, {"layer10", "layer2", false}, {"a", "b", true},
		{"x01", "x1", false}, {"conv", "conv1", true}, {"", "a", true}, {"a", "a", false},
	}
	for _, c := range cases {
		if got := naturalLess(c.a, c.b); got != c.want {
			t.Errorf("naturalLess(%q,%q)=%v", c.a, c.b, got)
		}
	}
}

func TestDistinctCellsAreWhatAColumnMustFit(t *testing.T) {
	var entries []*formats.TensorEntry
	for i := range 1000 {
		dt, role := tensor.Float32, formats.RoleWeight
		if i%3 == 0 {
			dt, role = tensor.Float8E4M3FNUZ, formats.RoleDerived
		}
		entries = append(entries, &formats.TensorEntry{Name: fmt.Sprint(i), DType: dt, Shape: []int{2}, Role: role})
	}
	l := NewTensorList(entries)
	if got := l.DistinctCells(ColDType, 64); !slices.Equal(got, []string{"float8_e4m3fnuz", "float32"}) {
		t.Errorf("dtypes %q", got)
	}
	if got := l.DistinctCells(ColRole, 1); len(got) != 1 {
		t.Errorf("limit 1 gave %q", got)
	}
}

// TestOpeningRowIsTheFirstLargestWeight: a list opens on its largest
// weight of two or more dimensions (the first of equals), falls back to the
// first tensor with data, and follows the filter and sort.
func TestOpeningRowIsTheFirstLargestWeight(t *testing.T) {
	withData := func(es []*formats.TensorEntry) []*formats.TensorEntry {
		for _, e := range es {
			if e.Offset >= 0 {
				e.SetLoader(func(context.Context) (*tensor.Tensor, error) { return nil, nil })
			}
		}
		return es
	}
	entries := withData(append(listFixture(),
		&formats.TensorEntry{Name: "huge.bias", DType: tensor.Float32, Shape: []int{1 << 20}, Role: formats.RoleWeight, Offset: 400},
		&formats.TensorEntry{Name: "twin.weight", DType: tensor.Float32, Shape: []int{784, 128}, Role: formats.RoleWeight, Offset: 500}))
	l := NewTensorList(entries)
	if got := l.Entry(l.OpeningRow()).Name; got != "layer2.weight" {
		t.Errorf("opens on %q, want the first of the largest 2-D weights, layer2.weight", got)
	}
	l.SortBy(ColName)
	l.SortBy(ColName) // descending: twin.weight comes first
	if got := l.Entry(l.OpeningRow()).Name; got != "twin.weight" {
		t.Errorf("sorted by name descending, opens on %q, want twin.weight", got)
	}
	l.SetFilter("bias")
	if got := l.Entry(l.OpeningRow()).Name; got != "layer2.bias" && got != "huge.bias" {
		t.Errorf("with no 2-D weight shown, opens on %q, want the first tensor with data", got)
	}
	l.SortBy(ColName) // back to file order
	if got := l.Entry(l.OpeningRow()).Name; got != "layer2.bias" {
		t.Errorf("with no 2-D weight shown, opens on %q, want the first tensor with data, layer2.bias", got)
	}
	l.SetFilter("input") // no data in the file
	if got := l.OpeningRow(); got != -1 {
		t.Errorf("a list with no data opens on row %d, want -1", got)
	}
	data := withData([]*formats.TensorEntry{
		{Name: "labels", DType: tensor.Int32, Shape: []int{100}, Role: formats.RoleData},
		{Name: "images", DType: tensor.Uint8, Shape: []int{100, 28, 28}, Role: formats.RoleData},
	})
	if got := NewTensorList(data).OpeningRow(); got != 0 {
		t.Errorf("a file without weights opens on row %d, want the first, 0", got)
	}
}

func TestLongestCellsAreWhatAColumnMustFit(t *testing.T) {
	l := NewTensorList(listFixture())
	if got := l.LongestCells(ColShape, 2); !reflect.DeepEqual(got, []string{"[1, 28, 28]", "[128, 784]"}) {
		t.Errorf("longest shapes %q", got)
	}
	if got := l.LongestCells(ColName, 1); !reflect.DeepEqual(got, []string{"layer10.weight"}) {
		t.Errorf("longest name %q", got)
	}
}
