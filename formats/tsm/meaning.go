package tsm

import (
	"strings"

	"tensorscope/formats"
)

// opCategories says what each TenniS operator does. TenniS marks its
// internal operators with a leading underscore ("_reshape"), which the
// lookup ignores. The names are those of TenniS's operator registry as
// the SeetaFace6 modules and the TenniS front end use them.
var opCategories = func() map[string]formats.Category {
	m := map[string]formats.Category{}
	add := func(c formats.Category, names ...string) {
		for _, n := range names {
			m[n] = c
		}
	}
	add(formats.CategoryConvolution,
		"conv2d", "conv2d_v2", "depthwise_conv2d", "depthwise_conv2d_v2", "transpose_conv2d", "conv2d_winograd",
		"conv2d_winograd_v2", "inner_prod", "dcn_v2_forward", "gemm")
	add(formats.CategoryActivation,
		"relu", "relu_max", "prelu", "leaky_relu", "sigmoid", "tanh", "softmax", "hard_sigmoid", "hard_swish",
		"silu", "swish", "softplus", "softsign", "elu", "selu", "gelu", "mish")
	add(formats.CategoryPooling,
		"pooling2d", "pooling2d_v2", "global_pooling2d", "roi_align", "adaptive_pooling2d")
	add(formats.CategoryNormalization,
		"batch_norm", "batch_scale", "fused_batch_norm", "instance_norm", "layer_norm", "group_norm",
		"l2_norm", "norm_image", "lrn")
	add(formats.CategoryShape,
		"reshape", "reshape_v2", "flatten", "flatten2d", "squeeze", "unsqueeze", "transpose", "dimshuffle",
		"nhwc2nchw", "nchw2nhwc", "space_to_batch4d", "batch_to_space4d", "shape_index_patch", "expand_dims",
		"broadcast", "view", "shape", "onnx_pooling2d_padding", "tf_pooling2d_padding", "tf_conv2d_padding",
		"dynamic_padding")
	add(formats.CategoryTensor,
		"add", "sub", "mul", "div", "add_bias", "concat", "split", "slice", "pad", "tile", "tile_v2", "gather",
		"gatherv2", "gather_nd", "field", "pack", "copy", "sample2d", "resize2d", "affine_sample2d", "limit",
		"sqrt", "exp", "log", "pow", "abs", "square", "rsqrt", "maximum", "max", "min", "reduce_sum",
		"reduce_mean", "sum", "stack", "proposal", "chunk", "dragon_proposal", "equal", "not_equal", "floor",
		"round", "ceil", "cast", "to_float", "crop_nd", "argmax", "topk", "reciprocal", "where")
	add(formats.CategoryInput, OpParam)
	add(formats.CategoryConstant, OpConst, OpVar)
	return m
}()

// opCategory is the category of op, ignoring TenniS's leading underscore.
func opCategory(op string) formats.Category {
	if c, ok := opCategories[op]; ok {
		return c
	}
	return opCategories[strings.TrimLeft(op, "_")]
}

// meaningOf describes a node by its op and attributes. TenniS spells the
// kernel ("ksize"), "stride" and "dilation" of 2-D operators with one
// entry per axis of the data layout named by "format" (NCHW by default);
// the spatial pair is picked by that layout.
func meaningOf(op string, attrs []formats.Attr) formats.Meaning {
	m := formats.Meaning{Category: opCategory(op)}
	if m.Category != formats.CategoryConvolution && m.Category != formats.CategoryPooling {
		return m
	}
	nhwc := false
	for _, a := range attrs {
		if a.Name == "format" {
			nhwc = a.Value == "NHWC"
		}
	}
	for _, a := range attrs {
		switch a.Name {
		case "ksize":
			m.Kernel = spatial(a.Value, nhwc)
		case "stride":
			m.Stride = spatial(a.Value, nhwc)
		case "dilation":
			m.Dilation = spatial(a.Value, nhwc)
		}
	}
	return m
}

// spatial takes the height and width entries of a per-axis list: the last
// two of NCHW, the middle two of NHWC, or a list of two as it is.
func spatial(v any, nhwc bool) []int {
	list, ok := v.([]int64)
	if !ok {
		return nil
	}
	switch {
	case len(list) == 2:
	case len(list) == 4 && nhwc:
		list = list[1:3]
	case len(list) == 4:
		list = list[2:4]
	default:
		return nil
	}
	return []int{int(list[0]), int(list[1])}
}

// convolutionWeights are the operators whose channels are read from their
// weight, a constant input, as TenniS keeps no attribute for them; true
// for depthwise ones, whose weight is [multiplier, channels, kh, kw]
// rather than [out, in, kh, kw]. (Transposed convolutions are left out.)
var convolutionWeights = map[string]bool{"conv2d": false, "conv2d_v2": false, "conv2d_winograd": false,
	"conv2d_winograd_v2": false, "depthwise_conv2d": true, "depthwise_conv2d_v2": true}

// weightChannels fills in the channels (and a kernel no "ksize" gave) of
// each convolution from the shape of its constant 4-D weight, the last
// input that is one.
func (b *docBuilder) weightChannels(g *formats.Graph) {
	for i := range g.Nodes {
		n := &g.Nodes[i]
		depthwise, ok := convolutionWeights[strings.TrimLeft(n.Op, "_")]
		if !ok {
			continue
		}
		for k := len(n.Inputs) - 1; k >= 0; k-- {
			if shape := b.constShape(g, n.Inputs[k]); len(shape) == 4 {
				n.Meaning.OutChannels, n.Meaning.InChannels = shape[0], shape[1]
				if depthwise {
					n.Meaning.OutChannels, n.Meaning.Groups = shape[0]*shape[1], shape[1]
				}
				if len(n.Meaning.Kernel) == 0 {
					n.Meaning.Kernel = []int{shape[2], shape[3]}
				}
				break
			}
		}
	}
}

// constShape is the shape of value v when a constant node holds it.
func (b *docBuilder) constShape(g *formats.Graph, v int) []int {
	if v < 0 || v >= len(g.Values) || g.Nodes[v].Kind != formats.KindConst {
		return nil
	}
	if t := g.Values[v].Tensor; t >= 0 && t < len(b.doc.Tensors) {
		return b.doc.Tensors[t].Shape
	}
	return nil
}

// scopeOf is the scope in a node's name: TenniS front ends name nodes as
// paths ("/inception2/branch3x3_reduce/conv_with_bn" is in
// [inception2 branch3x3_reduce]) and prefix a constant with "_const_"
// ("_const_/loc_1_conv_weights" is at the top level, like its consumer).
func scopeOf(name string) []string {
	return formats.PathScope(strings.TrimPrefix(name, "_const_"), '/')
}
