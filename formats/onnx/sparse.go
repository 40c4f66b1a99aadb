package onnx

import (
	"context"
	"fmt"

	"google.golang.org/protobuf/encoding/protowire"

	"tensorscope/formats"
	"tensorscope/tensor"
)

// sparseProto is a SparseTensorProto: values = 1 and indices = 2 (both
// TensorProtos), dims = 3 of the dense tensor.
type sparseProto struct {
	at      int64
	values  *tensorProto
	indices *tensorProto
	dims    []int
}

// maxDenseBytes bounds the dense tensor a sparse one is expanded into for
// viewing: a hostile file may claim a huge dense shape with one value.
const maxDenseBytes = 64 << 20

func parseSparse(m msg) (*sparseProto, error) {
	sp := &sparseProto{at: m.start}
	err := m.each("SparseTensorProto", func(f field) error {
		var err error
		switch f.num {
		case 1:
			if err = wantType(f, "SparseTensorProto.values", protowire.BytesType); err == nil {
				sp.values, err = parseTensorProto(m.sub(f))
			}
		case 2:
			if err = wantType(f, "SparseTensorProto.indices", protowire.BytesType); err == nil {
				sp.indices, err = parseTensorProto(m.sub(f))
			}
		case 3:
			err = m.packedOrSingle(f, "SparseTensorProto.dims", protowire.VarintType, func(v uint64) { sp.dims = append(sp.dims, dimInt(v)) })
		}
		return err
	})
	if err == nil && (sp.values == nil || sp.indices == nil) {
		err = formats.Errorf(m.start, "SparseTensorProto: expected values and indices, found %s", map[bool]string{true: "no values", false: "no indices"}[sp.values == nil])
	}
	return sp, err
}

// sparseEntry lists a sparse tensor under its values' name with the dense
// shape; loading expands it (values scattered over zeros), and the
// entry's attributes say how many values are stored.
func (b *builder) sparseEntry(sp *sparseProto, name string, role formats.Role) *formats.TensorEntry {
	if name == "" {
		name = sp.values.name
	}
	values := b.entry(sp.values, name+".values", role)
	indices := b.entry(sp.indices, name+".indices", formats.RoleConstant)
	e := &formats.TensorEntry{Name: name, DType: values.DType, Shape: sp.dims, Offset: values.Offset, NBytes: values.NBytes, Role: role}
	if e.Shape == nil {
		e.Shape = []int{}
	}
	e.Attrs = append(e.Attrs, formats.Attr{Name: "sparse", Value: fmt.Sprintf("%d stored values, indices %s", product(values.Shape), shapeOf(indices))})
	n, err := tensor.NumElements(sp.dims)
	dense := int64(n) * int64(e.DType.Size())
	switch {
	case err != nil || len(sp.dims) > maxRank:
		b.warn(sp.at, "sparse tensor %q: dense dims %v are invalid", name, sp.dims)
		e.Note = "invalid dense dims"
	case e.DType.Size() == 0:
		e.Note = "sparse " + e.DType.String() + " values cannot be expanded"
	case dense > maxDenseBytes:
		e.Note = fmt.Sprintf("the dense tensor would take %d bytes; only its %d stored values are shown as %s.values", dense, product(values.Shape), name)
		b.doc.Tensors = append(b.doc.Tensors, values)
	case !values.HasData() || !indices.HasData():
		e.Note = "the sparse values or indices are not readable"
	default:
		e.SetLoader(func(ctx context.Context) (*tensor.Tensor, error) {
			return densify(ctx, values, indices, e.DType, sp.dims, n)
		})
	}
	return e
}

func product(shape []int) int {
	n, err := tensor.NumElements(shape)
	if err != nil {
		return 0
	}
	return n
}

// densify scatters the values over a zeroed dense tensor. indices is
// [NNZ] (linear) or [NNZ, rank] (coordinates), as onnx.proto allows.
func densify(ctx context.Context, values, indices *formats.TensorEntry, dt tensor.DType, dims []int, n int) (*tensor.Tensor, error) {
	vt, err := values.Load(ctx)
	if err != nil {
		return nil, err
	}
	it, err := indices.Load(ctx)
	if err != nil {
		return nil, err
	}
	vb, err := vt.ContiguousBytes(ctx)
	if err != nil {
		return nil, err
	}
	nnz := vt.Len()
	idx := make([]float64, it.Len())
	if err := it.ReadFloat64s(0, idx); err != nil {
		return nil, err
	}
	rank := len(dims)
	var coords bool
	switch {
	case len(idx) == nnz:
	case rank > 0 && len(idx) == nnz*rank:
		coords = true
	default:
		return nil, fmt.Errorf("sparse tensor: %d indices for %d values of rank %d", len(idx), nnz, rank)
	}
	size := dt.Size()
	out := make([]byte, n*size)
	strides := tensor.RowMajorStrides(dims)
	for k := 0; k < nnz; k++ {
		pos := 0
		if coords {
			for d := 0; d < rank; d++ {
				c := int(idx[k*rank+d])
				if c < 0 || c >= dims[d] {
					return nil, fmt.Errorf("sparse tensor: value %d has coordinate %d outside dim %d of size %d", k, c, d, dims[d])
				}
				pos += c * strides[d]
			}
		} else {
			pos = int(idx[k])
		}
		if pos < 0 || pos >= n {
			return nil, fmt.Errorf("sparse tensor: value %d has index %d outside %d elements", k, pos, n)
		}
		copy(out[pos*size:(pos+1)*size], vb[k*size:(k+1)*size])
	}
	return tensor.New(tensor.NewStorage(out), 0, dt, dims)
}

func (b *builder) sparseAttr(m msg, a *attribute, n *nodeProto) (any, error) {
	var descs []string
	for i, f := range a.sparse {
		sp, err := parseSparse(m.sub(f))
		if err != nil {
			return nil, err
		}
		name := ""
		if n.op == "Constant" && a.name == "sparse_value" && len(n.outputs) > 0 {
			name = n.outputs[0]
			n.sparse = sp
		} else {
			name = fmt.Sprintf("%s.%s[%d]", n.name, a.name, i)
		}
		e := b.sparseEntry(sp, name, formats.RoleConstant)
		b.doc.Tensors = append(b.doc.Tensors, e)
		b.nameTensor(e.Name, len(b.doc.Tensors)-1, true)
		descs = append(descs, "sparse "+tensorText(e))
	}
	if len(descs) == 1 {
		return descs[0], nil
	}
	return nonNil(descs), nil
}
