package nn

import "tensorscope/formats"

// layerCategories says what each DataCode layer type does: the types
// ml.Sequential saves ("Linear", and the activations and Flatten it
// stores without parameters).
var layerCategories = map[string]formats.Category{
	"Linear":  formats.CategoryConvolution,
	"ReLU":    formats.CategoryActivation,
	"Sigmoid": formats.CategoryActivation,
	"Tanh":    formats.CategoryActivation,
	"Softmax": formats.CategoryActivation,
	"Flatten": formats.CategoryShape,
}

// meaningOf describes a layer: its category and, for Linear layers, the
// features in and out (unknown ones stay 0).
func meaningOf(l *layer) formats.Meaning {
	m := formats.Meaning{Category: layerCategories[l.typ]}
	if l.isLinear() {
		m.InChannels, m.OutChannels = int(max(l.in, 0)), int(max(l.out, 0))
	}
	return m
}
