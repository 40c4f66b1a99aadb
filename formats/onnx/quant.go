package onnx

import (
	"context"
	"strings"

	"tensorscope/formats"
	"tensorscope/tensor"
)

// maxQuantParams bounds the scales and zero points read at open: they are
// per tensor or per channel, so real ones are short.
const maxQuantParams = 1 << 16

// quantTriples says where a quantising operator keeps (tensor, scale,
// zero point) triples among its inputs. QLinearConv, QLinearMatMul,
// QLinearAdd, QLinearMul and QGemm share the layout A, A_scale, A_zp, B,
// B_scale, B_zp; DequantizeLinear has x, x_scale, x_zero_point.
func quantTriples(op string) [][3]int {
	switch {
	case op == "DequantizeLinear", op == "QuantizeLinear":
		return [][3]int{{0, 1, 2}}
	case op == "QLinearConv", op == "QLinearMatMul", op == "QLinearAdd", op == "QLinearMul", op == "QGemm":
		return [][3]int{{0, 1, 2}, {3, 4, 5}}
	}
	return nil
}

// markQuantised gives integer initializers that feed a quantising
// operator their scale and zero point, so that the inspector can show them
// dequantised; and float initializers that feed a QuantizeLinear (QDQ
// "fake-quant" weights) theirs and the integer type they are rounded to,
// so that it can show the values the model computes with. Scales and zero
// points are read from their initializers at open: they are a few bytes
// each.
func (b *builder) markQuantised(gp *graphProto) {
	for _, n := range gp.nodes {
		for _, tr := range quantTriples(n.op) {
			if tr[1] >= len(n.inputs) {
				continue
			}
			q := b.tensorEntry(n.inputs[tr[0]])
			scale := b.tensorEntry(n.inputs[tr[1]])
			if q == nil || scale == nil || q.Quant != nil || !scale.DType.IsFloat() || !quantisable(n.op, q) {
				continue
			}
			var zp *formats.TensorEntry
			if tr[2] < len(n.inputs) && n.inputs[tr[2]] != "" {
				if zp = b.tensorEntry(n.inputs[tr[2]]); zp == nil {
					continue // a zero point computed at run time
				}
			}
			b.setQuant(q, scale, zp, n)
		}
	}
}

// quantisable: QuantizeLinear rounds float weights; the other operators
// read integers.
func quantisable(op string, q *formats.TensorEntry) bool {
	if op == "QuantizeLinear" {
		return q.DType.IsFloat()
	}
	return q.DType.IsInteger()
}

func (b *builder) tensorEntry(name string) *formats.TensorEntry {
	id, ok := b.names[name]
	if name == "" || !ok {
		return nil
	}
	if t := b.tensorNamed(id); t != noName {
		return b.doc.Tensors[t]
	}
	return nil
}

func (b *builder) setQuant(q, scale, zp *formats.TensorEntry, n *nodeProto) {
	scales := readSmall(scale)
	if len(scales) == 0 {
		return
	}
	quant := &formats.Quant{Scales: scales, Axis: -1}
	if zp != nil {
		for _, z := range readSmall(zp) {
			quant.ZeroPoints = append(quant.ZeroPoints, int64(z))
		}
	}
	if len(scales) > 1 {
		quant.Axis = quantAxis(q.Shape, len(scales), n)
		if quant.Axis < 0 {
			b.warn(-1, "tensor %q: %d scales match no axis of shape %v", q.Name, len(scales), q.Shape)
			return
		}
	}
	if n.op == "QuantizeLinear" {
		quant.Target = quantizeTarget(zp, n)
		if !quant.Target.Valid() {
			b.warn(-1, "tensor %q: QuantizeLinear %q rounds to a type that is not an integer; not marked quantised", q.Name, n.name)
			return
		}
	}
	q.Quant = quant
	q.Attrs = append(q.Attrs, formats.Attr{Name: "quantised by", Value: n.op + " " + n.name})
	// A float scale is a quantisation parameter, not a trained weight: the
	// graph view must not call it the bias of the weight beside it.
	if scale.Role == formats.RoleWeight {
		scale.Role = formats.RoleConstant
	}
}

// readSmall reads a scale or zero-point initializer's values, or nil when
// it is absent, unreadable, implausibly long, or in an external file
// (which opening never maps).
func readSmall(e *formats.TensorEntry) []float64 {
	if !e.HasData() || e.Offset < 0 || product(e.Shape) > maxQuantParams {
		return nil
	}
	t, err := e.Load(context.Background())
	if err != nil {
		return nil
	}
	out := make([]float64, t.Len())
	if err := t.ReadFloat64s(0, out); err != nil {
		return nil
	}
	return out
}

// quantAxis is the axis per-channel parameters run along: the node's axis
// attribute (DequantizeLinear, default 1), else 0 for convolution weights
// and the last axis for matrix operands, else the only axis whose size
// matches.
func quantAxis(shape []int, channels int, n *nodeProto) int {
	rank := len(shape)
	want := -1
	switch {
	case n.op == "DequantizeLinear", n.op == "QuantizeLinear":
		want = 1
		for _, a := range n.attrs {
			if v, ok := a.Value.(int64); ok && a.Name == "axis" {
				want = int(v)
			}
		}
		if want < 0 {
			want += rank
		}
	case strings.HasSuffix(n.op, "Conv"):
		want = 0
	default:
		want = rank - 1
	}
	if want >= 0 && want < rank && shape[want] == channels {
		return want
	}
	for i, d := range shape {
		if d == channels {
			return i
		}
	}
	return -1
}

// quantizeTarget is the type QuantizeLinear rounds to: its zero point's,
// else its output_dtype attribute (opset 21), else uint8 as onnx.proto
// says; Invalid when that is not an integer type (float8 outputs).
func quantizeTarget(zp *formats.TensorEntry, n *nodeProto) tensor.DType {
	if zp != nil {
		return integerOnly(zp.DType)
	}
	for _, a := range n.attrs {
		if v, ok := a.Value.(int64); ok && a.Name == "output_dtype" && v != dtUndefined {
			return integerOnly(dtypeOf(v))
		}
	}
	return tensor.Uint8
}

func integerOnly(dt tensor.DType) tensor.DType {
	if dt.IsInteger() {
		return dt
	}
	return tensor.Invalid
}
