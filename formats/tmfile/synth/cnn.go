package synth

import (
	"fmt"
	"math/rand/v2"

	"tensorscope/formats"
	"tensorscope/formats/tmfile"
)

// Sizes in nodes (Const nodes included) of the pieces CNN is made of.
const (
	stemNodes     = 1 + 3 + 5 + 1 // input, conv (+weight, bias), batch norm (+4 consts), relu
	residualNodes = 19            // 2 × (conv 3 + bn 5) + relu + eltwise + relu
	branchNodes   = 12            // 2 branches of conv 3 + relu, concat, 1×1 conv 3
	headNodes     = 5             // global pool, fully connected (+2 consts), softmax
)

// CNN returns a ResNet-like model of exactly nodes nodes (at least 1): a
// stem, then residual blocks (conv, batch norm, relu, conv, batch norm, an
// Eltwise SUM joining the block's input, relu) with every fourth block an
// Inception-style pair of branches joined by a Concat, and a classifier
// head; ReLUs before the head make up the count. Every tensor is
// [1,16,32,32] fp32 inside the body. With withWeights false the buffers keep
// their sizes but hold no data, like Tengine's benchmark files, so that a
// 50,000-node model stays a few megabytes.
func CNN(nodes int, withWeights bool) *tmfile.Model {
	c := &cnnBuilder{
		b:       tmfile.NewBuilder(1, fmt.Sprintf("synthetic CNN, %d nodes", nodes)),
		rng:     rand.New(rand.NewPCG(uint64(nodes), 0x5eed)),
		weights: withWeights,
	}
	if nodes < 1 {
		nodes = 1
	}
	x := c.b.Input("data", c.dims())
	left := nodes - 1
	if left < stemNodes-1+headNodes {
		for i := 0; i < left; i++ {
			x = c.b.Op(fmt.Sprintf("relu%d", i), "ReLu", nil, c.dims(), x)
		}
		c.b.Output(x)
		return c.model()
	}
	x = c.convBNReLU("stem", x, 3)
	left -= stemNodes - 1 + headNodes
	for block := 0; ; block++ {
		if block%4 == 3 && left >= branchNodes {
			x = c.branches(fmt.Sprintf("mix%d", block), x)
			left -= branchNodes
			continue
		}
		if left < residualNodes {
			break
		}
		x = c.residual(fmt.Sprintf("res%d", block), x)
		left -= residualNodes
	}
	for i := 0; i < left; i++ {
		x = c.b.Op(fmt.Sprintf("tail_relu%d", i), "ReLu", nil, c.dims(), x)
	}
	c.head(x)
	return c.model()
}

const (
	channels = 16
	size     = 32
	classes  = 10
)

type cnnBuilder struct {
	b       *tmfile.Builder
	rng     *rand.Rand
	weights bool
}

func (c *cnnBuilder) dims() []int32 { return []int32{1, channels, size, size} }

func (c *cnnBuilder) model() *tmfile.Model {
	m, err := c.b.Model()
	if err != nil {
		// Every call above is fixed by this file: an error is a bug here.
		panic(err)
	}
	return m
}

// param returns n values with the spread of a He-initialised layer, or nil
// without weights.
func (c *cnnBuilder) param(n int, scale float64) []float32 {
	if !c.weights {
		return nil
	}
	out := make([]float32, n)
	for i := range out {
		out[i] = float32(c.rng.NormFloat64() * scale)
	}
	return out
}

func (c *cnnBuilder) constant(name string, dims []int32, scale float64) int {
	n := 1
	for _, d := range dims {
		n *= int(d)
	}
	return c.b.Const(name, dims, c.param(n, scale))
}

func (c *cnnBuilder) conv(name string, x, k, in, out int) int {
	w := c.constant(name+".weight", []int32{int32(out), int32(in), int32(k), int32(k)}, 1/float64(in*k*k))
	bias := c.constant(name+".bias", []int32{int32(out)}, 0.01)
	pad := int64(k / 2)
	attrs := []formats.Attr{
		{Name: "kernel_h", Value: k}, {Name: "kernel_w", Value: k},
		{Name: "stride_h", Value: 1}, {Name: "stride_w", Value: 1},
		{Name: "dilation_h", Value: 1}, {Name: "dilation_w", Value: 1},
		{Name: "input_channel", Value: in}, {Name: "output_channel", Value: out},
		{Name: "group", Value: 1}, {Name: "activation", Value: -1},
		{Name: "pad_h0", Value: pad}, {Name: "pad_w0", Value: pad},
		{Name: "pad_h1", Value: pad}, {Name: "pad_w1", Value: pad},
	}
	return c.b.Op(name, "Convolution", attrs, []int32{1, int32(out), size, size}, x, w, bias)
}

func (c *cnnBuilder) batchNorm(name string, x int) int {
	d := []int32{channels}
	gamma := c.constant(name+".gamma", d, 0.1)
	beta := c.constant(name+".beta", d, 0.1)
	mean := c.constant(name+".mean", d, 0.1)
	variance := c.constant(name+".var", d, 0.1)
	attrs := []formats.Attr{{Name: "rescale_factor", Value: 1.0}, {Name: "eps", Value: 1e-5}, {Name: "caffe_flavor", Value: 0}}
	return c.b.Op(name, "BatchNormalization", attrs, c.dims(), x, gamma, beta, mean, variance)
}

func (c *cnnBuilder) relu(name string, x int) int {
	return c.b.Op(name, "ReLu", []formats.Attr{{Name: "negative_slope", Value: 0.0}}, c.dims(), x)
}

func (c *cnnBuilder) convBNReLU(name string, x, k int) int {
	x = c.conv(name+"_conv", x, k, channels, channels)
	x = c.batchNorm(name+"_bn", x)
	return c.relu(name+"_relu", x)
}

func (c *cnnBuilder) residual(name string, in int) int {
	x := c.convBNReLU(name+"_a", in, 3)
	x = c.conv(name+"_b_conv", x, 3, channels, channels)
	x = c.batchNorm(name+"_b_bn", x)
	sum := c.b.Op(name+"_add", "Eltwise",
		[]formats.Attr{{Name: "type", Value: 2}, {Name: "caffe_flavor", Value: 1}}, c.dims(), x, in)
	return c.relu(name+"_relu", sum)
}

func (c *cnnBuilder) branches(name string, in int) int {
	a := c.relu(name+"_1x1_relu", c.conv(name+"_1x1", in, 1, channels, channels))
	b := c.relu(name+"_3x3_relu", c.conv(name+"_3x3", in, 3, channels, channels))
	cat := c.b.Op(name+"_concat", "Concat", []formats.Attr{{Name: "axis", Value: 1}},
		[]int32{1, 2 * channels, size, size}, a, b)
	return c.conv(name+"_reduce", cat, 1, 2*channels, channels)
}

func (c *cnnBuilder) head(x int) {
	pool := c.b.Op("pool", "Pooling", []formats.Attr{
		{Name: "alg", Value: 1}, {Name: "kernel_h", Value: size}, {Name: "kernel_w", Value: size},
		{Name: "stride_h", Value: 1}, {Name: "stride_w", Value: 1}, {Name: "global", Value: 1},
	}, []int32{1, channels, 1, 1}, x)
	w := c.constant("fc.weight", []int32{classes, channels}, 1/float64(channels))
	bias := c.constant("fc.bias", []int32{classes}, 0.01)
	fc := c.b.Op("fc", "FullyConnected", []formats.Attr{{Name: "num_output", Value: classes}},
		[]int32{1, classes}, pool, w, bias)
	prob := c.b.Op("prob", "Softmax", []formats.Attr{{Name: "axis", Value: 1}}, []int32{1, classes}, fc)
	c.b.Output(prob)
}
