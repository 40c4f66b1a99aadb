package graphview

import "strings"

// Category groups operators for colouring.
type Category uint8

const (
	CategoryOther Category = iota
	// CategoryConvolution: convolutions and the other weighted layers
	// (fully connected, Gemm, MatMul, Linear, recurrent cells, embeddings).
	CategoryConvolution
	CategoryActivation // ReLU, Sigmoid, Softmax, …
	CategoryPooling
	CategoryNormalization // batch/instance/layer norm, LRN, scale, dropout
	CategoryShape         // reshape, flatten, transpose, squeeze, …
	CategoryTensor        // element-wise arithmetic, concat, split, slice, resize, …
	CategoryInput
	CategoryOutput
	CategoryConstant
	numCategories
)

var categoryNames = [numCategories]string{
	"other", "convolution", "activation", "pooling", "normalization",
	"shape", "tensor", "input", "output", "constant",
}

func (c Category) String() string {
	if c < numCategories {
		return categoryNames[c]
	}
	return "other"
}

// CategoryOf classifies an operator name, case-insensitively and ignoring
// TenniS's leading underscore: the op names of Tengine tmfile (the opstr of
// op-params.tsv: Convolution, ReLu, Pooling, Eltwise, …), TenniS modules
// (conv2d, add_bias, relu, pooling2d, inner_prod, batch_norm, _reshape,
// concat, <param>, <const>, …) and DataCode (Linear, ReLU, Sigmoid, Tanh,
// Softmax, Flatten). Unknown names are CategoryOther.
func CategoryOf(op string) Category {
	key := strings.ToLower(strings.TrimSpace(op))
	if c, ok := opCategories[key]; ok {
		return c
	}
	if c, ok := opCategories[strings.TrimLeft(key, "_")]; ok {
		return c
	}
	return CategoryOther
}

var opCategories = func() map[string]Category {
	m := map[string]Category{}
	add := func(c Category, names ...string) {
		for _, n := range names {
			m[n] = c
		}
	}
	add(CategoryConvolution,
		// tmfile
		"convolution", "deconvolution", "fullyconnected", "gemm", "matmul", "lstm", "rnn", "gru", "embedding",
		// TenniS
		"conv2d", "conv2d_v2", "depthwise_conv2d", "depthwise_conv2d_v2", "transpose_conv2d", "conv2d_winograd",
		"conv2d_winograd_v2", "inner_prod", "dcn_v2_forward", "conv2d_quantized", "inner_prod_quantized",
		// DataCode and common spellings
		"linear", "conv", "convtranspose", "dense", "fc", "depthwiseconv2d", "conv1d", "conv3d")
	add(CategoryActivation,
		"relu", "relu1", "relu6", "prelu", "elu", "selu", "gelu", "mish", "hardswish", "hardsigmoid", "sigmoid",
		"logistic", "tanh", "softmax", "logsoftmax", "softplus", "threshold", "clip",
		"relu_max", "leaky_relu", "leakyrelu", "hard_sigmoid", "hard_swish", "silu", "swish", "softsign")
	add(CategoryPooling,
		"pooling", "l2pool", "roipooling", "psroipooling", "roialign",
		"pooling2d", "pooling2d_v2", "global_pooling2d", "roi_align", "adaptive_pooling2d",
		"maxpool", "avgpool", "globalaveragepool", "globalmaxpool", "maxpool2d", "avgpool2d")
	add(CategoryNormalization,
		"batchnormalization", "instancenorm", "layernorm", "lrn", "mvn", "normalize", "l2normalization",
		"scale", "fusedbnscalerelu", "dropout",
		"batch_norm", "batch_scale", "fused_batch_norm", "instance_norm", "layer_norm", "group_norm",
		"l2_norm", "norm_image", "batchnorm", "batchnorm2d", "groupnorm")
	add(CategoryShape,
		"reshape", "flatten", "squeeze", "unsqueeze", "expanddims", "permute", "transpose", "swapaxis", "reorg",
		"shufflechannel", "spacetodepth", "depthtospace", "spacetobatchnd", "batchtospacend", "shape", "expand",
		"reshape_v2", "flatten2d", "dimshuffle", "nhwc2nchw", "nchw2nhwc", "space_to_batch4d",
		"batch_to_space4d", "shape_index_patch", "expand_dims", "broadcast", "view",
		"onnx_pooling2d_padding", "tf_pooling2d_padding", "tf_conv2d_padding", "dynamic_padding")
	add(CategoryTensor,
		"concat", "split", "slice", "stridedslice", "crop", "pad", "tile", "gather", "scatter", "eltwise", "addn",
		"broadmul", "maximum", "minimum", "unary", "reduction", "reducel2", "mean", "argmax", "argmin", "topkv2",
		"where", "comparison", "logical", "cast", "resize", "interp", "upsample", "bilinearresize",
		"squareddifference", "round", "ceil", "reciprocal", "zeroslike", "reverse", "sparsetodense", "bias",
		"absval", "noop", "add", "sub", "mul", "div", "add_bias", "field", "pack", "copy", "sample2d", "resize2d",
		"affine_sample2d", "limit", "sqrt", "exp", "log", "pow", "abs", "square", "rsqrt", "maximum_", "max",
		"min", "reduce_sum", "reduce_mean", "sum", "stack", "gatherv2", "gather_nd", "tile_v2", "proposal",
		"chunk", "dragon_proposal", "equal", "not_equal", "floor", "to_float", "crop_nd")
	add(CategoryInput, "inputop", "<param>", "input", "placeholder", "data")
	add(CategoryOutput, "output", "<output>", "<out>")
	add(CategoryConstant, "const", "<const>", "constant", "<var>", "var", "weights", "initializer")
	return m
}()
