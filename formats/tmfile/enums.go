package tmfile

import "tensorscope/formats"

// enumNames names the values of an integer field; values it does not list
// are shown as numbers.
type enumNames map[int64]string

func (e enumNames) enum(v int64) formats.Enum { return formats.Enum{Value: v, Name: e[v]} }

// paramEnums lists the param fields whose integers have names, keyed
// "Op.field". The names follow Tengine's operator headers
// (source/operator/prototype/*_param.h) and reference kernels.
var paramEnums = map[string]enumNames{
	"Pooling.alg": {0: "MAX", 1: "AVG"},
	"Eltwise.type": {0: "PROD", 1: "PROD_SCALAR", 2: "SUM", 3: "SUM_SCALAR", 4: "SUB", 5: "SUB_SCALAR",
		6: "MAX", 7: "RSQRT", 8: "MIN_SCALAR", 9: "LAST", 10: "DIV", 11: "LOG", 12: "EXP", 13: "SQRT",
		14: "FLOOR", 15: "SQUARE", 16: "POW", 17: "POWER"},
	"BilinearResize.type": {0: "NEAREST", 1: "BILINEAR"},
	"Resize.type":         {0: "NEAREST", 1: "BILINEAR"},
	"Interp.resize_type":  {1: "NEAREST", 2: "BILINEAR", 3: "BICUBIC"},
	"Comparison.type": {0: "EQUAL", 1: "NOT_EQUAL", 2: "GREATER", 3: "GREATER_EQUAL", 4: "LESS",
		5: "LESS_EQUAL"},
	"Logical.type":    {0: "AND", 1: "OR"},
	"Reduction.type":  {0: "SUM", 1: "MEAN"},
	"LRN.norm_region": {0: "ACROSS_CHANNELS", 1: "WITHIN_CHANNEL"},
	"Pad.mode":        {0: "CONSTANT", 1: "REFLECT", 2: "SYMMETRIC"},
	"Cast.type_from":  dataTypeNames,
	"Cast.type_to":    dataTypeNames,
	"Unary.type": {0: "ABS", 1: "NEG", 2: "FLOOR", 3: "CEIL", 4: "SQUARE", 5: "SQRT", 6: "RSQRT",
		7: "EXP", 8: "LOG", 9: "SIN", 10: "COS", 11: "TAN", 12: "ASIN", 13: "ACOS", 14: "ATAN",
		15: "RECIPROCAL", 16: "TANH"},
}

// origFormatNames names TM2_Model.orig_format (NOTES §2; real Darknet
// files store 7).
var origFormatNames = enumNames{0: "unknown", 1: "Tengine", 2: "Caffe", 3: "ONNX", 4: "MXNet",
	5: "TensorFlow", 6: "TFLite", 7: "Darknet", 8: "DLA", 9: "ncnn", 10: "MegEngine", 11: "OneFlow",
	12: "Paddle"}

var dataTypeNames = enumNames{0: "FP32", 1: "FP16", 2: "INT8", 3: "UINT8", 4: "INT32", 5: "INT16"}

var tensorTypeNames = enumNames{0: "UNKNOWN", 1: "VAR", 2: "CONST", 3: "INPUT", 4: "DEP"}

var layoutNames = enumNames{0: "NCHW", 1: "NHWC"}

// FormatName names an orig_format value ("Caffe", "ONNX", ...); "" when the
// value has no name.
func FormatName(origFormat int32) string { return origFormatNames[int64(origFormat)] }
