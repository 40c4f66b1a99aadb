package tmfile

import (
	"encoding/binary"
	"strings"

	"tensorscope/formats"
)

// opMeaning is an operator's row of op-meaning.tsv: its category and the
// names of the param fields that hold the facts of formats.Meaning. The
// names are resolved to fields once, at init.
type opMeaning struct {
	Category                 formats.Category
	Kernel, Stride, Dilation []string
	Groups, In, Out          string
	Activation, Variant      string

	kernel, stride, dilation []*paramField
	groups, in, out          *paramField
	activation, variant      *paramField
}

// resolve points the meaning at the fields of info it names. The generator
// has checked that each name is an integer field of the operator.
func (m *opMeaning) resolve(info *opInfo) {
	list := func(names []string) []*paramField {
		out := make([]*paramField, 0, len(names))
		for _, n := range names {
			out = append(out, info.field(n))
		}
		return out
	}
	m.kernel, m.stride, m.dilation = list(m.Kernel), list(m.Stride), list(m.Dilation)
	one := func(name string) *paramField {
		if name == "" {
			return nil
		}
		return info.field(name)
	}
	m.groups, m.in, m.out = one(m.Groups), one(m.In), one(m.Out)
	m.activation, m.variant = one(m.Activation), one(m.Variant)
}

// fusedActivations names the values of a convolution's activation field
// as Tengine's kernels apply them: below 0 none, 0 ReLU, 1 ReLU clipped at
// 1, 6 ReLU clipped at 6.
var fusedActivations = map[int64]string{0: "relu", 1: "relu1", 6: "relu6"}

// Meaning describes the operator in the terms every format shares, from
// its row of op-meaning.tsv and the param fields stored in the file.
// Fields the stored struct is too short to hold are left unknown.
func (op *Operator) Meaning() formats.Meaning {
	info := lookupOp(op.Type)
	if info == nil {
		return formats.Meaning{}
	}
	m := &info.Meaning
	out := formats.Meaning{Category: m.Category}
	// One backing array for the three spatial lists: a model has tens of
	// thousands of convolutions.
	spatial := make([]int, 0, len(m.kernel)+len(m.stride)+len(m.dilation))
	out.Kernel, spatial = op.intList(m.kernel, spatial)
	out.Stride, spatial = op.intList(m.stride, spatial)
	out.Dilation, _ = op.intList(m.dilation, spatial)
	out.Groups = int(op.positive(m.groups))
	out.InChannels = int(op.positive(m.in))
	out.OutChannels = int(op.positive(m.out))
	if v, ok := op.intField(m.activation); ok {
		out.FusedActivation = fusedActivations[v]
	}
	if v, ok := op.intField(m.variant); ok && m.variant.enum != nil {
		out.Variant = m.variant.enum[v]
	}
	return out
}

// intField reads an integer param field; false when the operator has no
// such field or the stored struct is too short to hold it.
func (op *Operator) intField(f *paramField) (int64, bool) {
	if f == nil || f.At+f.Type.size() > len(op.Param) {
		return 0, false
	}
	u := binary.LittleEndian.Uint32(op.Param[f.At:])
	if f.Type == fieldU32 {
		return int64(u), true
	}
	return int64(int32(u)), true
}

// positive is the field's value when it is above zero, else 0 (unknown).
func (op *Operator) positive(f *paramField) int64 {
	if v, ok := op.intField(f); ok && v > 0 {
		return v
	}
	return 0
}

// intList appends a list of spatial fields to buf and returns them (nil
// when any is missing) and buf.
func (op *Operator) intList(fields []*paramField, buf []int) (list, rest []int) {
	if len(fields) == 0 {
		return nil, buf
	}
	start := len(buf)
	for _, f := range fields {
		v, ok := op.intField(f)
		if !ok {
			return nil, buf[:start]
		}
		buf = append(buf, int(v))
	}
	return buf[start:len(buf):len(buf)], buf
}

// scopeOf is the scope in a node's name. Tengine's converters name a node
// after the Caffe layers fused into it, joined by '-'
// ("conv2_1/expand-conv2_1/expand/bn-relu2_1/expand"); the first is the
// node's own layer, whose '/' path ("conv2_1/expand") is its scope
// ([conv2_1]). Weights are named after their layer ("conv2_1/expand/weight").
func scopeOf(name string) []string {
	if i := strings.IndexByte(name, '-'); i > 0 {
		name = name[:i]
	}
	return formats.PathScope(name, '/')
}
