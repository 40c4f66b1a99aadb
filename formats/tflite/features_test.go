package tflite_test

import (
	"encoding/binary"
	"path/filepath"
	"slices"
	"testing"

	"tensorscope/formats"
	"tensorscope/formats/tflite/tflitetest"
	"tensorscope/internal/samples"
)

func openSample(t *testing.T, rel string) *formats.Document {
	t.Helper()
	doc, err := formats.Open(filepath.Join(samples.Dir(t, "tflite"), rel))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { doc.Close() })
	return doc
}

func attr(attrs []formats.Attr, name string) any {
	for _, a := range attrs {
		if a.Name == name {
			return a.Value
		}
	}
	return nil
}

func TestCustomOptionsFlexBufferTree(t *testing.T) {
	doc := openSample(t, "tflite-micro/audio_preprocessor_int8.tflite")
	found := false
	for _, n := range doc.Graph.Nodes {
		if attr(n.Attrs, "fft_length") == int64(512) && attr(n.Attrs, "custom_code") == n.Op {
			found = true
		}
	}
	if !found {
		t.Error("no custom operator with fft_length 512 from its FlexBuffer options")
	}
	opts := doc.Metadata.Child("custom_options")
	if opts == nil || len(opts.Children) == 0 {
		t.Fatal("no custom_options tree in the metadata")
	}
}

func TestMetadataBuffersAsTrees(t *testing.T) {
	doc := openSample(t, "coral/mobilenet_v1_0.25_128_quant.tflite")
	md := doc.Metadata.Child("metadata")
	if v := md.Child("min_runtime_version"); v == nil || v.Value != "1.5.0" {
		t.Errorf("min_runtime_version %+v", v)
	}
	tm := md.Child("TFLITE_METADATA")
	if tm == nil || tm.Child("name") == nil || tm.Child("name").Value != "ImageClassifier" {
		t.Fatalf("TFLITE_METADATA tree %+v", tm)
	}
	if sg := tm.Child("subgraph_metadata"); sg == nil || len(sg.Children) != 1 {
		t.Errorf("subgraph_metadata %+v", sg)
	}
	conv := openSample(t, "tflite-micro/hello_world_int8.tflite").Metadata.Child("metadata").Child("CONVERSION_METADATA")
	if conv == nil || conv.Child("environment") == nil {
		t.Errorf("CONVERSION_METADATA tree %+v", conv)
	}
}

func TestSignatureDefsAndSubgraphs(t *testing.T) {
	doc := openSample(t, "litert/multi_subgraphs_while.bin")
	sigs := doc.Metadata.Child("signature_defs")
	if sigs == nil || len(sigs.Children) != 1 || sigs.Children[0].Child("inputs").Child("inp") == nil {
		t.Fatalf("signature_defs %+v", sigs)
	}
	subs := doc.Metadata.Child("subgraphs")
	if subs == nil || len(subs.Children) != 3 {
		t.Fatalf("subgraphs %+v", subs)
	}
	if len(doc.Tables) != 3 || doc.Tables[1].Title != "Tensors of subgraph 1" {
		t.Errorf("tables %d", len(doc.Tables))
	}
}

func TestInt4PackedAndShapeSignature(t *testing.T) {
	doc := openSample(t, "litert/qwen_fc_blockwise_quantized.tflite")
	var int4 *formats.TensorEntry
	for _, e := range doc.Tensors {
		if e.TypeString() == "int4" {
			int4 = e
		}
	}
	if int4 == nil || !int4.HasData() || attr(int4.Attrs, "quantisation") == nil {
		t.Fatalf("int4 tensor %+v", int4)
	}
	dyn := openSample(t, "litert/dynamic_shapes.bin")
	symbolic := false
	for _, v := range dyn.Graph.Values {
		if slices.Contains(v.Shape, -1) && slices.Contains(v.DimNames, "?") {
			symbolic = true
		}
	}
	if !symbolic {
		t.Error("no value of dynamic_shapes.bin has a symbolic dim")
	}
}

func TestStringTensorAsText(t *testing.T) {
	// TFLite's packing: count, count+1 offsets from the buffer's start, bytes.
	words := []string{"alpha", "", "γ"}
	buf := binary.LittleEndian.AppendUint32(nil, uint32(len(words)))
	at := 4 + 4*(len(words)+1)
	for _, w := range words {
		buf = binary.LittleEndian.AppendUint32(buf, uint32(at))
		at += len(w)
	}
	buf = binary.LittleEndian.AppendUint32(buf, uint32(at))
	for _, w := range words {
		buf = append(buf, w...)
	}
	m := &tflitetest.Model{Codes: []int32{tflitetest.Add}, Buffers: [][]byte{nil, buf},
		Subgraphs: []tflitetest.Subgraph{{Tensors: []tflitetest.Tensor{{Name: "words", Type: tflitetest.String, Shape: []int32{3}, Buffer: 1}}}}}
	doc, err := decodeBytes(m.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	e := doc.Tensor("words")
	if e == nil || e.TypeString() != "object" || !e.HasText() {
		t.Fatalf("words %+v", e)
	}
	for i, w := range words {
		if got, err := e.TextAt(i); err != nil || got != w {
			t.Errorf("element %d: %q, %v; want %q", i, got, err, w)
		}
	}
}
