package tflite

import (
	"tensorscope/formats"
)

// opCategories places TFLite's builtin operators in the normalised
// categories; operators not listed (and custom ones) are "other".
var opCategories = func() map[string]formats.Category {
	m := map[string]formats.Category{}
	add := func(c formats.Category, ops ...string) {
		for _, op := range ops {
			m[op] = c
		}
	}
	add(formats.CategoryConvolution,
		"CONV_2D", "DEPTHWISE_CONV_2D", "TRANSPOSE_CONV", "CONV_3D", "CONV_3D_TRANSPOSE",
		"FULLY_CONNECTED", "BATCH_MATMUL", "EMBEDDING_LOOKUP", "EMBEDDING_LOOKUP_SPARSE",
		"LSTM", "UNIDIRECTIONAL_SEQUENCE_LSTM", "BIDIRECTIONAL_SEQUENCE_LSTM", "RNN",
		"UNIDIRECTIONAL_SEQUENCE_RNN", "BIDIRECTIONAL_SEQUENCE_RNN", "SVDF", "HASHTABLE_LOOKUP",
		"LSH_PROJECTION", "STABLEHLO_CONVOLUTION", "STABLEHLO_DOT_GENERAL")
	add(formats.CategoryActivation,
		"RELU", "RELU6", "RELU_N1_TO_1", "RELU_0_TO_1", "LEAKY_RELU", "PRELU", "ELU", "GELU",
		"HARD_SWISH", "LOGISTIC", "TANH", "SOFTMAX", "LOG_SOFTMAX", "SIGN")
	add(formats.CategoryPooling,
		"AVERAGE_POOL_2D", "MAX_POOL_2D", "L2_POOL_2D", "REDUCE_WINDOW", "STABLEHLO_REDUCE_WINDOW")
	add(formats.CategoryNormalization,
		"L2_NORMALIZATION", "LOCAL_RESPONSE_NORMALIZATION", "RMS_NORM")
	add(formats.CategoryShape,
		"RESHAPE", "SQUEEZE", "EXPAND_DIMS", "TRANSPOSE", "SHAPE", "RANK", "DEPTH_TO_SPACE",
		"SPACE_TO_DEPTH", "SPACE_TO_BATCH_ND", "BATCH_TO_SPACE_ND", "BROADCAST_TO", "BROADCAST_ARGS",
		"CAST", "BITCAST", "STABLEHLO_RESHAPE", "STABLEHLO_TRANSPOSE", "STABLEHLO_BROADCAST_IN_DIM")
	add(formats.CategoryTensor,
		"ADD", "ADD_N", "SUB", "MUL", "DIV", "FLOOR_DIV", "FLOOR_MOD", "POW", "SQRT", "RSQRT", "EXP",
		"LOG", "ABS", "NEG", "SQUARE", "SQUARED_DIFFERENCE", "FLOOR", "CEIL", "ROUND", "SIN", "COS",
		"ATAN2", "MAXIMUM", "MINIMUM", "MEAN", "SUM", "REDUCE_MAX", "REDUCE_MIN", "REDUCE_PROD",
		"REDUCE_ANY", "REDUCE_ALL", "ARG_MAX", "ARG_MIN", "CONCATENATION", "SPLIT", "SPLIT_V",
		"SLICE", "STRIDED_SLICE", "GATHER", "GATHER_ND", "SCATTER_ND", "TILE", "PAD", "PADV2",
		"MIRROR_PAD", "RESIZE_BILINEAR", "RESIZE_NEAREST_NEIGHBOR", "PACK", "UNPACK", "SELECT",
		"SELECT_V2", "WHERE", "EQUAL", "NOT_EQUAL", "LESS", "LESS_EQUAL", "GREATER", "GREATER_EQUAL",
		"LOGICAL_AND", "LOGICAL_OR", "LOGICAL_NOT", "TOPK_V2", "ONE_HOT", "FILL", "ZEROS_LIKE",
		"ONES_LIKE", "RANGE", "REVERSE_V2", "REVERSE_SEQUENCE", "CUMSUM", "MATRIX_DIAG",
		"MATRIX_SET_DIAG", "UNIQUE", "NON_MAX_SUPPRESSION_V4", "NON_MAX_SUPPRESSION_V5", "SEGMENT_SUM",
		"UNSORTED_SEGMENT_SUM", "UNSORTED_SEGMENT_MAX", "UNSORTED_SEGMENT_MIN", "UNSORTED_SEGMENT_PROD",
		"BITWISE_XOR", "RIGHT_SHIFT", "RANDOM_STANDARD_NORMAL", "RANDOM_UNIFORM", "MULTINOMIAL",
		"DYNAMIC_UPDATE_SLICE", "SIGN", "FFT2D", "RFFT2D", "IMAG", "REAL", "COMPLEX_ABS", "DILATE",
		"STABLEHLO_ADD", "STABLEHLO_MULTIPLY", "STABLEHLO_CONCATENATE", "STABLEHLO_SLICE",
		"STABLEHLO_GATHER", "STABLEHLO_PAD")
	add(formats.CategoryControlFlow,
		"WHILE", "IF", "CALL_ONCE", "CALL", "STABLEHLO_WHILE", "STABLEHLO_CASE", "STABLEHLO_COMPOSITE",
		"STABLEHLO_SORT", "STABLEHLO_REDUCE", "STABLEHLO_SCATTER")
	add(formats.CategoryQuantization, "QUANTIZE", "DEQUANTIZE", "FAKE_QUANT")
	return m
}()

// fusedActivations names ActivationFunctionType values as the other
// codecs name fused activations.
var fusedActivations = map[string]string{
	"RELU": "relu", "RELU_N1_TO_1": "relu_n1_to_1", "RELU6": "relu6", "TANH": "tanh",
	"SIGN_BIT": "sign_bit",
}

// meaningOf normalises a node from its operator and options: kernel from
// the filter options or the weight's shape, stride, dilation, depth
// multiplier (as output channels over input channels), fused activation.
func meaningOf(n *formats.Node, code opCode, g *formats.Graph) formats.Meaning {
	var m formats.Meaning
	m.Category = opCategories[code.name]
	if code.custom {
		m.Category = formats.CategoryOther
	}
	ints := map[string]int{}
	for _, a := range n.Attrs {
		switch v := a.Value.(type) {
		case int64:
			ints[a.Name] = int(v)
		case formats.Enum:
			if a.Name == "fused_activation_function" {
				m.FusedActivation = fusedActivations[v.Name]
			}
		}
	}
	pair := func(h, w string) []int {
		hv, hok := ints[h]
		wv, wok := ints[w]
		if !hok && !wok {
			return nil
		}
		return []int{hv, wv}
	}
	m.Stride = pair("stride_h", "stride_w")
	m.Dilation = pair("dilation_h_factor", "dilation_w_factor")
	if code.name == "CONV_3D" || code.name == "CONV_3D_TRANSPOSE" {
		m.Stride = []int{ints["stride_d"], ints["stride_h"], ints["stride_w"]}
		m.Dilation = []int{ints["dilation_d_factor"], ints["dilation_h_factor"], ints["dilation_w_factor"]}
	}
	weight := func(k int) []int {
		if k < len(n.Inputs) {
			v := g.Values[n.Inputs[k]]
			if v.Tensor >= 0 {
				return v.Shape
			}
		}
		return nil
	}
	switch code.name {
	case "CONV_2D": // weights [O, H, W, I]
		if w := weight(1); len(w) == 4 {
			m.Kernel, m.OutChannels, m.InChannels = []int{w[1], w[2]}, w[0], w[3]
			m.Groups = 1
			if in := weight(0); len(in) == 4 && w[3] > 0 && in[3] > w[3] {
				m.Groups, m.InChannels = in[3]/w[3], in[3]
			}
		}
	case "DEPTHWISE_CONV_2D": // weights [1, H, W, I·multiplier]
		if w := weight(1); len(w) == 4 {
			m.Kernel, m.OutChannels = []int{w[1], w[2]}, w[3]
			if dm := ints["depth_multiplier"]; dm > 0 {
				m.InChannels = w[3] / dm
				m.Groups = m.InChannels
			}
		}
	case "TRANSPOSE_CONV": // inputs output_shape, weights [O, H, W, I], input
		if w := weight(1); len(w) == 4 {
			m.Kernel, m.OutChannels, m.InChannels = []int{w[1], w[2]}, w[0], w[3]
		}
	case "FULLY_CONNECTED": // weights [O, I]
		if w := weight(1); len(w) == 2 {
			m.OutChannels, m.InChannels = w[0], w[1]
		}
	case "AVERAGE_POOL_2D", "MAX_POOL_2D", "L2_POOL_2D":
		m.Kernel = pair("filter_height", "filter_width")
		m.Variant = map[string]string{"AVERAGE_POOL_2D": "AVG", "MAX_POOL_2D": "MAX", "L2_POOL_2D": "L2"}[code.name]
	}
	return m
}
