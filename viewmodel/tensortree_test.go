package viewmodel

import (
	"context"
	"errors"
	"strings"
	"testing"

	"tensorscope/formats"
	"tensorscope/tensor"
)

func treeEntries() []*formats.TensorEntry {
	var out []*formats.TensorEntry
	add := func(name string, dt tensor.DType, shape ...int) {
		n := int64(1)
		for _, d := range shape {
			n *= int64(d)
		}
		nb, _ := tensor.StorageBytes(dt, n)
		e := &formats.TensorEntry{Name: name, DType: dt, Shape: shape, NBytes: nb, Role: formats.RoleWeight}
		e.SetLoader(func(context.Context) (*tensor.Tensor, error) { return nil, errors.New("not loaded in this test") })
		out = append(out, e)
	}
	add("token_embd.weight", tensor.GGMLQ4_K, 512, 256)
	for _, b := range []string{"0", "1"} {
		add("blk."+b+".attn_q.weight", tensor.GGMLQ4_K, 256, 256)
		add("blk."+b+".attn_q.bias", tensor.Float32, 256)
		add("blk."+b+".ffn_up.weight", tensor.GGMLQ6_K, 768, 256)
	}
	add("output_norm.weight", tensor.Float32, 256)
	return out
}

func rowsText(l *TensorList) string {
	var b strings.Builder
	for r := 0; r < l.Len(); r++ {
		b.WriteString(l.Cell(r, ColName) + " | " + l.Cell(r, ColDType) + " | " + l.Cell(r, ColShape) + " | " + l.Cell(r, ColSize) + "\n")
	}
	return b.String()
}

func TestTensorTree(t *testing.T) {
	l := NewTensorList(treeEntries())
	l.SetGrouped(true)
	got := rowsText(l)
	want := `▾ blk (6) | group | 525K params | 389.0 KiB
   ▾ 0 (3) | group | 262K params | 194.5 KiB
      ▾ attn_q (2) | group | 65.8K params | 37.0 KiB
            weight | q4_k | [256, 256] | 36.0 KiB
            bias | float32 | [256] | 1.00 KiB
         ffn_up.weight | q6_k | [768, 256] | 157.5 KiB
   ▾ 1 (3) | group | 262K params | 194.5 KiB
      ▾ attn_q (2) | group | 65.8K params | 37.0 KiB
            weight | q4_k | [256, 256] | 36.0 KiB
            bias | float32 | [256] | 1.00 KiB
         ffn_up.weight | q6_k | [768, 256] | 157.5 KiB
   token_embd.weight | q4_k | [512, 256] | 72.0 KiB
   output_norm.weight | float32 | [256] | 1.00 KiB
`
	if got != want {
		t.Errorf("tree:\n%s\nwant:\n%s", got, want)
	}
	if l.Len() != 13 || !l.IsGroup(0) || l.Index(0) != -1 || l.Entry(0) != nil {
		t.Fatalf("rows: %d\n%s", l.Len(), got)
	}
	// Collapse blk.0: its five rows go.
	if l.Cell(1, ColName) != "   ▾ 0 (3)" {
		t.Fatalf("row 1 %q", l.Cell(1, ColName))
	}
	l.ToggleGroup(1)
	if l.Len() != 9 || l.GroupExpanded(1) || l.Cell(1, ColName) != "   ▸ 0 (3)" {
		t.Fatalf("after collapse:\n%s", rowsText(l))
	}
	// Selecting a hidden tensor expands its group.
	r := l.RowOf(2) // blk.0.attn_q.bias
	if r < 0 || l.Entry(r).Name != "blk.0.attn_q.bias" {
		t.Fatalf("RowOf hidden tensor: %d\n%s", r, rowsText(l))
	}
	// The filter applies within groups; flat mode is unchanged.
	l.SetFilter("ffn")
	if l.Len() != 3 || !strings.Contains(rowsText(l), "▾ blk (2) | group") {
		t.Errorf("filtered:\n%s", rowsText(l))
	}
	l.SetGrouped(false)
	if l.Len() != 2 || l.Index(0) != 3 {
		t.Errorf("flat: %d rows", l.Len())
	}
}

func TestPackedSizeColumn(t *testing.T) {
	l := NewTensorList(treeEntries())
	for r := 0; r < l.Len(); r++ {
		if l.Entry(r).Name == "token_embd.weight" && l.Cell(r, ColSize) != "72.0 KiB" {
			t.Errorf("q4_k [512,256] size %q, want 72 KiB (512 blocks of 144 bytes)", l.Cell(r, ColSize))
		}
	}
}
