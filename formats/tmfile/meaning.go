package tmfile

import (
	"encoding/binary"

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
	out.Kernel = op.intList(m.kernel)
	out.Stride = op.intList(m.stride)
	out.Dilation = op.intList(m.dilation)
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

// intList reads a list of spatial fields, or nil when any is missing.
func (op *Operator) intList(fields []*paramField) []int {
	if len(fields) == 0 {
		return nil
	}
	out := make([]int, len(fields))
	for i, f := range fields {
		v, ok := op.intField(f)
		if !ok {
			return nil
		}
		out[i] = int(v)
	}
	return out
}
