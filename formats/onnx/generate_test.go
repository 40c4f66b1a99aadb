package onnx_test

import (
	"bytes"
	"fmt"
	"testing"

	"tensorscope/formats/onnx/onnxtest"
)

func TestGeneratedModelsDecode(t *testing.T) {
	doc, err := decodeBytes(t, onnxtest.CNN(1000).Marshal())
	if err != nil {
		t.Fatal(err)
	}
	if n := len(doc.Graph.Nodes); n < 1000 || n > 1010 {
		t.Errorf("%d nodes", n)
	}
	var buf bytes.Buffer
	if err := onnxtest.WriteLarge(&buf, 3, 4, 5); err != nil {
		t.Fatal(err)
	}
	doc, err = decodeBytes(t, buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Tensors) != 3 || len(doc.Warnings) != 0 || fmt.Sprint(doc.Tensors[2].Shape) != "[4 5]" {
		t.Fatalf("tensors %v, warnings %v", doc.Tensors, doc.Warnings)
	}
	for _, v := range loadFloats(t, doc.Tensors[2]) {
		if v < -1 || v >= 1 {
			t.Fatalf("value %v outside [-1, 1)", v)
		}
	}
	if ops := doc.Graph.OpCounts(); len(ops) != 2 || ops[0].Op != "MatMul" || ops[0].Nodes != 3 {
		t.Errorf("ops %v", ops)
	}
}
