package tsm

// Magic is the header code of TenniS module format V1 (bytes 29 09 91 19).
const Magic uint32 = 0x19910929

// UserDataSize is the length of the header's user-defined area.
const UserDataSize = 120

// Module is a TenniS module exactly as stored: decoding then encoding a
// module reproduces its bytes. Offsets are positions in the data the
// module was decoded from, and are meaningless for built modules.
type Module struct {
	Fake uint32 // reserved word at byte 0
	Code uint32 // format code; Magic for every known file
	User [UserDataSize]byte

	Inputs  []int // node indices of the module's inputs
	Outputs []int // node indices of the module's outputs
	Nodes   []Node

	InputsOffset  int64
	OutputsOffset int64
	NodesOffset   int64 // offset of the node count
}

// Node is a bubble (its parameters) plus the indices of its input nodes.
// A node has exactly one output, so node index and output are the same
// thing; inputs may name later nodes.
type Node struct {
	Params []Param
	Inputs []int

	Offset       int64 // start of the bubble
	InputsOffset int64 // the input count
}

// Param is one named parameter of a bubble; its value is a packed tensor,
// almost always of one field.
type Param struct {
	Name   string
	Fields []Tensor

	Offset int64 // the name's length word
}

// Tensor is one field of a packed value: a prototype and its raw bytes.
type Tensor struct {
	DType DType
	Shape []int
	Data  []byte // a view of the decoded data (not a copy); len = elements × size

	Offset int64 // position of Data (the prototype precedes it)
}

// Reserved parameter names.
const (
	ParamOp          = "#op"
	ParamName        = "#name"
	ParamShape       = "#shape"
	ParamDType       = "#dtype"
	ParamOutputCount = "#output_count"
)

// Special operators.
const (
	OpParam = "<param>" // a graph input
	OpConst = "<const>" // a constant held in the "value" parameter
	OpVar   = "<var>"   // a variable, also held in "value"
)

// Param returns the first parameter named name, or nil.
func (n *Node) Param(name string) *Param {
	for i := range n.Params {
		if n.Params[i].Name == name {
			return &n.Params[i]
		}
	}
	return nil
}

// Op is the #op string ("" when absent or not text).
func (n *Node) Op() string { return n.text(ParamOp) }

// Name is the #name string ("" when absent or not text).
func (n *Node) Name() string { return n.text(ParamName) }

func (n *Node) text(param string) string {
	p := n.Param(param)
	if p == nil || len(p.Fields) != 1 || p.Fields[0].DType != CHAR8 {
		return ""
	}
	return string(p.Fields[0].Data)
}

// Elements is the number of elements of the field's shape.
func (t *Tensor) Elements() int {
	n := 1
	for _, d := range t.Shape {
		n *= d
	}
	return n
}
