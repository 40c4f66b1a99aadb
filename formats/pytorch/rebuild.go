package pytorch

import (
	"fmt"
	"strconv"
	"strings"

	"tensorscope/tensor"
)

// A constructor of the allow-list builds data from its arguments; it
// never runs anything of the file's. Everything else a pickle calls becomes
// an inert pyObject.
type constructor func(u *unpickler, args []any, kwargs any, at int) (any, error)

var allowed map[string]constructor

func init() {
	allowed = map[string]constructor{
		"collections.OrderedDict":                      buildDict,
		"builtins.dict":                                buildDict,
		"torch._utils._rebuild_tensor":                 rebuildTensor("_rebuild_tensor", 4),
		"torch._utils._rebuild_tensor_v2":              rebuildTensor("_rebuild_tensor_v2", 6),
		"torch._utils._rebuild_tensor_v3":              rebuildTensorV3,
		"torch._utils._rebuild_qtensor":                rebuildQTensor,
		"torch._utils._rebuild_parameter":              rebuildParameter,
		"torch._utils._rebuild_parameter_with_state":   rebuildParameter,
		"torch._utils._rebuild_meta_tensor_no_storage": rebuildMeta,
		"torch._tensor._rebuild_from_type_v2":          rebuildFromType,
		"torch._tensor._rebuild_from_type":             rebuildFromType,
		"torch.nn.parameter.Parameter":                 newParameter,
		"torch.Size":                                   buildSize,
		"torch.device":                                 buildDevice,
		"torch.serialization._get_layout":              passFirst,
		"_codecs.encode":                               codecsEncode,
		"builtins.set":                                 buildSet(false),
		"builtins.frozenset":                           buildSet(true),
		"builtins.bytearray":                           buildByteArray,
		"builtins.bytes":                               buildByteArray,
		"builtins.complex":                             buildComplex,
		"builtins.slice":                               buildSlice,
		"numpy.core.multiarray.scalar":                 npBuildScalar,
		"numpy._core.multiarray.scalar":                npBuildScalar,
		"numpy.dtype":                                  npBuildDType,
		"numpy.core.multiarray._reconstruct":           npReconstruct,
		"numpy._core.multiarray._reconstruct":          npReconstruct,
		"numpy.core.numeric._frombuffer":               npFromBuffer,
		"numpy._core.numeric._frombuffer":              npFromBuffer,
		// TorchScript's typed containers are the lists they wrap.
		"torch.jit._pickle.build_intlist":     passFirst,
		"torch.jit._pickle.build_doublelist":  passFirst,
		"torch.jit._pickle.build_boollist":    passFirst,
		"torch.jit._pickle.build_tensorlist":  passFirst,
		"torch.jit._pickle.build_genericlist": passFirst,
		"torch.jit._pickle.restore_type_tag":  passFirst,
	}
	for _, alias := range [][2]string{{"__builtin__", "builtins"}} {
		for name, c := range allowed {
			if rest, ok := strings.CutPrefix(name, alias[1]+"."); ok {
				allowed[alias[0]+"."+rest] = c
			}
		}
	}
}

// storageTypes maps torch's storage classes to element types.
var storageTypes = map[string]elemType{
	"FloatStorage":           {dtype: tensor.Float32, size: 4},
	"DoubleStorage":          {dtype: tensor.Float64, size: 8},
	"HalfStorage":            {dtype: tensor.Float16, size: 2},
	"BFloat16Storage":        {dtype: tensor.BFloat16, size: 2},
	"LongStorage":            {dtype: tensor.Int64, size: 8},
	"IntStorage":             {dtype: tensor.Int32, size: 4},
	"ShortStorage":           {dtype: tensor.Int16, size: 2},
	"CharStorage":            {dtype: tensor.Int8, size: 1},
	"ByteStorage":            {dtype: tensor.Uint8, size: 1},
	"BoolStorage":            {dtype: tensor.Bool, size: 1},
	"ComplexFloatStorage":    {dtype: tensor.Complex64, size: 8},
	"ComplexDoubleStorage":   {dtype: tensor.Complex128, size: 16},
	"ComplexHalfStorage":     {name: "complex32", size: 4},
	"QInt8Storage":           {dtype: tensor.Int8, name: "qint8", size: 1},
	"QUInt8Storage":          {dtype: tensor.Uint8, name: "quint8", size: 1},
	"QInt32Storage":          {dtype: tensor.Int32, name: "qint32", size: 4},
	"QUInt4x2Storage":        {name: "quint4x2", size: 1},
	"QUInt2x4Storage":        {name: "quint2x4", size: 1},
	"Float8_e4m3fnStorage":   {dtype: tensor.Float8E4M3FN, size: 1},
	"Float8_e5m2Storage":     {dtype: tensor.Float8E5M2, size: 1},
	"Float8_e4m3fnuzStorage": {dtype: tensor.Float8E4M3FNUZ, size: 1},
	"Float8_e5m2fnuzStorage": {dtype: tensor.Float8E5M2FNUZ, size: 1},
	"UInt16Storage":          {dtype: tensor.Uint16, size: 2},
	"UInt32Storage":          {dtype: tensor.Uint32, size: 4},
	"UInt64Storage":          {dtype: tensor.Uint64, size: 8},
	"UntypedStorage":         {dtype: tensor.Uint8, size: 1},
}

// dtypeNames maps torch's dtype globals (torch.float32) to element types.
var dtypeNames = map[string]elemType{
	"float32": storageTypes["FloatStorage"], "float": storageTypes["FloatStorage"],
	"float64": storageTypes["DoubleStorage"], "double": storageTypes["DoubleStorage"],
	"float16": storageTypes["HalfStorage"], "half": storageTypes["HalfStorage"],
	"bfloat16": storageTypes["BFloat16Storage"],
	"int64":    storageTypes["LongStorage"], "long": storageTypes["LongStorage"],
	"int32": storageTypes["IntStorage"], "int": storageTypes["IntStorage"],
	"int16": storageTypes["ShortStorage"], "short": storageTypes["ShortStorage"],
	"int8":      storageTypes["CharStorage"],
	"uint8":     storageTypes["ByteStorage"],
	"bool":      storageTypes["BoolStorage"],
	"complex64": storageTypes["ComplexFloatStorage"], "cfloat": storageTypes["ComplexFloatStorage"],
	"complex128": storageTypes["ComplexDoubleStorage"], "cdouble": storageTypes["ComplexDoubleStorage"],
	"complex32": storageTypes["ComplexHalfStorage"], "chalf": storageTypes["ComplexHalfStorage"],
	"qint8":           storageTypes["QInt8Storage"],
	"quint8":          storageTypes["QUInt8Storage"],
	"qint32":          storageTypes["QInt32Storage"],
	"quint4x2":        storageTypes["QUInt4x2Storage"],
	"quint2x4":        storageTypes["QUInt2x4Storage"],
	"float8_e4m3fn":   storageTypes["Float8_e4m3fnStorage"],
	"float8_e5m2":     storageTypes["Float8_e5m2Storage"],
	"float8_e4m3fnuz": storageTypes["Float8_e4m3fnuzStorage"],
	"float8_e5m2fnuz": storageTypes["Float8_e5m2fnuzStorage"],
	"uint16":          storageTypes["UInt16Storage"],
	"uint32":          storageTypes["UInt32Storage"],
	"uint64":          storageTypes["UInt64Storage"],
}

var qschemes = map[string]bool{"per_tensor_affine": true, "per_channel_affine": true,
	"per_channel_affine_float_qparams": true, "per_tensor_symmetric": true, "per_channel_symmetric": true}

// resolveGlobal turns the references GLOBAL makes to torch's data types
// (storage classes, dtypes, quantisation schemes) into values; any other
// global stays a pyGlobal, a name only.
func resolveGlobal(g *pyGlobal) any {
	if g.module == "torch" || g.module == "torch.cuda" || g.module == "torch.storage" {
		if st, ok := storageTypes[g.name]; ok {
			return &pyStorageType{name: g.full(), elem: st}
		}
	}
	if g.module == "torch" {
		if et, ok := dtypeNames[g.name]; ok {
			return &pyDType{name: g.name, elem: et}
		}
		if qschemes[g.name] {
			return &pyQScheme{name: g.name}
		}
	}
	return g
}

// call applies fn to args: an allow-listed constructor builds data; any
// other callable gives an inert object that records what it was given.
func (u *unpickler) call(fn any, args []any, kwargs any, at int) (any, error) {
	d, err := u.nest(args, at)
	if err != nil {
		return nil, err
	}
	if g, ok := fn.(*pyGlobal); ok {
		if c := allowed[g.full()]; c != nil {
			return c(u, args, kwargs, at)
		}
		u.unknown[g.full()]++
		return &pyObject{class: g.full(), args: args, kwargs: kwargs, depth: d}, nil
	}
	return &pyObject{class: "a call of " + typeName(fn), args: args, kwargs: kwargs, depth: d}, nil
}

// build applies BUILD's state to inst.
func (u *unpickler) build(inst, state any, at int) error {
	switch x := inst.(type) {
	case *pyObject:
		if x.state != nil {
			// A second BUILD: keep both.
			x.state = &pyTuple{items: []any{x.state, state}}
		} else {
			x.state = state
		}
		x.depth = max(x.depth, depthOf(state)+1)
		if x.depth > maxNesting {
			return u.errf(at, "containers nest more than %d deep", maxNesting)
		}
	case *pyDict:
		x.attrs = state
	case *pyTensor:
		// Parameter state (hooks, attributes): not the data.
	case *npDType:
		return x.setState(state)
	case *npArray:
		return x.setState(state, u, at)
	default:
		return u.errf(at, "BUILD on a %s", typeName(inst))
	}
	return nil
}

func buildDict(u *unpickler, args []any, _ any, at int) (any, error) {
	d := newDict()
	if len(args) == 0 {
		return d, nil
	}
	// OrderedDict([(k, v), ...])
	its, ok := items(args[0])
	if !ok {
		if src, ok := args[0].(*pyDict); ok {
			for i := range src.keys {
				d.set(src.keys[i], src.vals[i])
			}
			d.depth = src.depth
			return d, nil
		}
		return nil, u.errf(at, "OrderedDict of a %s", typeName(args[0]))
	}
	for _, it := range its {
		kv, ok := items(it)
		if !ok || len(kv) != 2 {
			return nil, u.errf(at, "OrderedDict of an item that is not a pair")
		}
		d.set(kv[0], kv[1])
		d.depth = max(d.depth, depthOf(kv[1])+1)
	}
	return d, nil
}

func passFirst(u *unpickler, args []any, _ any, at int) (any, error) {
	if len(args) == 0 {
		return nil, u.errf(at, "a call without arguments, expected one")
	}
	return args[0], nil
}

func buildSize(u *unpickler, args []any, _ any, at int) (any, error) {
	if len(args) == 0 {
		return &pyTuple{}, nil
	}
	if _, ok := intList(args[0]); !ok {
		return nil, u.errf(at, "torch.Size of a %s, expected ints", typeName(args[0]))
	}
	its, _ := items(args[0])
	return &pyTuple{items: its, depth: 1}, nil
}

func buildDevice(u *unpickler, args []any, _ any, at int) (any, error) {
	parts := make([]string, 0, len(args))
	for _, a := range args {
		switch v := a.(type) {
		case string:
			parts = append(parts, v)
		case int64:
			parts = append(parts, fmt.Sprint(v))
		default:
			return nil, u.errf(at, "torch.device of a %s", typeName(a))
		}
	}
	return &pyDevice{desc: strings.Join(parts, ":")}, nil
}

func codecsEncode(u *unpickler, args []any, _ any, at int) (any, error) {
	if len(args) == 0 {
		return nil, u.errf(at, "_codecs.encode without arguments")
	}
	s, ok := args[0].(string)
	if !ok {
		if b, ok := args[0].(pyBytes); ok {
			return b, nil
		}
		return nil, u.errf(at, "_codecs.encode of a %s, expected a str", typeName(args[0]))
	}
	enc := "utf-8"
	if len(args) > 1 {
		if e, ok := args[1].(string); ok {
			enc = strings.ToLower(e)
		}
	}
	switch enc {
	case "latin1", "latin-1", "iso-8859-1", "iso8859-1", "l1":
		out := make([]byte, 0, len(s))
		for _, r := range s {
			if r > 0xff {
				return nil, u.errf(at, "_codecs.encode: U+%04X is not Latin-1", r)
			}
			out = append(out, byte(r))
		}
		return pyBytes(out), nil
	case "utf-8", "utf8", "ascii":
		return pyBytes(s), nil
	}
	return nil, u.errf(at, "_codecs.encode to %q: only latin1 and utf-8 are read", enc)
}

func buildSet(frozen bool) constructor {
	return func(u *unpickler, args []any, _ any, at int) (any, error) {
		s := &pySet{frozen: frozen}
		if len(args) > 0 {
			its, ok := items(args[0])
			if !ok {
				if o, ok := args[0].(*pySet); ok {
					its = o.items
				} else {
					return nil, u.errf(at, "set of a %s", typeName(args[0]))
				}
			}
			s.items = append(s.items, its...)
			d, err := u.nest(its, at)
			if err != nil {
				return nil, err
			}
			s.depth = d
		}
		return s, nil
	}
}

func buildByteArray(u *unpickler, args []any, _ any, at int) (any, error) {
	if len(args) == 0 {
		return pyBytes{}, nil
	}
	switch v := args[0].(type) {
	case pyBytes:
		return v, nil
	case string:
		return codecsEncode(u, args, nil, at)
	case *pyList:
		out := make([]byte, len(v.items))
		for i, it := range v.items {
			n, ok := asInt(it)
			if !ok || n < 0 || n > 255 {
				return nil, u.errf(at, "bytearray of a list holding %s", typeName(it))
			}
			out[i] = byte(n)
		}
		return pyBytes(out), nil
	}
	return nil, u.errf(at, "bytearray of a %s", typeName(args[0]))
}

func buildComplex(u *unpickler, args []any, _ any, at int) (any, error) {
	c := &pyComplex{}
	if len(args) > 0 {
		re, ok := asFloat(args[0])
		if !ok {
			return nil, u.errf(at, "complex of a %s", typeName(args[0]))
		}
		c.re = re
	}
	if len(args) > 1 {
		im, ok := asFloat(args[1])
		if !ok {
			return nil, u.errf(at, "complex of a %s", typeName(args[1]))
		}
		c.im = im
	}
	return c, nil
}

func buildSlice(u *unpickler, args []any, _ any, at int) (any, error) {
	s := &pySlice{}
	switch len(args) {
	case 1:
		s.stop = args[0]
	case 2:
		s.start, s.stop = args[0], args[1]
	case 3:
		s.start, s.stop, s.step = args[0], args[1], args[2]
	default:
		return nil, u.errf(at, "slice of %d arguments", len(args))
	}
	return s, nil
}

// Tensors.

// rebuildTensor reads (storage, storage_offset, size, stride, ...): the
// arguments of _rebuild_tensor (4) and _rebuild_tensor_v2 (6, or 7 with
// metadata).
func rebuildTensor(how string, min int) constructor {
	return func(u *unpickler, args []any, _ any, at int) (any, error) {
		if len(args) < min {
			return nil, u.errf(at, "%s of %d arguments, expected %d", how, len(args), min)
		}
		t, err := u.tensorView(how, args, at)
		if err != nil {
			return nil, err
		}
		if len(args) > 4 {
			t.requiresGrad, _ = args[4].(bool)
		}
		return t, nil
	}
}

// rebuildTensorV3 is v2 with the dtype given apart from the storage
// (storage, storage_offset, size, stride, requires_grad, hooks, dtype, ...).
func rebuildTensorV3(u *unpickler, args []any, _ any, at int) (any, error) {
	if len(args) < 7 {
		return nil, u.errf(at, "_rebuild_tensor_v3 of %d arguments, expected 7", len(args))
	}
	t, err := u.tensorView("_rebuild_tensor_v3", args, at)
	if err != nil {
		return nil, err
	}
	t.requiresGrad, _ = args[4].(bool)
	dt, ok := args[6].(*pyDType)
	if !ok {
		return nil, u.errf(at, "_rebuild_tensor_v3: dtype is a %s", typeName(args[6]))
	}
	t.elem = dt.elem
	return t, nil
}

// rebuildQTensor reads (storage, storage_offset, size, stride,
// quantizer_params, requires_grad, hooks).
func rebuildQTensor(u *unpickler, args []any, _ any, at int) (any, error) {
	if len(args) < 5 {
		return nil, u.errf(at, "_rebuild_qtensor of %d arguments, expected 7", len(args))
	}
	t, err := u.tensorView("_rebuild_qtensor", args, at)
	if err != nil {
		return nil, err
	}
	if len(args) > 5 {
		t.requiresGrad, _ = args[5].(bool)
	}
	qp, ok := items(args[4])
	if !ok || len(qp) == 0 {
		return nil, u.errf(at, "_rebuild_qtensor: quantizer parameters are a %s, expected a tuple", typeName(args[4]))
	}
	scheme, ok := qp[0].(*pyQScheme)
	if !ok {
		return nil, u.errf(at, "_rebuild_qtensor: the quantisation scheme is a %s", typeName(qp[0]))
	}
	q := &quantParams{scheme: scheme.name}
	switch scheme.name {
	case "per_tensor_affine", "per_tensor_symmetric":
		if len(qp) < 3 {
			return nil, u.errf(at, "_rebuild_qtensor: %s needs a scale and a zero point", scheme.name)
		}
		s, ok1 := asFloat(qp[1])
		z, ok2 := asInt(qp[2])
		if !ok1 || !ok2 {
			return nil, u.errf(at, "_rebuild_qtensor: scale %s and zero point %s", typeName(qp[1]), typeName(qp[2]))
		}
		q.scale, q.zeroPoint = s, z
	case "per_channel_affine", "per_channel_symmetric", "per_channel_affine_float_qparams":
		if len(qp) < 4 {
			return nil, u.errf(at, "_rebuild_qtensor: %s needs scales, zero points and an axis", scheme.name)
		}
		s, ok1 := qp[1].(*pyTensor)
		z, ok2 := qp[2].(*pyTensor)
		a, ok3 := asInt(qp[3])
		if !ok1 || !ok2 || !ok3 {
			return nil, u.errf(at, "_rebuild_qtensor: per-channel parameters are a %s, a %s and a %s", typeName(qp[1]), typeName(qp[2]), typeName(qp[3]))
		}
		q.scales, q.zeroPoints, q.axis = s, z, a
	}
	t.quant = q
	return t, nil
}

// tensorView reads the (storage, storage_offset, size, stride) every
// rebuild function starts with. The view is checked against its storage
// when the document is built.
func (u *unpickler) tensorView(how string, args []any, at int) (*pyTensor, error) {
	st, ok := args[0].(*pyStorage)
	if !ok {
		return nil, u.errf(at, "%s: the storage is a %s", how, typeName(args[0]))
	}
	off, ok := asInt(args[1])
	if !ok {
		return nil, u.errf(at, "%s: the storage offset is a %s", how, typeName(args[1]))
	}
	size, ok := u.slab.intList(args[2])
	if !ok {
		return nil, u.errf(at, "%s: the size is a %s, expected a tuple of ints", how, typeName(args[2]))
	}
	stride, ok := u.slab.intList(args[3])
	if !ok {
		return nil, u.errf(at, "%s: the stride is a %s, expected a tuple of ints", how, typeName(args[3]))
	}
	return u.slab.tensor(pyTensor{storage: st, offset: off, size: size, stride: stride, elem: st.elem,
		at: u.base + int64(at), how: how}), nil
}

// rebuildParameter reads (data, requires_grad, hooks[, state]).
func rebuildParameter(u *unpickler, args []any, _ any, at int) (any, error) {
	if len(args) < 1 {
		return nil, u.errf(at, "_rebuild_parameter without arguments")
	}
	t, ok := args[0].(*pyTensor)
	if !ok {
		return nil, u.errf(at, "_rebuild_parameter of a %s, expected a tensor", typeName(args[0]))
	}
	p := *t
	p.parameter = true
	if len(args) > 1 {
		p.requiresGrad, _ = args[1].(bool)
	}
	return &p, nil
}

// newParameter is Parameter(data, requires_grad) through NEWOBJ.
func newParameter(u *unpickler, args []any, kwargs any, at int) (any, error) {
	if len(args) == 0 {
		return nil, u.errf(at, "Parameter without data")
	}
	return rebuildParameter(u, args, kwargs, at)
}

// rebuildMeta reads (dtype, size, stride, requires_grad): a tensor with
// no data.
func rebuildMeta(u *unpickler, args []any, _ any, at int) (any, error) {
	if len(args) < 3 {
		return nil, u.errf(at, "_rebuild_meta_tensor_no_storage of %d arguments", len(args))
	}
	dt, ok := args[0].(*pyDType)
	size, ok2 := intList(args[1])
	stride, ok3 := intList(args[2])
	if !ok || !ok2 || !ok3 {
		return nil, u.errf(at, "_rebuild_meta_tensor_no_storage of a %s, a %s and a %s", typeName(args[0]), typeName(args[1]), typeName(args[2]))
	}
	return &pyTensor{elem: dt.elem, size: size, stride: stride, meta: true, at: u.base + int64(at), how: "_rebuild_meta_tensor_no_storage"}, nil
}

// rebuildFromType reads (func, type, args, state): a tensor subclass
// rebuilt by func(*args). Only allow-listed funcs build data.
func rebuildFromType(u *unpickler, args []any, kwargs any, at int) (any, error) {
	if len(args) < 3 {
		return nil, u.errf(at, "_rebuild_from_type_v2 of %d arguments", len(args))
	}
	inner, ok := args[2].(*pyTuple)
	if !ok {
		return nil, u.errf(at, "_rebuild_from_type_v2: arguments are a %s", typeName(args[2]))
	}
	v, err := u.call(args[0], inner.items, nil, at)
	if err != nil {
		return nil, err
	}
	if t, ok := v.(*pyTensor); ok {
		if g, ok := args[1].(*pyGlobal); ok && g.full() == "torch.nn.parameter.Parameter" {
			p := *t
			p.parameter = true
			return &p, nil
		}
	}
	return v, nil
}

// desc is a tensor as the metadata tree shows it: "tensor float32[64, 3]"
// (built with append: the tree describes every tensor of a checkpoint).
func (t *pyTensor) desc() string {
	b := make([]byte, 0, 48)
	if t.parameter {
		b = append(b, "parameter "...)
	} else {
		b = append(b, "tensor "...)
	}
	b = append(b, t.elem.String()...)
	b = append(b, '[')
	for i, d := range t.size {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = strconv.AppendInt(b, d, 10)
	}
	return string(append(b, ']'))
}
