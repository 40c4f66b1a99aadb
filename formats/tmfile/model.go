package tmfile

// Model is a tmfile in memory: what Decode reads and Encode writes. It holds
// the file's first (and in practice only) subgraph flattened into the model.
// Slices that Decode fills may share memory with the decoded bytes (Buffer
// data, Param bytes); Encode never modifies a Model.
//
// An empty string means "absent" (offset 0) for every name; Encode writes
// names with a trailing NUL, as Tengine does.
type Model struct {
	VerMain, VerSub, VerCompile uint16

	OrigFormat int32 // framework the model was converted from (see FormatName)
	SubFormat  int32 // sub format for DLA models
	Name       string

	SubgraphID   uint32
	GraphLayout  int32 // 0 NCHW, 1 NHWC
	ModelLayout  int32
	SubgraphName string
	Inputs       []uint32 // node indices of the graph inputs
	Outputs      []uint32 // node indices of the graph outputs

	Nodes   []Node
	Tensors []Tensor
	Buffers []Buffer

	// SubInfo is the device partitioning some converters append
	// (TM2_Sub_Info); empty when the file has none or it cannot be trusted.
	SubInfo []SubInfo
}

// Node is a TM2_Node with its operator.
type Node struct {
	ID           uint32
	Name         string
	Inputs       []uint32 // tensor indices
	Outputs      []uint32 // tensor indices
	Op           Operator
	DynamicShape bool
	Attrs        []NodeAttr // TM2_Attr entries (offset_vo_attrs); rare
}

// Operator is a TM2_Operator: the operator type and its param struct.
type Operator struct {
	Version uint32 // op_ver; it does not tell the param layout apart
	Type    uint32 // operator id (0..107, see OpName)
	// Param is the param struct exactly as stored: its true size is the
	// distance from the struct to its TM2_Operator, which older writers
	// make shorter than the newest layout. nil when the op has none.
	Param []byte
	// Refs are the vectors and strings that offset fields inside Param point
	// to; Encode writes them and patches Param's offset fields to match.
	Refs []ParamRef
}

// RefKind says what an offset field inside a param struct points to.
type RefKind uint8

const (
	RefNone    RefKind = iota
	RefDims            // TM2_Vector_dims: int32 values
	RefFloats          // TM2_Vector_floats
	RefAnchors         // TM2_Vector_anchors: 4 floats (x0, y0, x1, y1) per anchor
	RefString          // TM2_String
)

// ParamRef is the object one offset field of a param struct points to.
type ParamRef struct {
	At     int // byte position of the offset field inside Operator.Param
	Kind   RefKind
	Ints   []int32   // RefDims
	Floats []float32 // RefFloats, RefAnchors (flattened, 4 per anchor)
	Str    string    // RefString
}

// NodeAttr is a TM2_Attr: a free-form name/value pair attached to a node.
type NodeAttr struct {
	Name  string
	Value string
	Type  int32
}

// Tensor is a TM2_Tensor.
type Tensor struct {
	ID       uint32
	BufferID uint32 // index into Buffers; meaningful for CONST tensors only
	Name     string
	Dims     []int32 // nil when the file has no dims vector
	Quant    []QuantParam
	Layout   int32 // 0 NCHW, 1 NHWC; often junk in real files, kept as stored
	Type     int32 // TypeVar, TypeConst, ...
	DataType int32 // DataFP32, DataFP16, ...
}

// Tensor types (TM2_Tensor.type).
const (
	TypeUnknown int32 = 0
	TypeVar     int32 = 1 // computed at run time
	TypeConst   int32 = 2 // weights and other constants; owns a buffer
	TypeInput   int32 = 3 // fed by the caller
	TypeDep     int32 = 4 // dependency only: orders nodes, carries no data
)

// Data types (TM2_Tensor.data_type).
const (
	DataFP32  int32 = 0
	DataFP16  int32 = 1
	DataInt8  int32 = 2
	DataUint8 int32 = 3
	DataInt32 int32 = 4
	DataInt16 int32 = 5
)

// Layouts (TM2_Tensor.layout, TM2_Subgraph.graph_layout/model_layout).
const (
	LayoutNCHW int32 = 0
	LayoutNHWC int32 = 1
)

// QuantParam is a TM2_QuantParam. One per tensor quantises it per tensor;
// several quantise it per channel along dimension 0.
type QuantParam struct {
	ZeroPoint int32
	Scale     float32
	Width     int32 // junk in real files; kept as stored
}

// Buffer is a TM2_Buffer: the data of one CONST tensor.
type Buffer struct {
	Size uint32
	// Data is nil when the file holds no data for the buffer (offset 0, as
	// in Tengine's "benchmark" files); otherwise len(Data) == Size.
	Data []byte
}

// SubInfo is a TM2_Sub_Info: one device partition of the graph.
type SubInfo struct {
	ID             uint32
	InputWaitCount uint32
	DataType       int32
	Nodes          []uint32
	InputTensors   []uint32
	OutputTensors  []uint32
	Device         string
}
