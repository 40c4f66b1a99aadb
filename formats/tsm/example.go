package tsm

// ExampleNet builds a small deterministic classifier for tests, fixtures
// and demos:
//
//	input float32[1,3,8,8] → conv2d(w 4×3×3×3, pad 1) → add_bias(b 4)
//	→ relu → pooling2d(max 2×2, stride 2) → inner_prod(w 10×64) → softmax
//
// The weights follow fixed formulas, so every call returns the same bytes.
// Like the modules TenniS writes, the <const> nodes come after the nodes
// that use them, so inputs name later nodes.
func ExampleNet() *Module {
	b := NewBuilder()
	b.SetUserData([]byte("tensorscope example net"))

	x := b.Input("input", FLOAT32, 1, 3, 8, 8)
	conv := b.Node("conv2d", "conv1", nil,
		P("format", String("NCHW")),
		P("padding", Int32s([]int32{0, 0, 0, 0, 1, 1, 1, 1}, 4, 2)),
		P("padding_value", Int32(0)),
		P("stride", Int32s([]int32{1, 1, 1, 1}, 4)),
		P("dilation", Int32s([]int32{1, 1, 1, 1}, 4)))
	bias := b.Node("add_bias", "conv1_bias", nil, P("dim", Int32(1)))
	relu := b.Node("relu", "relu1", []int{bias})
	pool := b.Node("pooling2d", "pool1", []int{relu},
		P("format", String("NCHW")),
		P("type", Int32(0)),
		P("padding", Int32s(make([]int32, 8), 4, 2)),
		P("padding_type", Int32(0)),
		P("ksize", Int32s([]int32{1, 1, 2, 2}, 4)),
		P("stride", Int32s([]int32{1, 1, 2, 2}, 4)))
	fc := b.Node("inner_prod", "fc", nil, P("transpose", Bool(true)))
	prob := b.Node("softmax", "prob", []int{fc}, P("dim", Int32(1)), P("smooth", Bool(true)))

	w := b.Const("conv1_weights", Float32s(wave(4*3*3*3, 37, 0.5), 4, 3, 3, 3))
	bw := b.Const("conv1_bias_value", Float32s(wave(4, 23, 0.1), 4))
	fw := b.Const("fc_weights", Float32s(wave(10*64, 13, 0.2), 10, 64))

	b.SetInputs(conv, x, w)
	b.SetInputs(bias, conv, bw)
	b.SetInputs(fc, pool, fw)
	b.Output(prob)
	return b.Module()
}

// wave is n values in [-amp, amp] from integer arithmetic only (no
// transcendental functions, whose last bits may differ between
// platforms), so fixtures are the same bytes everywhere.
func wave(n, stride int, amp float32) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = amp * float32((i*stride+11)%97-48) / 48
	}
	return v
}
