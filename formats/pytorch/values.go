package pytorch

import (
	"fmt"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"tensorscope/tensor"
)

// The unpickler builds Go values, never Python ones. A pickled value is one
// of: nil (None), bool, int64, *big.Int, float64, string, pyBytes, or one
// of the pointer types below. Nothing here can run code: a class the
// allow-list does not know is kept as a pyObject, its arguments and state
// as data.

// pyBytes is a Python bytes object (or bytearray).
type pyBytes []byte

// pyList is a list; pyTuple a tuple (immutable once built).
type pyList struct {
	items []any
	depth int
}

type pyTuple struct {
	items []any
	depth int
}

// pyDict is a dict (or OrderedDict) in insertion order. attrs is the state
// a BUILD gave it (an OrderedDict's __dict__: a state_dict's _metadata).
type pyDict struct {
	keys, vals []any
	strIndex   map[string]int // str keys → position (nearly every key)
	index      map[string]int // other hashable keys, by hashKey → position
	attrs      any
	depth      int
}

// newDict returns an empty dict; its indexes are made at the first key
// (torch pickles an empty OrderedDict of hooks with every tensor).
func newDict() *pyDict { return &pyDict{} }

// grow makes room for n more keys, most of them str (a batch of
// SETITEMS), so that a state dict's thousands of keys do not grow their
// slices and index step by step.
func (d *pyDict) grow(n int) {
	d.keys, d.vals = slices.Grow(d.keys, n), slices.Grow(d.vals, n)
	if d.strIndex == nil && n > 8 {
		d.strIndex = make(map[string]int, n)
	}
}

// set stores v under k, replacing an equal key as Python does. A str key
// is its own identity (no other type equals a str), so it needs no
// hashKey string built for it.
func (d *pyDict) set(k, v any) {
	if s, ok := k.(string); ok {
		if i, seen := d.strIndex[s]; seen {
			d.vals[i] = v
			return
		}
		if d.strIndex == nil {
			d.strIndex = map[string]int{}
		}
		d.strIndex[s] = len(d.keys)
	} else if h, ok := hashKey(k); ok {
		if i, seen := d.index[h]; seen {
			d.vals[i] = v
			return
		}
		if d.index == nil {
			d.index = map[string]int{}
		}
		d.index[h] = len(d.keys)
	}
	d.keys = append(d.keys, k)
	d.vals = append(d.vals, v)
}

// get returns the value under the string key k.
func (d *pyDict) get(k string) (any, bool) {
	if i, ok := d.strIndex[k]; ok {
		return d.vals[i], true
	}
	return nil, false
}

// hashKey gives hashable keys (scalars and tuples of them) an identity, so
// that an equal key replaces the value as in Python. 1, 1.0 and True are
// one key in Python; so they are here. A key whose identity would take
// more than maxKeyWork steps (a tuple of tuples sharing themselves) is
// kept without one.
func hashKey(k any) (string, bool) {
	work := maxKeyWork
	var b strings.Builder
	if !appendHashKey(&b, k, &work) {
		return "", false
	}
	return b.String(), true
}

// maxKeyWork bounds the elements hashKey and keyString visit in one key.
const maxKeyWork = 4096

func appendHashKey(b *strings.Builder, k any, work *int) bool {
	*work--
	if *work < 0 {
		return false
	}
	switch v := k.(type) {
	case nil:
		b.WriteString("N")
	case bool:
		if v {
			b.WriteString("i1")
		} else {
			b.WriteString("i0")
		}
	case int64:
		b.WriteString("i" + strconv.FormatInt(v, 10))
	case *big.Int:
		b.WriteString("i" + v.String())
	case float64:
		if v == math.Trunc(v) && math.Abs(v) < 1<<63 {
			b.WriteString("i" + strconv.FormatInt(int64(v), 10))
		} else {
			b.WriteString("f" + strconv.FormatFloat(v, 'g', -1, 64))
		}
	case string:
		b.WriteString("s" + v)
	case pyBytes:
		b.WriteString("b" + string(v))
	case *pyTuple:
		b.WriteString("t(")
		for _, it := range v.items {
			var inner strings.Builder
			if !appendHashKey(&inner, it, work) {
				return false
			}
			b.WriteString(strconv.Itoa(inner.Len()))
			b.WriteByte(':')
			b.WriteString(inner.String())
		}
		b.WriteByte(')')
	default:
		return false
	}
	return true
}

// pySet is a set or frozenset.
type pySet struct {
	items  []any
	frozen bool
	depth  int
}

// pyComplex is a Python complex number.
type pyComplex struct{ re, im float64 }

// pySlice is builtins.slice(start, stop, step).
type pySlice struct{ start, stop, step any }

// pyGlobal is a class or function a GLOBAL named: a reference only. It is
// never imported or called.
type pyGlobal struct {
	module, name string
}

func (g *pyGlobal) full() string { return g.module + "." + g.name }

// pyObject is an instance of a class the allow-list does not know, kept
// inert: what it was built from (the arguments of its constructor or
// reduce function), the state BUILD gave it, and the items appended or
// set into it.
type pyObject struct {
	class  string // "module.name", or a description of what was called
	args   []any
	kwargs any
	state  any
	list   []any
	dict   *pyDict
	depth  int
}

// pyDType is a torch dtype (torch.float32) named by a GLOBAL.
type pyDType struct {
	name string
	elem elemType
}

// pyDevice is torch.device("cuda", 0).
type pyDevice struct{ desc string }

// pyQScheme is a quantisation scheme (torch.per_tensor_affine).
type pyQScheme struct{ name string }

// pyStorageType is a torch.*Storage class named by a GLOBAL.
type pyStorageType struct {
	name string
	elem elemType
}

// elemType is the element type of a storage: a tensor dtype, or a name
// for the types the tensor core lacks (complex32) and the quantised ones.
type elemType struct {
	dtype tensor.DType
	name  string // "qint8", "complex32"...; "" when dtype says it all
	size  int    // bytes per element
}

func (e elemType) String() string {
	if e.name != "" {
		return e.name
	}
	return e.dtype.String()
}

// pyStorage is a storage a persistent id names: its key in the archive
// (or the legacy file), its element type, where it lived and its length.
type pyStorage struct {
	key      string
	elem     elemType
	location string
	numel    int64
	at       int64 // where the pickle names it
	blob     *blob // its bytes in the file

	// root and elemOffset: a legacy view of another storage.
	root       *pyStorage
	elemOffset int64

	names []string // tensors viewing it, in listing order
}

// pyTensor is a tensor rebuilt by an allow-listed torch function: a view
// of a storage. Nothing is read until it is loaded.
type pyTensor struct {
	storage      *pyStorage
	offset       int64 // in elements
	size, stride []int64
	requiresGrad bool
	parameter    bool
	elem         elemType // the storage's, or the dtype v3 names
	quant        *quantParams
	meta         bool // a meta tensor: shape only, no storage
	at           int64
	how          string // the rebuild function
	names        []string
}

// quantParams are a quantised tensor's quantizer parameters.
type quantParams struct {
	scheme     string
	scale      float64
	zeroPoint  int64
	scales     *pyTensor // per channel
	zeroPoints *pyTensor
	axis       int64
}

// npDType is numpy.dtype(code) with the byte order BUILD gave it.
type npDType struct {
	code  string // "f8", "i4", "b1", "U", ...
	order byte   // '<', '>', '|', '='
}

// npScalar is a NumPy scalar (numpy.float64(0.5)): a dtype and its bytes.
type npScalar struct {
	dtype *npDType
	raw   []byte
}

// npArray is a NumPy array rebuilt from its pickled state.
type npArray struct {
	dtype   *npDType
	shape   []int64
	fortran bool
	raw     []byte
	objects *pyList // an object array's elements
	built   bool
}

// depthOf is how deeply v nests containers (0 for scalars).
func depthOf(v any) int {
	switch x := v.(type) {
	case *pyList:
		return x.depth
	case *pyTuple:
		return x.depth
	case *pyDict:
		return x.depth
	case *pySet:
		return x.depth
	case *pyObject:
		return x.depth
	}
	return 0
}

// typeName is what a value is called in messages.
func typeName(v any) string {
	switch x := v.(type) {
	case nil:
		return "None"
	case bool:
		return "bool"
	case int64, *big.Int:
		return "int"
	case float64:
		return "float"
	case string:
		return "str"
	case pyBytes:
		return "bytes"
	case *pyList:
		return "list"
	case *pyTuple:
		return "tuple"
	case *pyDict:
		return "dict"
	case *pySet:
		return "set"
	case *pyComplex:
		return "complex"
	case *pySlice:
		return "slice"
	case *pyGlobal:
		return x.full()
	case *pyObject:
		return "object of class " + x.class
	case *pyDType:
		return "torch dtype"
	case *pyDevice:
		return "torch.device"
	case *pyQScheme:
		return "torch qscheme"
	case *pyStorageType:
		return x.name
	case *pyStorage:
		return "storage"
	case *pyTensor:
		return "tensor"
	case *npDType:
		return "numpy.dtype"
	case *npScalar:
		return "numpy scalar"
	case *npArray:
		return "numpy.ndarray"
	}
	return fmt.Sprintf("%T", v)
}

// asInt reads a Python int (or bool) as int64.
func asInt(v any) (int64, bool) {
	switch x := v.(type) {
	case int64:
		return x, true
	case bool:
		if x {
			return 1, true
		}
		return 0, true
	}
	return 0, false
}

// asFloat reads a Python float or int as float64.
func asFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case int64:
		return float64(x), true
	case *big.Int:
		f, _ := new(big.Float).SetInt(x).Float64()
		return f, true
	case *npScalar:
		if f, ok := x.value().(float64); ok {
			return f, true
		}
		if i, ok := x.value().(int64); ok {
			return float64(i), true
		}
	}
	return 0, false
}

// items returns the elements of a tuple or list.
func items(v any) ([]any, bool) {
	switch x := v.(type) {
	case *pyTuple:
		return x.items, true
	case *pyList:
		return x.items, true
	}
	return nil, false
}

// intList reads a tuple or list of ints (a size or a stride).
func intList(v any) ([]int64, bool) {
	its, ok := items(v)
	if !ok {
		return nil, false
	}
	out := make([]int64, len(its))
	for i, it := range its {
		n, ok := asInt(it)
		if !ok {
			return nil, false
		}
		out[i] = n
	}
	return out, true
}
