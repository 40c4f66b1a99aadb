package tmfile_test

import (
	"reflect"
	"testing"

	"tensorscope/formats"
	"tensorscope/formats/tmfile"
)

// TestMeaningOfMNIST checks the normalised meaning the codec gives the
// nodes of a real file, field by field against its decoded params.
func TestMeaningOfMNIST(t *testing.T) {
	doc, _ := openSample(t, "tengine_mnist.tmfile")
	byName := map[string]formats.Meaning{}
	for _, n := range doc.Graph.Nodes {
		byName[n.Name] = n.Meaning
	}
	for name, want := range map[string]formats.Meaning{
		"conv1.0.weight": {Category: formats.CategoryConstant},
		"images":         {Category: formats.CategoryInput},
		// input_channel is stored right here; Conv_4's weight is [32,16,3,3].
		"Conv_0": {Category: formats.CategoryConvolution, Kernel: []int{3, 3}, Stride: []int{1, 1}, Dilation: []int{1, 1},
			Groups: 1, InChannels: 1, OutChannels: 8, FusedActivation: "relu"},
		"Conv_4": {Category: formats.CategoryConvolution, Kernel: []int{3, 3}, Stride: []int{2, 2}, Dilation: []int{1, 1},
			Groups: 1, InChannels: 16, OutChannels: 32, FusedActivation: "relu"},
		"MaxPool_6": {Category: formats.CategoryPooling, Kernel: []int{2, 2}, Stride: []int{2, 2}, Variant: "MAX"},
		"Reshape_8": {Category: formats.CategoryShape},
		"Gemm_9":    {Category: formats.CategoryConvolution, OutChannels: 128},
		"Relu_10":   {Category: formats.CategoryActivation},
	} {
		if got := byName[name]; !reflect.DeepEqual(got, want) {
			t.Errorf("%s: meaning %+v, want %+v", name, got, want)
		}
	}
}

// Writers often leave input_channel at 1; the weight's shape says what the
// convolution really takes, as Tengine itself recomputes it.
func TestMeaningInChannelsFromWeight(t *testing.T) {
	b := tmfile.NewBuilder(1, "")
	x := b.Input("data", []int32{1, 4, 8, 8})
	w := b.Const("w", []int32{6, 2, 3, 3}, make([]float32, 6*2*3*3))
	conv := b.Op("conv", "Convolution", []formats.Attr{
		{Name: "kernel_h", Value: 3}, {Name: "kernel_w", Value: 3}, {Name: "input_channel", Value: 1},
		{Name: "output_channel", Value: 6}, {Name: "group", Value: 2}, {Name: "activation", Value: -1},
	}, []int32{1, 6, 6, 6}, x, w)
	b.Output(conv)
	m, err := b.Model()
	if err != nil {
		t.Fatal(err)
	}
	data, err := tmfile.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := formats.DecodeAs("tmfile", "conv", data)
	if err != nil {
		t.Fatal(err)
	}
	got := doc.Graph.Nodes[len(doc.Graph.Nodes)-1].Meaning
	if got.InChannels != 4 || got.OutChannels != 6 || got.Groups != 2 || got.FusedActivation != "" {
		t.Errorf("meaning %+v, want 4 → 6 channels in 2 groups, no fused activation", got)
	}
}

// Every operator of the table has a category; "other" is kept for
// detection post-processing and the like.
func TestEveryOperatorHasACategory(t *testing.T) {
	other := map[string]bool{"Accuracy": true, "DetectionOutput": true, "PriorBox": true, "Region": true,
		"RPN": true, "DetectionPostProcess": true, "Generic": true, "SpatialTransformer": true}
	for id := uint32(0); id < tmfile.NumOps; id++ {
		name := tmfile.OpName(id)
		if _, ok := tmfile.OpID(name); !ok {
			continue
		}
		op, err := tmfile.NewOperator(name)
		if err != nil {
			t.Fatal(err)
		}
		if c := op.Meaning().Category; (c == formats.CategoryOther) != other[name] {
			t.Errorf("%s: category %v", name, c)
		}
	}
}
