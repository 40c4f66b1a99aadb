package tflite

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"tensorscope/formats"
	"tensorscope/formats/tflite/internal/tfl"
	"tensorscope/tensor"
)

// maxRank bounds the dims of a tensor shown; TFLite kernels take at most 6.
const maxRank = 16

// dtypes maps TensorType to the tensor core's types. STRING, RESOURCE and
// VARIANT have none (strings are read as text).
var dtypes = map[tfl.TensorType]tensor.DType{
	tfl.TensorTypeFLOAT32: tensor.Float32, tfl.TensorTypeFLOAT16: tensor.Float16,
	tfl.TensorTypeINT32: tensor.Int32, tfl.TensorTypeUINT8: tensor.Uint8,
	tfl.TensorTypeINT64: tensor.Int64, tfl.TensorTypeBOOL: tensor.Bool,
	tfl.TensorTypeINT16: tensor.Int16, tfl.TensorTypeCOMPLEX64: tensor.Complex64,
	tfl.TensorTypeINT8: tensor.Int8, tfl.TensorTypeFLOAT64: tensor.Float64,
	tfl.TensorTypeCOMPLEX128: tensor.Complex128, tfl.TensorTypeUINT64: tensor.Uint64,
	tfl.TensorTypeUINT32: tensor.Uint32, tfl.TensorTypeUINT16: tensor.Uint16,
	tfl.TensorTypeINT4: tensor.Int4, tfl.TensorTypeBFLOAT16: tensor.BFloat16,
	tfl.TensorTypeINT2: tensor.Int2, tfl.TensorTypeUINT4: tensor.Uint4,
	tfl.TensorTypeFLOAT8_E4M3FN: tensor.Float8E4M3FN, tfl.TensorTypeFLOAT8_E5M2: tensor.Float8E5M2,
}

// stringTypeName is how a STRING tensor's element type is listed: NumPy
// holds strings in arrays of dtype object, as the other codecs name them.
const stringTypeName = "object"

// bufferSpan is where a buffer's bytes lie: inside the flatbuffer (data),
// or after it (offset/size, models over 2 GB). ok is false for an empty
// or absent buffer.
func (d *decoder) bufferSpan(index uint32) (off, size int64, where string, err error) {
	if index == 0 || int(index) >= d.nbuffers {
		if int(index) >= d.nbuffers && index != 0 {
			return 0, 0, "", fmt.Errorf("buffer %d does not exist: the model has %d", index, d.nbuffers)
		}
		return 0, 0, "", nil
	}
	var b tfl.Buffer
	d.model.Buffers(&b, int(index))
	// The Buffer table lies beside its data, megabytes from the rest of
	// the flatbuffer: its fields are read through d.words (see farWords),
	// not through the generated accessors. The verifier has checked them.
	pos := uint64(b.Table().Pos)
	if at := d.bufferField(pos, 0); at != 0 { // data: [ubyte]
		vec := at + uint64(d.words.u32(at))
		return int64(vec + 4), int64(d.words.u32(vec)), "data", nil
	}
	var o, n uint64
	if at := d.bufferField(pos, 1); at != 0 { // offset: ulong
		o = d.words.u64(at)
	}
	if at := d.bufferField(pos, 2); at != 0 { // size: ulong
		n = d.words.u64(at)
	}
	if o > 1 {
		if o > uint64(len(d.buf)) || n > uint64(len(d.buf))-o {
			return 0, 0, "", fmt.Errorf("buffer %d: offset %d and size %d reach past the end of the file (size %d)", index, o, n, len(d.buf))
		}
		return int64(o), int64(n), "offset", nil
	}
	return 0, 0, "", nil
}

// bufferField is the file offset of field id of the Buffer table at pos,
// or 0 when the table leaves it out.
func (d *decoder) bufferField(pos uint64, id int) uint64 {
	vt := uint64(int64(pos) - int64(int32(d.words.u32(pos))))
	slot := uint64(4 + 2*id)
	if slot+2 > uint64(d.words.u16(vt)) {
		return 0
	}
	if fo := d.words.u16(vt + slot); fo != 0 {
		return pos + uint64(fo)
	}
	return 0
}

// tensorName is the tensor's listed name before any sgN/ prefix.
func tensorName(t *tfl.Tensor, i int) string {
	if n := t.Name(); len(n) > 0 {
		return text(n)
	}
	return "#" + strconv.Itoa(i)
}

// tensors lists every tensor with a non-empty buffer, in every subgraph.
// Names that repeat across subgraphs get "sgN/" in subgraph N > 0.
func (d *decoder) tensors() {
	d.tensorOf = make([][]int, d.nsub)
	type listed struct {
		sg, i int
		name  string
	}
	var all []listed
	seenIn := map[string]int{} // name → first subgraph listing it
	repeated := map[string]bool{}
	var sg tfl.SubGraph
	var t tfl.Tensor
	for s := 0; s < d.nsub; s++ {
		d.model.Subgraphs(&sg, s)
		n := sg.TensorsLength()
		d.tensorOf[s] = make([]int, n)
		for i := 0; i < n; i++ {
			d.tensorOf[s][i] = -1
			sg.Tensors(&t, i)
			_, size, _, err := d.bufferSpan(t.Buffer())
			if err != nil {
				d.warn(tableOf(t.Table()), "subgraph %d tensor %d %q: %v", s, i, tensorName(&t, i), err)
				continue
			}
			if size == 0 {
				continue
			}
			name := tensorName(&t, i)
			if first, ok := seenIn[name]; !ok {
				seenIn[name] = s
			} else if first != s {
				repeated[name] = true
			}
			all = append(all, listed{s, i, name})
		}
	}
	d.doc.Tensors = make([]*formats.TensorEntry, 0, len(all))
	for _, l := range all {
		d.model.Subgraphs(&sg, l.sg)
		sg.Tensors(&t, l.i)
		name := l.name
		if l.sg > 0 && repeated[name] {
			name = "sg" + strconv.Itoa(l.sg) + "/" + name
		}
		d.tensorOf[l.sg][l.i] = len(d.doc.Tensors)
		d.doc.Tensors = append(d.doc.Tensors, d.entry(&t, name, l.sg, l.i))
	}
}

// shapeOf reads a tensor's shape; ok is false when a dim is negative.
func shapeOf(t *tfl.Tensor) ([]int, bool) {
	n := t.ShapeLength()
	shape := make([]int, n)
	ok := true
	for j := range shape {
		shape[j] = int(t.Shape(j))
		if shape[j] < 0 {
			ok = false
		}
	}
	return shape, ok
}

// signatureText spells shape_signature with its unknown dims as "?".
func signatureText(t *tfl.Tensor) string {
	n := t.ShapeSignatureLength()
	parts := make([]string, n)
	for j := range parts {
		if v := t.ShapeSignature(j); v < 0 {
			parts[j] = "?"
		} else {
			parts[j] = strconv.Itoa(int(v))
		}
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// entry makes the document entry of tensor i of subgraph sg, which has a
// non-empty buffer.
func (d *decoder) entry(t *tfl.Tensor, name string, sg, i int) *formats.TensorEntry {
	at := tableOf(t.Table())
	off, size, where, _ := d.bufferSpan(t.Buffer())
	typ := t.Type()
	shape, shapeOK := shapeOf(t)
	e := &formats.TensorEntry{Name: name, DType: dtypes[typ], Shape: shape, Offset: off, NBytes: size, Role: formats.RoleConstant}
	e.Attrs = []formats.Attr{
		{Name: "tflite type", Value: formats.Enum{Value: int64(typ), Name: tfl.EnumNamesTensorType[typ]}},
		{Name: "subgraph", Value: int64(sg)},
		{Name: "tensor index", Value: int64(i)},
		{Name: "buffer", Value: int64(t.Buffer())},
	}
	if where == "offset" {
		e.Attrs = append(e.Attrs, formats.Attr{Name: "storage", Value: "outside the flatbuffer (buffer offset/size)"})
	}
	if t.ShapeSignatureLength() > 0 {
		e.Attrs = append(e.Attrs, formats.Attr{Name: "shape_signature", Value: signatureText(t)})
	}
	if t.IsVariable() {
		e.Role = formats.RoleVariable
		e.Attrs = append(e.Attrs, formats.Attr{Name: "is_variable", Value: true})
	}
	switch {
	case !shapeOK || len(shape) > maxRank:
		d.warn(at, "tensor %q: shape %v is not a valid shape", name, shape)
		e.Note = "invalid shape"
		return e
	case typ == tfl.TensorTypeSTRING:
		d.stringEntry(e, off, size)
		return e
	case e.DType == tensor.Invalid:
		e.TypeName = strings.ToLower(tfl.EnumNamesTensorType[typ])
		if e.TypeName == "" {
			e.TypeName = "type " + strconv.Itoa(int(typ))
		}
		e.Note = "the viewer cannot show " + e.TypeName + " values"
		return e
	}
	if e.DType.IsFloat() {
		e.Role = formats.RoleWeight
	}
	d.quant(t, e)
	var sp tfl.SparsityParameters
	if t.Sparsity(&sp) != nil {
		d.sparseEntry(e, &sp, off, size)
		return e
	}
	n, err := tensor.NumElements(shape)
	if err != nil {
		d.warn(at, "tensor %q: shape %v: %v", name, shape, err)
		e.Note = "invalid shape"
		return e
	}
	need, err := tensor.StorageBytes(e.DType, int64(n))
	switch {
	case err != nil:
		e.Note = err.Error()
		return e
	case size < need:
		d.warn(off, "tensor %q: its buffer %d holds %d bytes, shape %v of %s needs %d", name, t.Buffer(), size, shape, e.DType, need)
		e.Note = fmt.Sprintf("the buffer is %d bytes short of the shape", need-size)
		return e
	case size > need:
		d.warn(off, "tensor %q: its buffer %d holds %d bytes, shape %v of %s needs only %d; the rest is ignored", name, t.Buffer(), size, shape, e.DType, need)
	}
	st, dt := d.src.Storage, e.DType
	e.SetLoader(func(context.Context) (*tensor.Tensor, error) { return tensor.New(st, off, dt, shape) })
	return e
}

// quant reads scale and zero_point, per tensor or per channel along
// quantized_dimension, for integer tensors; blockwise quantisation is
// described in the attributes.
func (d *decoder) quant(t *tfl.Tensor, e *formats.TensorEntry) {
	var q tfl.QuantizationParameters
	if t.Quantization(&q) == nil {
		return
	}
	at := tableOf(q.Table())
	if dt := q.DetailsType(); dt != tfl.QuantizationDetailsNONE {
		ta := tableAt(d.buf, uint64(at), d.schema.tables["QuantizationParameters"])
		if f := d.schema.tables["QuantizationParameters"].field("details"); f != nil {
			if u := ta.at(f); u != 0 && int(dt) <= len(f.typ.union.members) {
				sub := tableAt(d.buf, ta.deref(u), f.typ.union.members[dt-1])
				desc := []string{}
				for _, a := range sub.attrs() {
					desc = append(desc, a.Name+" "+fmt.Sprint(a.Value))
				}
				e.Attrs = append(e.Attrs, formats.Attr{Name: "quantisation", Value: f.typ.union.names[dt-1] + ": " + strings.Join(desc, ", ")})
			}
		}
		return
	}
	ns := q.ScaleLength()
	if ns == 0 {
		return
	}
	if !e.DType.IsInteger() {
		return
	}
	quant := &formats.Quant{Scales: make([]float64, ns), Axis: -1}
	for j := 0; j < ns; j++ {
		quant.Scales[j] = float64(q.Scale(j))
	}
	nz := q.ZeroPointLength()
	switch {
	case nz == ns || nz == 1:
		quant.ZeroPoints = make([]int64, ns)
		for j := range quant.ZeroPoints {
			quant.ZeroPoints[j] = q.ZeroPoint(min(j, nz-1))
		}
	case nz == 0:
	default:
		d.warn(at, "tensor %q: %d zero points for %d scales; not marked quantised", e.Name, nz, ns)
		return
	}
	if ns > 1 {
		ax := int(q.QuantizedDimension())
		if len(e.Shape) == 1 && e.Shape[0] == ns {
			// Converters give a depthwise bias the weight's dimension (3).
			ax = 0
		}
		if ax < 0 || ax >= len(e.Shape) || e.Shape[ax] != ns {
			d.warn(at, "tensor %q: %d scales along quantized_dimension %d of shape %v do not match; not marked quantised", e.Name, ns, ax, e.Shape)
			return
		}
		quant.Axis = ax
	}
	e.Quant = quant
	e.Role = formats.RoleWeight
	if e.DType == tensor.Int32 {
		e.Role = formats.RoleConstant // biases: scale = input scale · weight scale
	}
}
