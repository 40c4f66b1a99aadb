package safetensors

import (
	"context"
	"fmt"
	"io"

	"tensorscope/formats"
)

// encoder writes named tensors as one safetensors file. A block-quantised
// tensor (a GGML type safetensors lacks) is written as its dequantised
// float32 values, and the note says how many were.
var encoder = &formats.Encoder{
	Extension: ".safetensors",
	Many:      true,
	Check: func(n formats.Named) error {
		_, err := EncodeHeader([]Named{named(n)}, nil)
		return err
	},
	Write: func(ctx context.Context, w io.Writer, ts []formats.Named, metadata map[string]string) (string, error) {
		ns := make([]Named, len(ts))
		widened := 0
		for i, t := range ts {
			ns[i] = named(t)
			if ns[i].AsFloat32 {
				widened++
			}
		}
		if err := Write(ctx, w, ns, metadata); err != nil {
			return "", err
		}
		if widened == 0 {
			return "", nil
		}
		return fmt.Sprintf("%d block-quantised tensors are written as float32, dequantised: safetensors has no such types", widened), nil
	},
}

func named(n formats.Named) Named {
	return Named{Name: n.Name, Tensor: n.Tensor, AsFloat32: n.Tensor.DType().BlockQuantized()}
}
