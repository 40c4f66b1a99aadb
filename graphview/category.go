package graphview

// Category says what a node does, for colouring. It knows no format: the
// viewmodel maps each document node's normalised meaning onto it.
type Category uint8

const (
	CategoryOther Category = iota
	// CategoryConvolution: convolutions and the other weighted layers
	// (fully connected, matrix products, recurrent cells, embeddings).
	CategoryConvolution
	CategoryActivation
	CategoryPooling
	CategoryNormalization // batch/instance/layer norm, LRN, scale, dropout
	CategoryShape         // reshape, flatten, transpose, squeeze, …
	CategoryTensor        // element-wise arithmetic, concat, split, slice, resize, …
	CategoryInput
	CategoryOutput
	CategoryConstant
	CategoryControlFlow  // nodes that run subgraphs: conditionals and loops
	CategoryQuantization // quantise, dequantise, requantise
	numCategories
)

// categoryNames are also the CSS classes of SVG exports, so they have no
// spaces.
var categoryNames = [numCategories]string{
	"other", "convolution", "activation", "pooling", "normalization",
	"shape", "tensor", "input", "output", "constant", "control-flow", "quantization",
}

func (c Category) String() string {
	if c < numCategories {
		return categoryNames[c]
	}
	return "other"
}
