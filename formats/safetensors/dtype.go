package safetensors

import (
	"sort"
	"strings"

	"tensorscope/tensor"
)

// dtypes maps the header's dtype names to the core's types.
var dtypes = map[string]tensor.DType{
	"BOOL": tensor.Bool,
	"U8":   tensor.Uint8, "I8": tensor.Int8,
	"U16": tensor.Uint16, "I16": tensor.Int16,
	"U32": tensor.Uint32, "I32": tensor.Int32,
	"U64": tensor.Uint64, "I64": tensor.Int64,
	"F16": tensor.Float16, "BF16": tensor.BFloat16,
	"F32": tensor.Float32, "F64": tensor.Float64,
	"C64":         tensor.Complex64,
	"F8_E4M3":     tensor.Float8E4M3FN,
	"F8_E5M2":     tensor.Float8E5M2,
	"F8_E4M3FNUZ": tensor.Float8E4M3FNUZ,
	"F8_E5M2FNUZ": tensor.Float8E5M2FNUZ,
	"F8_E8M0":     tensor.Float8E8M0FNU,
	"F4":          tensor.Float4E2M1FN,
	"F6_E2M3":     tensor.Float6E2M3FN,
	"F6_E3M2":     tensor.Float6E3M2FN,
}

// dtypeValues holds each known dtype name as an attribute value, boxed
// once: a checkpoint's 30,000 tensors need no box each.
var dtypeValues = func() map[string]any {
	m := make(map[string]any, len(dtypes))
	for name := range dtypes {
		m[name] = name
	}
	return m
}()

// dtypeValue is name as an attribute value.
func dtypeValue(name string) any {
	if v, ok := dtypeValues[name]; ok {
		return v
	}
	return name
}

// dtypeName is the header's spelling of dt, "" when safetensors has none.
func dtypeName(dt tensor.DType) string {
	for name, d := range dtypes {
		if d == dt {
			return name
		}
	}
	return ""
}

// knownDTypes lists the names for messages.
func knownDTypes() string {
	names := make([]string, 0, len(dtypes))
	for n := range dtypes {
		names = append(names, n)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// viewable reports whether the core can view elements of dt in place:
// every type, packed sub-byte ones included, once their decoder is known.
func viewable(dt tensor.DType) bool { return dt.Valid() && (!dt.Packed() || dt.Numeric()) }
