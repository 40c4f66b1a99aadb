package gguf

import (
	"context"

	"tensorscope/formats"
	"tensorscope/tensor"
)

// quantViews lists, after a block-quantised tensor, the views only such a
// tensor has, as tensors of their own: "blk.0.attn_q.weight ▸ scales"
// [4096, 128] (a zero-copy view of the blocks' scale fields), its minimums,
// the K-quants' sub-block scales and minimums, and the integer codes. Each
// loads its parent on first use.
func quantViews(parent *formats.TensorEntry) []*formats.TensorEntry {
	dt := parent.DType
	if !dt.BlockQuantized() || !parent.HasData() || len(parent.Shape) == 0 {
		return nil
	}
	type view struct {
		suffix string
		per    int // values per block
		dtype  tensor.DType
		make   func(*tensor.Tensor) (*tensor.Tensor, error)
	}
	scaleType := tensor.Float16
	switch dt {
	case tensor.GGMLQ8_K:
		scaleType = tensor.Float32
	case tensor.GGMLMXFP4:
		scaleType = tensor.Float8E8M0FNU
	}
	views := []view{{"scales", 1, scaleType, tensor.BlockScales}}
	if tensor.HasBlockMins(dt) {
		views = append(views, view{"mins", 1, tensor.Float16, tensor.BlockMins})
	}
	if tensor.HasSubBlockScales(dt) {
		per := 16
		if dt == tensor.GGMLQ4_K || dt == tensor.GGMLQ5_K {
			per = 8
		}
		views = append(views, view{"sub-block scales", per, tensor.Float32,
			func(t *tensor.Tensor) (*tensor.Tensor, error) { return tensor.SubBlockScales(t, false) }})
		if tensor.HasBlockMins(dt) {
			views = append(views, view{"sub-block mins", per, tensor.Float32,
				func(t *tensor.Tensor) (*tensor.Tensor, error) { return tensor.SubBlockScales(t, true) }})
		}
	}
	if tensor.HasBlockCodes(dt) {
		views = append(views, view{"codes", dt.UnitElems(), tensor.Int8, tensor.BlockCodes})
	}
	var out []*formats.TensorEntry
	for _, v := range views {
		shape := append([]int(nil), parent.Shape...)
		last := len(shape) - 1
		shape[last] = shape[last] / dt.UnitElems() * v.per
		e := &formats.TensorEntry{
			Name:   parent.Name + " ▸ " + v.suffix,
			DType:  v.dtype,
			Shape:  shape,
			Offset: -1,
			NBytes: 0,
			Role:   formats.RoleDerived,
			Attrs:  []formats.Attr{{Name: "view of", Value: parent.Name}},
		}
		mk := v.make
		e.SetLoader(func(ctx context.Context) (*tensor.Tensor, error) {
			t, err := parent.Load(ctx)
			if err != nil {
				return nil, err
			}
			return mk(t)
		})
		out = append(out, e)
	}
	return out
}
