package tsm

import (
	"reflect"
	"testing"

	"tensorscope/formats"
)

func TestMeaningOfExampleNet(t *testing.T) {
	doc := decodeDoc(t, encodeUnchecked(t, ExampleNet()))
	byName := map[string]formats.Meaning{}
	for _, n := range doc.Graph.Nodes {
		byName[n.Name] = n.Meaning
	}
	for name, want := range map[string]formats.Meaning{
		"input": {Category: formats.CategoryInput},
		"conv1": {Category: formats.CategoryConvolution, Kernel: []int{3, 3}, Stride: []int{1, 1}, Dilation: []int{1, 1},
			InChannels: 3, OutChannels: 4}, // from the weight, 4×3×3×3
		"conv1_bias":    {Category: formats.CategoryTensor},
		"relu1":         {Category: formats.CategoryActivation},
		"pool1":         {Category: formats.CategoryPooling, Kernel: []int{2, 2}, Stride: []int{2, 2}},
		"fc":            {Category: formats.CategoryConvolution},
		"prob":          {Category: formats.CategoryActivation},
		"conv1_weights": {Category: formats.CategoryConstant},
	} {
		if got := byName[name]; !reflect.DeepEqual(got, want) {
			t.Errorf("%s: meaning %+v, want %+v", name, got, want)
		}
	}
}

func TestMeaningSpatialLayout(t *testing.T) {
	attrs := func(format string) []formats.Attr {
		return []formats.Attr{{Name: "format", Value: format},
			{Name: "ksize", Value: []int64{1, 3, 5, 1}}, {Name: "stride", Value: []int64{1, 1, 2, 2}}}
	}
	nhwc := meaningOf("pooling2d", attrs("NHWC"))
	if !reflect.DeepEqual(nhwc.Kernel, []int{3, 5}) || !reflect.DeepEqual(nhwc.Stride, []int{1, 2}) {
		t.Errorf("NHWC: kernel %v stride %v, want [3 5] [1 2]", nhwc.Kernel, nhwc.Stride)
	}
	nchw := meaningOf("pooling2d", attrs("NCHW"))
	if !reflect.DeepEqual(nchw.Kernel, []int{5, 1}) || !reflect.DeepEqual(nchw.Stride, []int{2, 2}) {
		t.Errorf("NCHW: kernel %v stride %v, want [5 1] [2 2]", nchw.Kernel, nchw.Stride)
	}
	if c := meaningOf("_reshape_v2", nil).Category; c != formats.CategoryShape {
		t.Errorf("_reshape_v2 is %v, want shape (the underscore marks TenniS's internal ops)", c)
	}
	if c := meaningOf("MyCustomOp", nil).Category; c != formats.CategoryOther {
		t.Errorf("an unknown op is %v", c)
	}
}

// Every operator of the real modules has a category.
func TestMeaningOfSampleOps(t *testing.T) {
	for _, op := range []string{"<const>", "<param>", "_cast", "_copy", "_field", "_limit", "_onnx_pooling2d_padding",
		"_pack", "_reshape", "_reshape_v2", "_resize2d", "_shape", "_transpose", "abs", "add", "add_bias",
		"batch_norm", "batch_scale", "concat", "conv2d", "crop_nd", "depthwise_conv2d", "flatten", "gather", "gemm",
		"inner_prod", "mul", "pooling2d", "pooling2d_v2", "relu", "shape_index_patch", "sigmoid", "softmax", "stack",
		"sub", "to_float", "prelu"} {
		if c := opCategory(op); c == formats.CategoryOther {
			t.Errorf("%s has no category", op)
		}
	}
}
