package graphview

import "testing"

// Every operator name of Tengine's tmfile (the opstr column of
// op-params.tsv) with the category it is drawn in; "other" is reserved for
// detection post-processing and the like.
var tmfileOps = map[string]Category{
	"Accuracy": CategoryOther, "BatchNormalization": CategoryNormalization, "BilinearResize": CategoryTensor,
	"Concat": CategoryTensor, "Const": CategoryConstant, "Convolution": CategoryConvolution,
	"Deconvolution": CategoryConvolution, "DetectionOutput": CategoryOther, "Dropout": CategoryNormalization,
	"Eltwise": CategoryTensor, "Flatten": CategoryShape, "FullyConnected": CategoryConvolution,
	"InputOp": CategoryInput, "LRN": CategoryNormalization, "Normalize": CategoryNormalization,
	"Permute": CategoryShape, "Pooling": CategoryPooling, "PReLU": CategoryActivation, "PriorBox": CategoryOther,
	"Region": CategoryOther, "ReLu": CategoryActivation, "ReLu6": CategoryActivation, "Reorg": CategoryShape,
	"Reshape": CategoryShape, "ROIPooling": CategoryPooling, "RPN": CategoryOther, "Scale": CategoryNormalization,
	"Slice": CategoryTensor, "Softmax": CategoryActivation, "Split": CategoryTensor,
	"DetectionPostProcess": CategoryOther, "Gemm": CategoryConvolution, "Generic": CategoryOther,
	"Logistic": CategoryActivation, "LSTM": CategoryConvolution, "RNN": CategoryConvolution,
	"Tanh": CategoryActivation, "Sigmoid": CategoryActivation, "Squeeze": CategoryShape,
	"FusedBNScaleReLu": CategoryNormalization, "Pad": CategoryTensor, "StridedSlice": CategoryTensor,
	"ArgMax": CategoryTensor, "ArgMin": CategoryTensor, "TopKV2": CategoryTensor, "Reduction": CategoryTensor,
	"Maximum": CategoryTensor, "Minimum": CategoryTensor, "GRU": CategoryConvolution, "Addn": CategoryTensor,
	"SwapAxis": CategoryShape, "Upsample": CategoryTensor, "SpaceToBatchND": CategoryShape,
	"BatchToSpaceND": CategoryShape, "Resize": CategoryTensor, "ShuffleChannel": CategoryShape,
	"Crop": CategoryTensor, "Roialign": CategoryPooling, "Psroipooling": CategoryPooling, "Unary": CategoryTensor,
	"Expanddims": CategoryShape, "Bias": CategoryTensor, "Noop": CategoryTensor, "Threshold": CategoryActivation,
	"Hardsigmoid": CategoryActivation, "Embedding": CategoryConvolution, "InstanceNorm": CategoryNormalization,
	"MVN": CategoryNormalization, "Absval": CategoryTensor, "Cast": CategoryTensor, "HardSwish": CategoryActivation,
	"Interp": CategoryTensor, "Selu": CategoryActivation, "Elu": CategoryActivation, "BroadMul": CategoryTensor,
	"Logical": CategoryTensor, "Gather": CategoryTensor, "Transpose": CategoryShape, "Comparison": CategoryTensor,
	"SpaceToDepth": CategoryShape, "DepthToSpace": CategoryShape, "Reverse": CategoryTensor,
	"SparseToDense": CategoryTensor, "Ceil": CategoryTensor, "SquaredDifference": CategoryTensor,
	"Round": CategoryTensor, "ZerosLike": CategoryTensor, "Clip": CategoryActivation, "Unsqueeze": CategoryShape,
	"ReduceL2": CategoryTensor, "Mean": CategoryTensor, "MatMul": CategoryConvolution, "Expand": CategoryShape,
	"Scatter": CategoryTensor, "Shape": CategoryShape, "Where": CategoryTensor, "Tile": CategoryTensor,
	"Mish": CategoryActivation, "L2Pool": CategoryPooling, "LogSoftmax": CategoryActivation,
	"ReLU1": CategoryActivation, "L2Normalization": CategoryNormalization, "Softplus": CategoryActivation,
	"Reciprocal": CategoryTensor, "SpatialTransformer": CategoryOther, "Gelu": CategoryActivation,
	"LayerNorm": CategoryNormalization,
}

func TestCategoryOfTmfile(t *testing.T) {
	for op, want := range tmfileOps {
		if got := CategoryOf(op); got != want {
			t.Errorf("CategoryOf(%q) = %v, want %v", op, got, want)
		}
	}
}

func TestCategoryOfTenniSAndDataCode(t *testing.T) {
	for op, want := range map[string]Category{
		// Every op in the TenniS sample modules.
		"<const>": CategoryConstant, "add_bias": CategoryTensor, "relu": CategoryActivation,
		"conv2d": CategoryConvolution, "flatten": CategoryShape, "_reshape": CategoryShape,
		"inner_prod": CategoryConvolution, "pooling2d": CategoryPooling, "concat": CategoryTensor,
		"<param>": CategoryInput, "depthwise_conv2d": CategoryConvolution, "to_float": CategoryTensor,
		"_transpose": CategoryShape, "batch_norm": CategoryNormalization, "_onnx_pooling2d_padding": CategoryShape,
		"pooling2d_v2": CategoryPooling, "_limit": CategoryTensor, "softmax": CategoryActivation,
		"batch_scale": CategoryNormalization, "_copy": CategoryTensor, "_shape": CategoryShape,
		"gather": CategoryTensor, "mul": CategoryTensor, "sub": CategoryTensor, "sigmoid": CategoryActivation,
		"add": CategoryTensor, "shape_index_patch": CategoryShape, "crop_nd": CategoryTensor,
		"_resize2d": CategoryTensor, "gemm": CategoryConvolution, "_reshape_v2": CategoryShape,
		"stack": CategoryTensor, "_pack": CategoryTensor, "_field": CategoryTensor, "abs": CategoryTensor,
		"_cast": CategoryTensor, "prelu": CategoryActivation,
		// DataCode layer types.
		"Linear": CategoryConvolution, "ReLU": CategoryActivation, "Sigmoid": CategoryActivation,
		"Tanh": CategoryActivation, "Softmax": CategoryActivation, "Flatten": CategoryShape,
		// Case and spacing do not matter; unknown names are "other".
		"  CONVOLUTION ": CategoryConvolution, "MyCustomOp": CategoryOther, "": CategoryOther,
	} {
		if got := CategoryOf(op); got != want {
			t.Errorf("CategoryOf(%q) = %v, want %v", op, got, want)
		}
	}
}

func TestCategoryString(t *testing.T) {
	seen := map[string]bool{}
	for c := Category(0); c < numCategories; c++ {
		s := c.String()
		if s == "" || seen[s] {
			t.Fatalf("category %d has name %q", c, s)
		}
		seen[s] = true
	}
	if Category(200).String() != "other" {
		t.Fatal("out-of-range category")
	}
}

// Header colours must carry white text (WCAG contrast ≥ 4.5) and stand out
// from both palettes' backgrounds.
func TestCategoryColoursContrast(t *testing.T) {
	for c, col := range categoryColours {
		if r := contrast(col, LightPalette().HeaderText); r < 4.5 {
			t.Errorf("%v: white text contrast %.2f", Category(c), r)
		}
		for _, pal := range []Palette{LightPalette(), DarkPalette()} {
			if r := contrast(col, pal.Background); r < 1.5 {
				t.Errorf("%v: contrast with background %v only %.2f", Category(c), pal.Background, r)
			}
		}
	}
}
