package synth

import (
	"math"
	"math/rand/v2"

	"tensorscope/formats"
	"tensorscope/formats/tmfile"
)

// Demo returns the small convolutional network the viewer opens when it
// starts without a file: an MNIST-sized classifier with a residual join,
// whose weights are deterministic but structured (Gabor filters, smooth
// blobs and bands) so that heatmaps of them show patterns rather than noise.
//
//	input 1×1×28×28 → conv1 3×3 (8 Gabor filters) → relu1 → pool1 2×2
//	  ├→ conv2 3×3 (16) → relu2 ─┐
//	  └→ skip 1×1 (16) ──────────┴→ add (Eltwise SUM) → pool2 2×2
//	→ flatten → fc1 (64) → relu3 → fc2 (10) → prob (Softmax)
func Demo() *tmfile.Model {
	rng := rand.New(rand.NewPCG(28, 0xde30))
	noise := func(w []float32, amp float64) []float32 {
		for i := range w {
			w[i] += float32(rng.NormFloat64() * amp)
		}
		return w
	}
	b := tmfile.NewBuilder(1, "Tensorscope demo CNN")
	conv := func(name string, x int, k, in, out, pad int, w, bias []float32, hw int32) int {
		wt := b.Const(name+".weight", []int32{int32(out), int32(in), int32(k), int32(k)}, w)
		bt := b.Const(name+".bias", []int32{int32(out)}, bias)
		return b.Op(name, "Convolution", []formats.Attr{
			{Name: "kernel_h", Value: k}, {Name: "kernel_w", Value: k},
			{Name: "stride_h", Value: 1}, {Name: "stride_w", Value: 1},
			{Name: "dilation_h", Value: 1}, {Name: "dilation_w", Value: 1},
			{Name: "input_channel", Value: in}, {Name: "output_channel", Value: out},
			{Name: "group", Value: 1}, {Name: "activation", Value: -1},
			{Name: "pad_h0", Value: pad}, {Name: "pad_w0", Value: pad},
			{Name: "pad_h1", Value: pad}, {Name: "pad_w1", Value: pad},
		}, []int32{1, int32(out), hw, hw}, x, wt, bt)
	}
	relu := func(name string, x int, dims []int32) int {
		return b.Op(name, "ReLu", []formats.Attr{{Name: "negative_slope", Value: 0.0}}, dims, x)
	}
	pool := func(name string, x int, dims []int32) int {
		return b.Op(name, "Pooling", []formats.Attr{
			{Name: "alg", Value: 0}, {Name: "kernel_h", Value: 2}, {Name: "kernel_w", Value: 2},
			{Name: "stride_h", Value: 2}, {Name: "stride_w", Value: 2},
		}, dims, x)
	}
	fc := func(name string, x, in, out int, w, bias []float32) int {
		wt := b.Const(name+".weight", []int32{int32(out), int32(in)}, w)
		bt := b.Const(name+".bias", []int32{int32(out)}, bias)
		return b.Op(name, "FullyConnected", []formats.Attr{{Name: "num_output", Value: out}},
			[]int32{1, int32(out)}, x, wt, bt)
	}

	x := b.Input("input", []int32{1, 1, 28, 28})
	x = conv("conv1", x, 3, 1, 8, 1, gabor(8), noise(make([]float32, 8), 0.02), 28)
	x = relu("relu1", x, []int32{1, 8, 28, 28})
	p1 := pool("pool1", x, []int32{1, 8, 14, 14})
	y := conv("conv2", p1, 3, 8, 16, 1, noise(blobs(16, 8, 3, rng), 0.01), noise(make([]float32, 16), 0.02), 14)
	y = relu("relu2", y, []int32{1, 16, 14, 14})
	s := conv("skip", p1, 1, 8, 16, 0, noise(projection(16, 8), 0.02), make([]float32, 16), 14)
	add := b.Op("add", "Eltwise", []formats.Attr{{Name: "type", Value: 2}, {Name: "caffe_flavor", Value: 1}},
		[]int32{1, 16, 14, 14}, y, s)
	p2 := pool("pool2", add, []int32{1, 16, 7, 7})
	flat := b.Op("flatten", "Flatten", []formats.Attr{{Name: "axis", Value: 1}, {Name: "end_axis", Value: 3}},
		[]int32{1, 784}, p2)
	h := fc("fc1", flat, 784, 64, noise(fields(64, 16, 7, rng), 0.005), noise(make([]float32, 64), 0.02))
	h = relu("relu3", h, []int32{1, 64})
	o := fc("fc2", h, 64, 10, noise(bands(10, 64), 0.02), noise(make([]float32, 10), 0.02))
	prob := b.Op("prob", "Softmax", []formats.Attr{{Name: "axis", Value: 1}}, []int32{1, 10}, o)
	b.Output(prob)
	m, err := b.Model()
	if err != nil {
		panic(err) // the network above is fixed: an error is a bug here
	}
	return m
}

// gabor returns n 3×3 Gabor filters at evenly spaced orientations: edge
// and bar detectors like the first layer of a trained CNN.
func gabor(n int) []float32 {
	w := make([]float32, 0, n*9)
	for k := 0; k < n; k++ {
		theta := math.Pi * float64(k) / float64(n)
		psi := 0.0
		if k%2 == 1 {
			psi = math.Pi / 2 // odd filters are edge detectors, even ones bars
		}
		for y := -1; y <= 1; y++ {
			for x := -1; x <= 1; x++ {
				xr := float64(x)*math.Cos(theta) + float64(y)*math.Sin(theta)
				yr := -float64(x)*math.Sin(theta) + float64(y)*math.Cos(theta)
				g := math.Exp(-(xr*xr+0.5*yr*yr)/1.6) * math.Cos(2*math.Pi*xr/3+psi)
				w = append(w, float32(0.6*g))
			}
		}
	}
	return w
}

// blobs returns out×in k×k kernels, each a Gaussian bump of random sign and
// centre: smooth, spatially coherent filters.
func blobs(out, in, k int, rng *rand.Rand) []float32 {
	w := make([]float32, 0, out*in*k*k)
	c := float64(k-1) / 2
	for o := 0; o < out; o++ {
		for i := 0; i < in; i++ {
			amp := 0.25 * rng.NormFloat64()
			cx, cy := c+rng.Float64()-0.5, c+rng.Float64()-0.5
			for y := 0; y < k; y++ {
				for x := 0; x < k; x++ {
					d := (float64(x)-cx)*(float64(x)-cx) + (float64(y)-cy)*(float64(y)-cy)
					w = append(w, float32(amp*math.Exp(-d/1.5)))
				}
			}
		}
	}
	return w
}

// projection is a 1×1 convolution from in to out channels that mostly
// copies channel o%in, as a trained residual projection tends to.
func projection(out, in int) []float32 {
	w := make([]float32, out*in)
	for o := 0; o < out; o++ {
		w[o*in+o%in] = 0.8
		w[o*in+(o+1)%in] = -0.2
	}
	return w
}

// fields returns out rows of ch×hw×hw weights: unit u looks at a Gaussian
// receptive field whose centre walks over the feature map, through a few
// channels, so a heatmap of the matrix shows diagonal structure.
func fields(out, ch, hw int, rng *rand.Rand) []float32 {
	w := make([]float32, 0, out*ch*hw*hw)
	for u := 0; u < out; u++ {
		cx, cy := float64(u%hw), float64((u/hw)%hw)
		sign := 1.0
		if u%3 == 2 {
			sign = -1
		}
		for c := 0; c < ch; c++ {
			gain := sign * 0.08 * math.Cos(2*math.Pi*float64(c+u)/float64(ch))
			if rng.IntN(4) == 0 {
				gain = 0 // sparse channel use
			}
			for y := 0; y < hw; y++ {
				for x := 0; x < hw; x++ {
					d := (float64(x)-cx)*(float64(x)-cx) + (float64(y)-cy)*(float64(y)-cy)
					w = append(w, float32(gain*math.Exp(-d/4)))
				}
			}
		}
	}
	return w
}

// bands returns an out×in matrix of smooth cosine bands, one frequency per
// class.
func bands(out, in int) []float32 {
	w := make([]float32, 0, out*in)
	for o := 0; o < out; o++ {
		for i := 0; i < in; i++ {
			w = append(w, float32(0.3*math.Cos(2*math.Pi*float64((o+1)*i)/float64(in)+float64(o))))
		}
	}
	return w
}
