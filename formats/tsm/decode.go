package tsm

import (
	"fmt"

	"tensorscope/formats"
	"tensorscope/tensor"
)

// Smallest encodings, for formats.Reader.Count's plausibility checks.
const (
	// A node needs its #op: parameter count, the name "#op", one field of
	// a 0-dim CHAR8 (1 byte), and the input count.
	minNodeSize   = 4 + (4 + 3 + 4 + 1 + 4 + 1) + 4
	minParamSize  = 8 // empty name + empty packed value
	minTensorSize = 5 // dtype + zero dims (a VOID scalar has no data)
)

// Decode parses the module at the start of data and returns it with the
// number of bytes it occupies (bytes after it are not part of the module).
// Tensor data is not copied: the module's tensors view data. Node indices
// are checked to be in range and the graph to be acyclic.
func Decode(data []byte) (*Module, int64, error) {
	r := formats.NewReader(data)
	m := &Module{}
	m.Fake = r.U32("header fake")
	m.Code = r.U32("header code")
	copy(m.User[:], r.Bytes(UserDataSize, "header user data"))
	if err := r.Err(); err != nil {
		return nil, 0, err
	}
	if m.Code != Magic {
		return nil, 0, formats.Errorf(4, "header code: expected 0x%08x (TenniS module V1), found 0x%08x", Magic, m.Code)
	}
	m.InputsOffset = r.Offset()
	m.Inputs = readIndices(r, "module inputs")
	m.OutputsOffset = r.Offset()
	m.Outputs = readIndices(r, "module outputs")
	m.NodesOffset = r.Offset()
	n := r.Count(minNodeSize, "node count")
	if r.Err() == nil {
		m.Nodes = make([]Node, n)
	}
	for i := 0; i < n && r.Err() == nil; i++ {
		readNode(r, &m.Nodes[i], i)
	}
	if err := r.Err(); err != nil {
		return nil, 0, err
	}
	if err := checkGraph(m, true); err != nil {
		return nil, 0, err
	}
	return m, r.Offset(), nil
}

func readIndices(r *formats.Reader, what string) []int {
	n := r.Count(4, what+" count")
	if r.Err() != nil {
		return nil
	}
	idx := make([]int, n)
	for i := range idx {
		idx[i] = int(r.U32(what))
	}
	return idx
}

// readNode reads one node. Reads are labelled with static strings so that
// the common path formats nothing; a failure gets the node's context added.
func readNode(r *formats.Reader, node *Node, index int) {
	node.Offset = r.Offset()
	param := ""
	defer func() {
		if e, ok := r.Err().(*formats.Error); ok {
			if param != "" {
				e.Msg = fmt.Sprintf("node %d, parameter %q: %s", index, param, e.Msg)
			} else {
				e.Msg = fmt.Sprintf("node %d: %s", index, e.Msg)
			}
		}
	}()
	np := r.Count(minParamSize, "parameter count")
	if r.Err() != nil {
		return
	}
	node.Params = make([]Param, np)
	for j := range node.Params {
		p := &node.Params[j]
		p.Offset = r.Offset()
		p.Name = readString(r, "parameter name")
		if r.Err() != nil {
			return
		}
		param = p.Name
		p.Fields = readPacked(r)
		if r.Err() != nil {
			return
		}
	}
	param = ""
	node.InputsOffset = r.Offset()
	node.Inputs = readIndices(r, "inputs")
	if r.Err() == nil {
		if err := checkOp(node); err != nil {
			r.Fail(err)
		}
	}
}

// checkOp requires the #op parameter TenniS requires: one CHAR8 field.
func checkOp(node *Node) error {
	p := node.Param(ParamOp)
	if p == nil {
		return formats.Errorf(node.Offset, "no %s parameter, which every TenniS node needs", ParamOp)
	}
	if len(p.Fields) != 1 || p.Fields[0].DType != CHAR8 {
		found := fmt.Sprintf("%d fields", len(p.Fields))
		if len(p.Fields) == 1 {
			found = describe(p.Fields[0].DType, p.Fields[0].Shape)
		}
		return formats.Errorf(p.Offset, "%s must be one CHAR8 text field, found %s", ParamOp, found)
	}
	return nil
}

func readString(r *formats.Reader, what string) string {
	n := r.Count(1, what+" length")
	return string(r.Bytes(int64(n), what))
}

func readPacked(r *formats.Reader) []Tensor {
	n := r.Count(minTensorSize, "packed field count")
	if r.Err() != nil {
		return nil
	}
	fields := make([]Tensor, n)
	for k := range fields {
		readTensor(r, &fields[k])
		if e, ok := r.Err().(*formats.Error); ok {
			if n > 1 {
				e.Msg = fmt.Sprintf("field %d: %s", k, e.Msg)
			}
			return nil
		}
	}
	return fields
}

func readTensor(r *formats.Reader, t *Tensor) {
	at := r.Offset()
	t.DType = DType(r.U8("tensor dtype"))
	size, ok := t.DType.Size()
	if r.Err() == nil && !ok {
		r.Failf(at, "unknown tensor dtype code %d (TenniS defines 0..32), so its data cannot be skipped", uint8(t.DType))
		return
	}
	ndims := r.Count(4, "tensor dims")
	if r.Err() != nil {
		return
	}
	shapeAt := r.Offset()
	t.Shape = make([]int, ndims)
	for i := range t.Shape {
		d := r.I32("tensor shape")
		if d < 0 && r.Err() == nil {
			r.Failf(shapeAt+int64(4*i), "tensor dimension %d is negative (%d)", i, d)
		}
		t.Shape[i] = int(d)
	}
	if r.Err() != nil {
		return
	}
	elems, err := tensor.NumElements(t.Shape)
	if err != nil {
		r.Failf(shapeAt, "tensor shape: %v", err)
		return
	}
	t.Offset = r.Offset()
	// elems ≤ 2^48 and size ≤ 16, so the product cannot overflow.
	t.Data = r.Bytes(int64(elems)*int64(size), "tensor data")
	if e, ok := r.Err().(*formats.Error); ok {
		e.Msg = fmt.Sprintf("%s: %s", describe(t.DType, t.Shape), e.Msg)
	}
}
