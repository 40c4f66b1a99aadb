package viewmodel

import (
	"bytes"
	"encoding/binary"
	"math"
	"testing"

	"tensorscope/formats/tsr"
	"tensorscope/tensor"
)

// tsrBytes is a TSR v1 file holding values as a vector.
func tsrBytes(t *testing.T, values []float32) []byte {
	t.Helper()
	raw := make([]byte, 4*len(values))
	for i, v := range values {
		binary.LittleEndian.PutUint32(raw[4*i:], math.Float32bits(v))
	}
	x, err := tensor.FromBytes(raw, tensor.Float32, []int{len(values)})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := tsr.EncodeV1(&b, x); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}
