package formats

// Category is what a node does, normalised across formats. Codecs fill it
// in from their own operator tables; views colour and describe nodes by it
// and never by a format's operator names.
type Category uint8

const (
	CategoryOther         Category = iota
	CategoryConvolution            // convolutions and other weighted layers: linear, Gemm, MatMul, RNN cells, embeddings
	CategoryActivation             // ReLU, Sigmoid, Softmax, …
	CategoryPooling                // max/average/global pooling, ROI pooling
	CategoryNormalization          // batch/layer/instance norm, LRN, scale, dropout
	CategoryShape                  // reshape, flatten, transpose, squeeze, …
	CategoryTensor                 // element-wise arithmetic, concat, split, slice, resize, gather, …
	CategoryInput                  // produces a graph input
	CategoryOutput                 // marks a graph output
	CategoryConstant               // produces a constant or weight
	CategoryControlFlow            // If, Loop, Scan and other nodes with subgraphs
	CategoryQuantization           // quantise, dequantise, requantise
	NumCategories
)

var categoryNames = [NumCategories]string{
	"other", "convolution", "activation", "pooling", "normalization",
	"shape", "tensor", "input", "output", "constant", "control flow", "quantization",
}

func (c Category) String() string {
	if c < NumCategories {
		return categoryNames[c]
	}
	return "other"
}

// Meaning is a node's normalised meaning, filled in by its codec: what
// kind of operator it is and the facts every format spells differently.
// Zero values mean "unknown" or "not applicable".
type Meaning struct {
	Category Category
	Kernel   []int // spatial kernel size, e.g. [3 3]
	Stride   []int
	Dilation []int
	Groups   int
	// InChannels and OutChannels are channels for convolutions and
	// features for linear layers.
	InChannels  int
	OutChannels int
	// FusedActivation names an activation folded into the node ("relu",
	// "relu6"); "" when there is none.
	FusedActivation string
	// Variant names the flavour of an operator that covers several, as the
	// format spells it (a pooling's "MAX" or "AVG"); "" when the operator
	// name says it all.
	Variant string
	// Scope is where the node lives in the model's hierarchy, outermost
	// first ([model, layers.0, self_attn] for a torch.onnx.export name
	// /model/layers.0/self_attn/q_proj/MatMul); empty at the top level.
	// Views group nodes by it.
	Scope []string
}

// Subgraph is a graph nested in a node (the branches of If, the body of
// Loop or Scan), named by the attribute that holds it.
type Subgraph struct {
	Name  string
	Graph *Graph
}
