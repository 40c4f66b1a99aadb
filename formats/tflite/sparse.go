package tflite

import (
	"context"
	"encoding/binary"
	"fmt"
	"strings"
	"sync"

	flatbuffers "github.com/google/flatbuffers/go"

	"tensorscope/formats"
	"tensorscope/formats/tflite/internal/tfl"
	"tensorscope/tensor"
)

// maxDenseBytes bounds the dense tensor a sparse one is expanded into: a
// hostile file may claim a huge dense shape for a few values.
const maxDenseBytes = 64 << 20

// sparsity is a tensor's SparsityParameters as read at open.
type sparsity struct {
	order    []int
	blockMap []int
	levels   []sparseLevel
}

type sparseLevel struct {
	dense    bool
	size     int
	segments []int
	indices  []int
}

func readIndexVector(typ tfl.SparseIndexVector, tab *flatbuffers.Table) []int {
	var out []int
	switch typ {
	case tfl.SparseIndexVectorInt32Vector:
		var v tfl.Int32Vector
		v.Init(tab.Bytes, tab.Pos)
		out = make([]int, v.ValuesLength())
		for j := range out {
			out[j] = int(v.Values(j))
		}
	case tfl.SparseIndexVectorUint16Vector:
		var v tfl.Uint16Vector
		v.Init(tab.Bytes, tab.Pos)
		out = make([]int, v.ValuesLength())
		for j := range out {
			out[j] = int(v.Values(j))
		}
	case tfl.SparseIndexVectorUint8Vector:
		var v tfl.Uint8Vector
		v.Init(tab.Bytes, tab.Pos)
		out = make([]int, v.ValuesLength())
		for j := range out {
			out[j] = int(v.Values(j))
		}
	}
	return out
}

func readSparsity(sp *tfl.SparsityParameters) *sparsity {
	s := &sparsity{}
	for j := 0; j < sp.TraversalOrderLength(); j++ {
		s.order = append(s.order, int(sp.TraversalOrder(j)))
	}
	for j := 0; j < sp.BlockMapLength(); j++ {
		s.blockMap = append(s.blockMap, int(sp.BlockMap(j)))
	}
	var dm tfl.DimensionMetadata
	var tab flatbuffers.Table
	for j := 0; j < sp.DimMetadataLength(); j++ {
		sp.DimMetadata(&dm, j)
		l := sparseLevel{dense: dm.Format() == tfl.DimensionTypeDENSE, size: int(dm.DenseSize())}
		if !l.dense {
			if dm.ArraySegments(&tab) {
				l.segments = readIndexVector(dm.ArraySegmentsType(), &tab)
			}
			if dm.ArrayIndices(&tab) {
				l.indices = readIndexVector(dm.ArrayIndicesType(), &tab)
			}
		}
		s.levels = append(s.levels, l)
	}
	return s
}

func (s *sparsity) describe() string {
	var parts []string
	for _, l := range s.levels {
		if l.dense {
			parts = append(parts, fmt.Sprintf("DENSE %d", l.size))
		} else {
			parts = append(parts, fmt.Sprintf("SPARSE_CSR %d indices", len(l.indices)))
		}
	}
	desc := fmt.Sprintf("traversal order %v, %s", s.order, strings.Join(parts, ", "))
	if len(s.blockMap) > 0 {
		desc += fmt.Sprintf(", block map %v", s.blockMap)
	}
	return desc
}

// sparseEntry shows a sparse tensor densified: its buffer holds the
// stored values in traversal order, which loading scatters over zeros.
func (d *decoder) sparseEntry(e *formats.TensorEntry, sp *tfl.SparsityParameters, off, size int64) {
	s := readSparsity(sp)
	e.Attrs = append(e.Attrs, formats.Attr{Name: "sparse", Value: "densified for viewing; " + s.describe()})
	n, err := tensor.NumElements(e.Shape)
	es := e.DType.Size()
	switch {
	case err != nil:
		e.Note = "invalid dense shape"
		return
	case es == 0:
		e.Note = "sparse " + e.DType.String() + " values cannot be densified"
		return
	case int64(n)*int64(es) > maxDenseBytes:
		e.Note = fmt.Sprintf("the dense tensor would take %d bytes; it is not densified", int64(n)*int64(es))
		return
	}
	if err := s.check(e.Shape); err != nil {
		d.warn(tableOf(sp.Table()), "sparse tensor %q: %v", e.Name, err)
		e.Note = "invalid sparsity parameters: " + err.Error()
		return
	}
	e.Note = fmt.Sprintf("sparse: %d stored bytes densified into %d values", size, n)
	data, dt, shape := d.buf, e.DType, e.Shape
	var once sync.Once
	var dense *tensor.Storage
	var derr error
	e.SetLoader(func(context.Context) (*tensor.Tensor, error) {
		once.Do(func() {
			var out []byte
			err := tensor.CatchFault(func() (err error) {
				out, err = s.densify(data[off:off+size], es, shape)
				return err
			})
			dense, derr = tensor.NewStorage(out), err
		})
		if derr != nil {
			return nil, derr
		}
		return tensor.New(dense, 0, dt, shape)
	})
}

// check validates the parameters against the dense shape.
func (s *sparsity) check(shape []int) error {
	rank := len(shape)
	k := len(s.blockMap)
	if len(s.order) != rank+k || len(s.levels) != rank+k {
		return fmt.Errorf("traversal order of %d and %d dim metadata for rank %d with %d block dims", len(s.order), len(s.levels), rank, k)
	}
	seen := make([]bool, rank+k)
	for _, o := range s.order {
		if o < 0 || o >= rank+k || seen[o] {
			return fmt.Errorf("traversal order %v is not a permutation", s.order)
		}
		seen[o] = true
	}
	for _, b := range s.blockMap {
		if b < 0 || b >= rank {
			return fmt.Errorf("block map %v names a dim outside rank %d", s.blockMap, rank)
		}
	}
	for _, l := range s.levels {
		if l.dense && (l.size < 0 || l.size > 1<<24) {
			return fmt.Errorf("dense size %d", l.size)
		}
	}
	return nil
}

// densify walks the levels in traversal order as TFLite's format converter
// does, placing each stored value at its dense position.
func (s *sparsity) densify(values []byte, es int, shape []int) ([]byte, error) {
	rank := len(shape)
	k := len(s.blockMap)
	block := make([]int, rank) // block size per dense dim (1 when not blocked)
	for d := range block {
		block[d] = 1
	}
	for j, dim := range s.blockMap {
		block[dim] = s.levels[s.orderIndex(rank+j)].size
		if block[dim] <= 0 {
			return nil, fmt.Errorf("block dim %d has size %d", j, block[dim])
		}
	}
	n := 1
	for _, x := range shape {
		n *= x
	}
	out := make([]byte, n*es)
	strides := tensor.RowMajorStrides(shape)
	idx := make([]int, rank+k)
	nv := len(values) / es
	next := 0
	visits, maxVisits := 0, 4*n+1024
	var walk func(level, prev int) error
	walk = func(level, prev int) error {
		if visits++; visits > maxVisits {
			return fmt.Errorf("the sparsity parameters walk more than %d positions for %d dense values", maxVisits, n)
		}
		if level == rank+k {
			pos := 0
			for d := 0; d < rank; d++ {
				c := 0
				for l, o := range s.order {
					if o == d {
						c += idx[l] * block[d]
					} else if o >= rank && s.blockMap[o-rank] == d {
						c += idx[l]
					}
				}
				if c < 0 || c >= shape[d] {
					return fmt.Errorf("a stored value falls at index %d of dim %d of size %d", c, d, shape[d])
				}
				pos += c * strides[d]
			}
			if next >= nv {
				return fmt.Errorf("the buffer holds %d values, the sparsity parameters place more", nv)
			}
			copy(out[pos*es:(pos+1)*es], values[next*es:(next+1)*es])
			next++
			return nil
		}
		l := s.levels[level]
		if l.dense {
			for i := 0; i < l.size; i++ {
				idx[level] = i
				if err := walk(level+1, prev*l.size+i); err != nil {
					return err
				}
			}
			return nil
		}
		if prev < 0 || prev+1 >= len(l.segments) {
			return fmt.Errorf("level %d: segment %d outside %d segments", level, prev, len(l.segments))
		}
		lo, hi := l.segments[prev], l.segments[prev+1]
		if lo < 0 || hi > len(l.indices) || lo > hi {
			return fmt.Errorf("level %d: segment %d..%d outside %d indices", level, lo, hi, len(l.indices))
		}
		for i := lo; i < hi; i++ {
			idx[level] = l.indices[i]
			if err := walk(level+1, i); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(0, 0); err != nil {
		return nil, err
	}
	return out, nil
}

func (s *sparsity) orderIndex(dim int) int {
	for l, o := range s.order {
		if o == dim {
			return l
		}
	}
	return 0
}

// stringEntry makes a STRING tensor readable as text. TFLite packs
// strings as int32 count N, N+1 int32 offsets from the buffer's start,
// then the bytes.
func (d *decoder) stringEntry(e *formats.TensorEntry, off, size int64) {
	e.TypeName = stringTypeName
	buf := d.buf[off : off+size]
	if size < 4 {
		e.Note = "the string buffer holds no count"
		return
	}
	count := int64(binary.LittleEndian.Uint32(buf))
	n, err := tensor.NumElements(e.Shape)
	if err != nil || count != int64(n) || 4+4*(count+1) > size {
		d.warn(off, "tensor %q: string buffer of %d bytes holds count %d, shape %v has %d elements", e.Name, size, count, e.Shape, n)
		e.Note = "the string buffer does not match the shape"
		return
	}
	e.SetText(func(flat int) (string, error) {
		a := int64(binary.LittleEndian.Uint32(buf[4+4*flat:]))
		b := int64(binary.LittleEndian.Uint32(buf[8+4*flat:]))
		if a > b || b > size {
			return "", fmt.Errorf("string %d lies at bytes %d..%d of a buffer of %d", flat, a, b, size)
		}
		var s string
		err := tensor.CatchFault(func() error { s = text(buf[a:b]); return nil })
		return s, err
	})
}
