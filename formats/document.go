package formats

import (
	"context"
	"fmt"
	"sync"

	"tensorscope/tensor"
)

// Document is what a codec makes of a file: enough to show every pane
// without touching tensor data, which is read lazily through TensorEntry.Load.
type Document struct {
	Path       string // as opened; "" for in-memory documents
	Format     string // registry id: "tsr", "tsr3", "tsr4", "nn", "tmfile", "tsm", "csta"
	FormatName string // human name, e.g. "Tengine tmfile"
	Version    string // the file's own version, e.g. "2.0.0"
	Size       int64  // file size in bytes

	// Header lists the fixed header fields in file order; HeaderSpan is the
	// byte range the header pane shows in hex.
	Header     []HeaderField
	HeaderSpan Span

	Metadata *Meta // may be nil
	Tables   []Table
	Plots    []Plot
	Tensors  []*TensorEntry
	Graph    *Graph // nil for formats without a graph
	Warnings []Warning

	data    []byte          // the whole file, usually memory-mapped
	storage *tensor.Storage // owns data

	shardMu sync.Mutex
	shards  []*Shard          // further files, mapped on first use
	owned   []*tensor.Storage // closed with the shards (see Own)

	life lifetime // users of the mapped bytes; see Acquire and Close

	remote bool // read with range requests (see IsRemote)
}

// Remote reports whether the document was opened from a URL.
func (d *Document) Remote() bool { return d.remote }

// Bytes returns the whole file's bytes (read-only; usually a mapping).
func (d *Document) Bytes() []byte { return d.data }

// Storage returns the storage the document's tensors view.
func (d *Document) Storage() *tensor.Storage { return d.storage }

// Tensor returns the entry named name, or nil. Names are compared exactly;
// when names repeat the first wins.
func (d *Document) Tensor(name string) *TensorEntry {
	for _, t := range d.Tensors {
		if t.Name == name {
			return t
		}
	}
	return nil
}

// Warn records an anomaly that does not stop reading.
func (d *Document) Warn(offset int64, format string, args ...any) {
	d.Warnings = append(d.Warnings, Warning{Offset: offset, Message: fmt.Sprintf(format, args...)})
}

// Span is a byte range of the file.
type Span struct {
	Offset int64
	Len    int64
}

// HeaderField is one fixed field: `dtype @16, 4 bytes, 1, "FP32"`.
type HeaderField struct {
	Name    string
	Offset  int64
	Size    int
	Value   any    // the raw value as stored: integer, float, string or []byte
	Meaning string // decoded meaning, "" when the raw value says it all
}

// Warning is an anomaly that did not stop reading. Offset is -1 when the
// anomaly has no single place in the file.
type Warning struct {
	Offset  int64
	Message string
}

func (w Warning) String() string {
	if w.Offset < 0 {
		return w.Message
	}
	return fmt.Sprintf("at byte %d: %s", w.Offset, w.Message)
}

// Role says what a tensor is to its model.
type Role string

const (
	RoleData       Role = "data"       // the payload of a plain tensor file
	RoleWeight     Role = "weight"     // a trained parameter
	RoleConstant   Role = "constant"   // a constant that is not a trained parameter
	RoleInput      Role = "input"      // a graph input
	RoleActivation Role = "activation" // computed at run time; no data in the file
	RoleVariable   Role = "variable"
	RoleUnknown    Role = "unknown"
	RoleDerived    Role = "derived" // computed from another tensor of the file (a quantised tensor's scales)
)

// Quant holds quantisation parameters: real = scale·(q − zero point), per
// tensor (one entry) or per channel along Axis.
type Quant struct {
	Scales     []float64
	ZeroPoints []int64
	Axis       int
	// Target is the integer type a float tensor is quantised to when the
	// model runs (ONNX QuantizeLinear on a float weight): the stored values
	// are floats, and q = round(value/scale) + zero point saturated to
	// Target. Invalid when the stored values are the integers q.
	Target tensor.DType
}

// TensorEntry describes one tensor of a document and loads its data on demand.
type TensorEntry struct {
	Name   string
	DType  tensor.DType
	Shape  []int
	Offset int64 // byte offset of the stored data in the file; -1 when the file holds none
	NBytes int64 // bytes the data occupies in the file (compressed size when compressed)
	Role   Role
	Quant  *Quant
	// Attrs are further facts: layout, compression, checksum, source
	// node... Read them through Attributes, which adds those a codec
	// computes on demand (SetAttrSource).
	Attrs []Attr
	Note  string // why there is no data, or other one-line remark
	// TypeName names the element type when the tensor core has no dtype for
	// it (NumPy's "<U5", a structured record); DType is then Invalid.
	TypeName string

	load   func(ctx context.Context) (*tensor.Tensor, error)
	text   func(flat int) (string, error) // see SetText
	once   sync.Mutex
	cached *tensor.Tensor
	remote *Document // set for a remote document's entries: see loadRemote
	more   AttrSource
}

// AttrSource computes attributes of a tensor when they are asked for. A
// codec that lists very many tensors whose facts all follow from what it
// keeps anyway (an .npz of 100,000 arrays: six attributes each, 24 MB)
// hands them over this way instead of holding them in Attrs.
type AttrSource interface {
	// AppendAttrs appends the attributes to dst.
	AppendAttrs(dst []Attr) []Attr
}

// SetAttrSource installs s, whose attributes follow Attrs in Attributes.
func (e *TensorEntry) SetAttrSource(s AttrSource) { e.more = s }

// Attributes returns the tensor's attributes: Attrs, then those of its
// AttrSource (computed anew on each call). Do not modify the result: it
// is Attrs itself when there is no source.
func (e *TensorEntry) Attributes() []Attr {
	if e.more == nil {
		return e.Attrs
	}
	return e.AppendAttributes(make([]Attr, 0, len(e.Attrs)+8))
}

// AppendAttributes appends the tensor's attributes to dst (Attributes
// into a buffer the caller reuses).
func (e *TensorEntry) AppendAttributes(dst []Attr) []Attr {
	dst = append(dst, e.Attrs...)
	if e.more != nil {
		dst = e.more.AppendAttrs(dst)
	}
	return dst
}

// SetLoader installs the function that produces the tensor's data. Codecs
// call it; a nil loader means the file holds no data for this tensor.
func (e *TensorEntry) SetLoader(load func(ctx context.Context) (*tensor.Tensor, error)) {
	e.load = load
}

// HasData reports whether the tensor's values are in the file.
func (e *TensorEntry) HasData() bool { return e.load != nil }

// Load returns the tensor's values, decoding (and for compressed files
// decompressing, checking CRCs) on first use, with memory faults turned
// into tensor.ErrFault. Successful results are cached.
func (e *TensorEntry) Load(ctx context.Context) (*tensor.Tensor, error) {
	if e.load == nil {
		msg := "the file holds no data for this tensor"
		if e.Note != "" {
			msg = e.Note
		}
		return nil, fmt.Errorf("tensor %q: %s", e.Name, msg)
	}
	e.once.Lock()
	defer e.once.Unlock()
	if e.remote != nil {
		return e.loadRemote(ctx)
	}
	if e.cached != nil {
		return e.cached, nil
	}
	var t *tensor.Tensor
	err := tensor.CatchFault(func() (err error) {
		t, err = e.load(ctx)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("tensor %q: %w", e.Name, err)
	}
	e.cached = t
	return t, nil
}

// Attr is a named, typed value: a node attribute, a tensor fact. Value holds
// one of nil, bool, int64, float64, string, []int64, []float64, []string,
// []bool, Enum, or Bytes.
type Attr struct {
	Name  string
	Value any
}

// Enum is an integer that has a name (pooling MAX, eltwise SUM, ONNX...).
type Enum struct {
	Value int64
	Name  string
}

func (e Enum) String() string {
	if e.Name == "" {
		return fmt.Sprint(e.Value)
	}
	return e.Name
}

// Bytes is raw data shown as hex (opaque parameters, user bytes).
type Bytes []byte

// Table is a titled grid the metadata pane shows as is (the .nn architecture,
// per-operator counts).
type Table struct {
	Title   string
	Columns []string
	Rows    [][]string
}

// Plot is a titled set of curves over a shared x axis (training histories).
type Plot struct {
	Title  string
	XLabel string
	YLabel string
	Series []Series
}

// Series is one curve; X is implicit 1..len(Y) when nil.
type Series struct {
	Name string
	X    []float64
	Y    []float64
}
