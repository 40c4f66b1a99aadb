package tsr

import (
	"context"
	"fmt"
	"io"
	"strings"

	"tensorscope/formats"
	"tensorscope/tensor"
)

// encoder writes one tensor as TSR (see Write).
var encoder = &formats.Encoder{
	Extension: ".tsr",
	Write: func(ctx context.Context, w io.Writer, ts []formats.Named, _ map[string]string) (string, error) {
		if len(ts) != 1 {
			return "", fmt.Errorf("an exported .tsr file holds one tensor, not %d", len(ts))
		}
		return Write(ctx, w, ts[0].Tensor)
	},
}

// Write writes t as TSR v1 when it can hold it (float32, int8, int32,
// rank at most 4), else as a RAW TSR4 container of one tensor (which adds
// float16 and stores every tensor with 4 dims); otherwise it fails saying
// why neither fits. The note names the generation written.
func Write(ctx context.Context, w io.Writer, t *tensor.Tensor) (note string, err error) {
	cw := &countWriterTo{w: w}
	errV1 := EncodeV1(cw, t)
	if errV1 == nil {
		return "written as TSR v1", ctx.Err()
	}
	if cw.n > 0 || ctx.Err() != nil {
		return "", errV1
	}
	errV4 := EncodeV4(cw, []*tensor.Tensor{t}, RAW)
	if errV4 == nil {
		note = "written as TSR4, which stores 4 dims"
		if t.Rank() < 4 {
			note = fmt.Sprintf("written as TSR4, which stores 4 dims: shape %s is stored as %s",
				dims(t.Shape()), dims(padShape(t.Shape(), 4)))
		}
		return note, ctx.Err()
	}
	if cw.n > 0 {
		return "", errV4
	}
	return "", fmt.Errorf("%s fits no TSR generation: %v; %v", t, errV1, errV4)
}

// countWriterTo counts the bytes it passes on to w.
type countWriterTo struct {
	w io.Writer
	n int64
}

func (c *countWriterTo) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

func padShape(shape []int, rank int) []int {
	out := make([]int, 0, rank)
	for i := len(shape); i < rank; i++ {
		out = append(out, 1)
	}
	return append(out, shape...)
}

// dims spells a shape as "[1, 1, 3, 4]".
func dims(shape []int) string { return strings.ReplaceAll(fmt.Sprint(shape), " ", ", ") }
