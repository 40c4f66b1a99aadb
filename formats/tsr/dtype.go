package tsr

import (
	"fmt"
	"strings"

	"tensorscope/tensor"
)

// dtypeCode is one row of a generation's dtype table. The three generations
// number their dtypes differently (v1 INT8 is 2, TSR3 INT8 is 4, TSR4 INT8
// is 2 again but FP32 is 0), so each has its own table and none is derived
// from another.
type dtypeCode struct {
	code  int
	name  string // the format's own spelling
	dtype tensor.DType
}

type dtypeTable []dtypeCode

var (
	v1DTypes = dtypeTable{{1, "FP32", tensor.Float32}, {2, "INT8", tensor.Int8}, {3, "INT32", tensor.Int32}}
	v3DTypes = dtypeTable{{1, "FP32", tensor.Float32}, {2, "BF16", tensor.BFloat16}, {3, "INT32", tensor.Int32}, {4, "INT8", tensor.Int8}}
	v4DTypes = dtypeTable{{0, "FP32", tensor.Float32}, {1, "FP16", tensor.Float16}, {2, "INT8", tensor.Int8}, {3, "INT32", tensor.Int32}}
)

func (t dtypeTable) byCode(code int64) (dtypeCode, bool) {
	for _, c := range t {
		if int64(c.code) == code {
			return c, true
		}
	}
	return dtypeCode{}, false
}

func (t dtypeTable) byDType(dt tensor.DType) (dtypeCode, bool) {
	for _, c := range t {
		if c.dtype == dt {
			return c, true
		}
	}
	return dtypeCode{}, false
}

// String lists the table for error messages: "1 FP32, 2 INT8, 3 INT32".
func (t dtypeTable) String() string {
	parts := make([]string, len(t))
	for i, c := range t {
		parts[i] = fmt.Sprintf("%d %s", c.code, c.name)
	}
	return strings.Join(parts, ", ")
}

// dtypes lists the tensor dtypes a table can store: "float32, int8, int32".
func (t dtypeTable) dtypes() string {
	parts := make([]string, len(t))
	for i, c := range t {
		parts[i] = c.dtype.String()
	}
	return strings.Join(parts, ", ")
}
