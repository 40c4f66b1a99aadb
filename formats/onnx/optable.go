package onnx

import (
	"strconv"
	"strings"

	"tensorscope/formats"
)

// opCategories places ONNX operators (ai.onnx, ai.onnx.ml, the training
// preview and com.microsoft's common contrib ops) in the normalised
// categories. Operators not listed are "other".
var opCategories = func() map[string]formats.Category {
	m := map[string]formats.Category{}
	add := func(c formats.Category, ops ...string) {
		for _, op := range ops {
			m[op] = c
		}
	}
	add(formats.CategoryConvolution,
		"Conv", "ConvTranspose", "ConvInteger", "DeformConv", "Gemm", "MatMul", "MatMulInteger",
		"LSTM", "GRU", "RNN", "Einsum", "Attention", "MultiHeadAttention", "FusedConv", "FusedGemm",
		"FusedMatMul", "Embedding", "EmbedLayerNormalization")
	add(formats.CategoryActivation,
		"Relu", "LeakyRelu", "PRelu", "ThresholdedRelu", "Selu", "Elu", "Celu", "Gelu", "FastGelu",
		"BiasGelu", "QuickGelu", "Mish", "HardSwish", "HardSigmoid", "Sigmoid", "Tanh", "Softmax",
		"LogSoftmax", "Softplus", "Softsign", "Clip", "Hardmax", "Shrink", "Swish")
	add(formats.CategoryPooling,
		"MaxPool", "AveragePool", "GlobalMaxPool", "GlobalAveragePool", "GlobalLpPool", "LpPool",
		"MaxRoiPool", "RoiAlign", "MaxUnpool")
	add(formats.CategoryNormalization,
		"BatchNormalization", "InstanceNormalization", "LayerNormalization", "GroupNormalization",
		"LRN", "LpNormalization", "MeanVarianceNormalization", "RMSNormalization", "Dropout",
		"SkipLayerNormalization", "SimplifiedLayerNormalization", "SkipSimplifiedLayerNormalization")
	add(formats.CategoryShape,
		"Reshape", "Flatten", "Transpose", "Squeeze", "Unsqueeze", "Shape", "Size", "Expand",
		"DepthToSpace", "SpaceToDepth", "Identity", "CastLike", "Cast", "OptionalGetElement",
		"OptionalHasElement", "Optional")
	add(formats.CategoryTensor,
		"Add", "Sub", "Mul", "Div", "Pow", "Sqrt", "Exp", "Log", "Abs", "Neg", "Reciprocal", "Floor",
		"Ceil", "Round", "Sign", "Erf", "Sin", "Cos", "Tan", "Asin", "Acos", "Atan", "Sinh", "Cosh",
		"Asinh", "Acosh", "Atanh", "Max", "Min", "Mean", "Sum", "Mod", "BitShift", "BitwiseAnd",
		"BitwiseOr", "BitwiseXor", "BitwiseNot", "And", "Or", "Xor", "Not", "Equal", "Greater",
		"GreaterOrEqual", "Less", "LessOrEqual", "Where", "IsNaN", "IsInf", "Concat", "Split",
		"SplitToSequence", "Slice", "Gather", "GatherElements", "GatherND", "Scatter",
		"ScatterElements", "ScatterND", "Tile", "Pad", "Resize", "Upsample", "ReduceMean",
		"ReduceSum", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceL1", "ReduceL2", "ReduceLogSum",
		"ReduceLogSumExp", "ReduceSumSquare", "ArgMax", "ArgMin", "TopK", "NonZero", "OneHot",
		"CumSum", "Range", "Trilu", "Compress", "Unique", "NonMaxSuppression", "ConstantOfShape",
		"EyeLike", "RandomNormal", "RandomUniform", "RandomNormalLike", "RandomUniformLike",
		"Multinomial", "Bernoulli", "SequenceAt", "SequenceConstruct", "SequenceEmpty",
		"SequenceErase", "SequenceInsert", "SequenceLength", "ConcatFromSequence", "SequenceMap",
		"ReverseSequence", "GridSample", "AffineGrid", "Col2Im", "CenterCropPad", "DFT", "STFT",
		"Det", "StringNormalizer", "StringConcat", "StringSplit", "RegexFullMatch", "TfIdfVectorizer",
		"ImageDecoder", "BlackmanWindow", "HannWindow", "HammingWindow", "MelWeightMatrix",
		"RotaryEmbedding", "TensorScatter", "BiasAdd")
	add(formats.CategoryConstant, "Constant")
	add(formats.CategoryControlFlow, "If", "Loop", "Scan")
	add(formats.CategoryQuantization,
		"QuantizeLinear", "DequantizeLinear", "DynamicQuantizeLinear", "DynamicQuantizeLSTM",
		"DynamicQuantizeMatMul", "QGemm", "QAttention")
	return m
}()

// fusedActivations maps com.microsoft's fused activation attribute values.
var fusedActivations = map[string]string{
	"Relu": "relu", "LeakyRelu": "leakyrelu", "Sigmoid": "sigmoid", "Tanh": "tanh",
	"HardSigmoid": "hardsigmoid", "Clip": "clip",
}

// meaningOf normalises a node: its category from the table (QLinear*
// operators are the quantised forms of convolution, linear and arithmetic
// layers: they count as quantisation), kernel, stride, dilation and group
// from the attributes, channels from the weight initializer.
// Attribute lists convert through ints, which reuses one []int per
// shared attribute value.
func meaningOf(n *nodeProto, weight []int, ints func(any) []int) formats.Meaning {
	var m formats.Meaning
	op := n.op
	c, ok := opCategories[op]
	switch {
	case ok:
		m.Category = c
	case strings.HasPrefix(op, "QLinear"):
		m.Category = formats.CategoryQuantization
	}
	for _, a := range n.attrs {
		switch a.Name {
		case "kernel_shape":
			m.Kernel = ints(a.Value)
		case "strides":
			m.Stride = ints(a.Value)
		case "dilations":
			m.Dilation = ints(a.Value)
		case "group":
			if v, ok := a.Value.(int64); ok && v > 0 && v < 1<<31 {
				m.Groups = int(v)
			}
		case "activation":
			if s, ok := a.Value.(string); ok {
				m.FusedActivation = fusedActivations[s]
			}
		}
	}
	convLike := op == "Conv" || op == "QLinearConv" || op == "ConvInteger" || op == "FusedConv" || op == "ConvTranspose"
	switch {
	case convLike && len(weight) >= 3:
		out, in := weight[0], weight[1]
		groups := max(m.Groups, 1)
		if op == "ConvTranspose" {
			out, in = weight[1]*groups, weight[0]
		} else {
			in *= groups
		}
		m.OutChannels, m.InChannels = out, in
		if m.Kernel == nil {
			m.Kernel = append([]int(nil), weight[2:]...)
		}
	case (op == "Gemm" || op == "FusedGemm") && len(weight) == 2:
		in, out := weight[0], weight[1]
		if transB(n) {
			in, out = out, in
		}
		m.InChannels, m.OutChannels = in, out
	case (op == "MatMul" || op == "QLinearMatMul" || op == "MatMulInteger") && len(weight) == 2:
		m.InChannels, m.OutChannels = weight[0], weight[1]
	}
	if convLike && m.Groups == 0 {
		m.Groups = 1
	}
	m.Variant = variantOf(n, ints)
	return m
}

// variantOf is the attribute that says which flavour of an operator a node
// runs, shown in its box: a Transpose's perm, the axis of a Concat,
// Softmax, Gather, Split…, a Resize's mode.
func variantOf(n *nodeProto, ints func(any) []int) string {
	for _, a := range n.attrs {
		switch a.Name {
		case "perm":
			if p := ints(a.Value); p != nil {
				return "perm " + joinInts(p)
			}
		case "axis":
			if v, ok := a.Value.(int64); ok {
				return "axis " + strconv.FormatInt(v, 10)
			}
		case "axes":
			if p := ints(a.Value); p != nil {
				return "axes " + joinInts(p)
			}
		case "mode":
			if s, ok := a.Value.(string); ok && n.op != "Pad" || ok && s != "constant" {
				return s
			}
		}
	}
	return ""
}

func joinInts(vs []int) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = strconv.Itoa(v)
	}
	return strings.Join(parts, ",")
}

func transB(n *nodeProto) bool {
	for _, a := range n.attrs {
		if a.Name == "transB" {
			v, _ := a.Value.(int64)
			return v != 0
		}
	}
	return false
}

// intsOf converts an ints attribute to []int once per distinct value:
// nodes whose attributes are encoded alike share their values (see
// attribute.plain), and so share the conversion.
func (b *builder) intsOf(v any) []int {
	vs, ok := v.([]int64)
	if !ok || len(vs) == 0 {
		return convertInts(v)
	}
	if out, ok := b.intsCache[&vs[0]]; ok && len(out) == len(vs) {
		return out
	}
	out := convertInts(v)
	b.intsCache[&vs[0]] = out
	return out
}

// convertInts converts an ints attribute to []int, dropping it when a value is
// out of range (a hostile kernel of 2^62).
func convertInts(v any) []int {
	vs, ok := v.([]int64)
	if !ok {
		return nil
	}
	out := make([]int, len(vs))
	for i, x := range vs {
		if x < -1<<31 || x > 1<<31 {
			return nil
		}
		out[i] = int(x)
	}
	return out
}
