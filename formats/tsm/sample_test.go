package tsm

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"tensorscope/formats"
	"tensorscope/internal/samples"
	"tensorscope/tensor"
)

// sampleFacts were counted by hand-checked reading of each sample (a
// separate throwaway parser following NOTES §3), not by this package.
var sampleFacts = []struct {
	name    string
	nodes   int
	tensors int // one per <const> value field
	inputs  []int
	outputs []int
	ops     map[string]int
}{
	{"eye_state", 156, 56, []int{22}, []int{40}, map[string]int{"<const>": 56, "<param>": 1, "_copy": 1, "_reshape": 1, "_resize2d": 1, "_transpose": 1, "add_bias": 27, "concat": 8, "conv2d": 26, "crop_nd": 1, "flatten": 1, "inner_prod": 1, "pooling2d": 3, "relu": 26, "softmax": 1, "to_float": 1}},
	{"face_detector", 222, 83, []int{25}, []int{96, 100, 115}, map[string]int{"<const>": 83, "<param>": 1, "_onnx_pooling2d_padding": 5, "_reshape": 1, "_reshape_v2": 1, "_shape": 4, "_transpose": 6, "add_bias": 33, "concat": 8, "conv2d": 33, "flatten": 6, "gather": 4, "pooling2d_v2": 5, "relu": 27, "softmax": 1, "stack": 1, "sub": 2, "to_float": 1}},
	{"face_landmarker_mask_pts5", 125, 50, []int{88}, []int{1}, map[string]int{"<const>": 50, "<param>": 1, "_cast": 1, "_onnx_pooling2d_padding": 1, "abs": 1, "add_bias": 22, "conv2d": 12, "depthwise_conv2d": 10, "flatten": 1, "gemm": 2, "pooling2d_v2": 1, "relu": 23}},
	{"face_landmarker_pts5", 90, 28, []int{61}, []int{17}, map[string]int{"<const>": 28, "<param>": 1, "_copy": 1, "_limit": 1, "_reshape": 6, "add": 1, "add_bias": 14, "conv2d": 8, "flatten": 6, "inner_prod": 6, "pooling2d": 4, "relu": 12, "shape_index_patch": 1, "to_float": 1}},
	{"face_landmarker_pts68", 90, 28, []int{14}, []int{13}, map[string]int{"<const>": 28, "<param>": 1, "_copy": 1, "_limit": 1, "_reshape": 6, "add": 1, "add_bias": 14, "conv2d": 8, "flatten": 6, "inner_prod": 6, "pooling2d": 4, "relu": 12, "shape_index_patch": 1, "to_float": 1}},
	{"gender_predictor", 76, 29, []int{66}, []int{14}, map[string]int{"<const>": 29, "<param>": 1, "_limit": 1, "_reshape": 3, "add_bias": 10, "batch_norm": 2, "batch_scale": 2, "conv2d": 7, "flatten": 3, "inner_prod": 3, "mul": 1, "pooling2d": 3, "relu": 9, "softmax": 1, "to_float": 1}},
	{"mask_detector", 76, 29, []int{41}, []int{9}, map[string]int{"<const>": 29, "<param>": 1, "_limit": 1, "_reshape": 3, "add_bias": 10, "batch_norm": 2, "batch_scale": 2, "conv2d": 7, "flatten": 3, "inner_prod": 3, "mul": 1, "pooling2d": 3, "relu": 9, "softmax": 1, "to_float": 1}},
	{"pose_estimation", 59, 21, []int{24}, []int{28}, map[string]int{"<const>": 21, "<param>": 1, "_limit": 1, "_reshape": 3, "add_bias": 8, "batch_norm": 2, "conv2d": 5, "flatten": 3, "inner_prod": 3, "mul": 1, "pooling2d": 3, "relu": 7, "to_float": 1}},
	{"quality_lbn", 172, 61, []int{16}, []int{80, 81, 83}, map[string]int{"<const>": 61, "<param>": 1, "_copy": 1, "_reshape": 3, "_resize2d": 1, "_transpose": 1, "add_bias": 29, "concat": 8, "conv2d": 26, "crop_nd": 1, "flatten": 3, "inner_prod": 3, "pooling2d": 3, "relu": 26, "sigmoid": 3, "sub": 1, "to_float": 1}},
	{"tennis_frontend_generated_packed", 1, 3, []int{}, []int{0}, map[string]int{"<const>": 1}},
	{"tennis_frontend_generated_small", 9, 2, []int{4}, []int{6}, map[string]int{"<const>": 2, "<param>": 1, "_field": 1, "_pack": 1, "add_bias": 1, "conv2d": 1, "pooling2d": 1, "relu": 1}},
}

func openDoc(t testing.TB, path string) *formats.Document {
	t.Helper()
	doc, err := formats.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { doc.Close() })
	return doc
}

func checkFacts(t *testing.T, doc *formats.Document, nodes, tensors int, inputs, outputs []int, ops map[string]int) {
	t.Helper()
	g := doc.Graph
	if len(g.Nodes) != nodes || len(g.Values) != nodes {
		t.Errorf("%d nodes and %d values, want %d of each", len(g.Nodes), len(g.Values), nodes)
	}
	if len(doc.Tensors) != tensors {
		t.Errorf("%d tensors, want %d", len(doc.Tensors), tensors)
	}
	if !reflect.DeepEqual(g.Inputs, inputs) || !reflect.DeepEqual(g.Outputs, outputs) {
		t.Errorf("inputs %v outputs %v, want %v %v", g.Inputs, g.Outputs, inputs, outputs)
	}
	got := map[string]int{}
	for _, n := range g.Nodes {
		got[n.Op]++
	}
	if !reflect.DeepEqual(got, ops) {
		t.Errorf("op counts %v\nwant %v", got, ops)
	}
	if len(doc.Warnings) != 0 {
		t.Errorf("warnings on a real file: %v", doc.Warnings)
	}
	for i, n := range g.Nodes {
		if n.ID != i || len(n.Outputs) != 1 || n.Outputs[0] != i || g.Values[i].Producer != i {
			t.Fatalf("node %d: id %d outputs %v producer %d", i, n.ID, n.Outputs, g.Values[i].Producer)
		}
		if want := map[string]formats.NodeKind{OpConst: formats.KindConst, OpParam: formats.KindInput}[n.Op]; n.Kind != want {
			t.Errorf("node %d (%s) kind %v, want %v", i, n.Op, n.Kind, want)
		}
		if n.Kind == formats.KindConst {
			v := g.Values[i]
			if v.Tensor < 0 || !reflect.DeepEqual(v.Shape, doc.Tensors[v.Tensor].Shape) ||
				(doc.Tensors[v.Tensor].Name != n.Name && doc.Tensors[v.Tensor].Name != n.Name+"[0]") {
				t.Errorf("const node %d %q: value %+v does not point at its tensor", i, n.Name, v)
			}
		}
	}
}

// TestSamplesTSM opens every plain module and checks counts, that the
// module ends exactly at the end of the file, and that encoding the
// decoded module reproduces the file byte for byte.
func TestSamplesTSM(t *testing.T) {
	dir := samples.Dir(t, "tsm")
	files := samples.Files(t, "tsm", ".tsm")
	if len(files) != len(sampleFacts) {
		t.Errorf("%d .tsm samples, the table knows %d", len(files), len(sampleFacts))
	}
	for _, f := range sampleFacts {
		t.Run(f.name, func(t *testing.T) {
			path := filepath.Join(dir, f.name+".tsm")
			doc := openDoc(t, path)
			if doc.Format != "tsm" || doc.FormatName != "TenniS module" {
				t.Errorf("format %q %q", doc.Format, doc.FormatName)
			}
			checkFacts(t, doc, f.nodes, f.tensors, f.inputs, f.outputs, f.ops)

			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			m, end, err := Decode(data)
			if err != nil {
				t.Fatal(err)
			}
			if end != int64(len(data)) {
				t.Errorf("module ends at byte %d of %d", end, len(data))
			}
			var buf bytes.Buffer
			if err := Encode(&buf, m); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(buf.Bytes(), data) {
				t.Errorf("decode→encode changed the file (%d bytes, was %d)", buf.Len(), len(data))
			}
		})
	}
}

// TestSamplesCSTA opens every .csta, checks it against the plain module
// extracted from it (same graph, same tensors, same bytes) and checks that
// mask + tree + padding cover the file exactly.
func TestSamplesCSTA(t *testing.T) {
	dir := samples.Dir(t, "tsm")
	files := samples.Files(t, "tsm", ".csta")
	if len(files) != 9 {
		t.Errorf("%d .csta samples, want 9", len(files))
	}
	for _, f := range sampleFacts {
		path := filepath.Join(dir, f.name+".csta")
		if _, err := os.Stat(path); err != nil {
			continue // the generated modules have no .csta
		}
		t.Run(f.name, func(t *testing.T) {
			doc := openDoc(t, path)
			if doc.Format != "csta" || doc.FormatName != "SeetaFace6 model (.csta)" {
				t.Errorf("format %q %q", doc.Format, doc.FormatName)
			}
			checkFacts(t, doc, f.nodes, f.tensors, f.inputs, f.outputs, f.ops)
			plain := openDoc(t, filepath.Join(dir, f.name+".tsm"))
			sameGraph(t, doc, plain)

			// Coverage: the embedded module spans its whole binary piece
			// (checked by the absence of warnings above), and mask + tree
			// + padding is the file.
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			var padding, module *formats.HeaderField
			for i := range doc.Header {
				switch doc.Header[i].Name {
				case "padding":
					padding = &doc.Header[i]
				case "backbone.tsm":
					module = &doc.Header[i]
				}
			}
			if padding == nil || module == nil {
				t.Fatalf("header lacks padding or backbone.tsm: %+v", doc.Header)
			}
			if padding.Offset+int64(padding.Size) != int64(len(data)) {
				t.Errorf("padding %d+%d does not end the %d-byte file", padding.Offset, padding.Size, len(data))
			}
			tsmData, err := os.ReadFile(filepath.Join(dir, f.name+".tsm"))
			if err != nil {
				t.Fatal(err)
			}
			if module.Size != len(tsmData) {
				t.Errorf("backbone.tsm is %d bytes, the extracted module %d", module.Size, len(tsmData))
			}
			full := make([]byte, len(data)-cstaHdrSize)
			xorFast(full, data[cstaHdrSize:])
			plainBytes := full[module.Offset-cstaHdrSize : module.Offset-cstaHdrSize+int64(module.Size)]
			if !bytes.Equal(plainBytes, tsmData) {
				t.Errorf("decrypted backbone.tsm differs from the extracted .tsm")
			}
			if doc.Metadata.Child("pre_processor") == nil || doc.Metadata.Child("#signed").Child("user_key") == nil {
				t.Errorf("metadata lacks pre_processor or #signed.user_key")
			}
		})
	}
}

// sameGraph compares two documents' graphs and tensors, including data.
func sameGraph(t *testing.T, a, b *formats.Document) {
	t.Helper()
	ja, _ := json.Marshal(a.Graph)
	jb, _ := json.Marshal(b.Graph)
	if !bytes.Equal(ja, jb) {
		t.Errorf("graphs differ")
	}
	if len(a.Tensors) != len(b.Tensors) {
		t.Fatalf("%d vs %d tensors", len(a.Tensors), len(b.Tensors))
	}
	for i := range a.Tensors {
		ta, tb := a.Tensors[i], b.Tensors[i]
		if ta.Name != tb.Name || ta.DType != tb.DType || !reflect.DeepEqual(ta.Shape, tb.Shape) || ta.NBytes != tb.NBytes {
			t.Errorf("tensor %d: %s %v vs %s %v", i, ta.Name, ta.Shape, tb.Name, tb.Shape)
			continue
		}
		if !bytes.Equal(loadBytes(t, ta), loadBytes(t, tb)) {
			t.Errorf("tensor %d %q: data differs", i, ta.Name)
		}
	}
}

// loadBytes loads a tensor and returns the bytes it views.
func loadBytes(t testing.TB, e *formats.TensorEntry) []byte {
	t.Helper()
	x, err := e.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	n := int(e.NBytes)
	if x.Len()*x.DType().Size() != n {
		t.Fatalf("%s: loaded %d elements of %d bytes, entry says %d bytes", e.Name, x.Len(), x.DType().Size(), n)
	}
	return x.Storage().Bytes()[x.Offset() : x.Offset()+n]
}

// TestSampleTensorOffsets checks that every tensor of a plain module points
// at its bytes in the file and views the mapping without a copy.
func TestSampleTensorOffsets(t *testing.T) {
	path := filepath.Join(samples.Dir(t, "tsm"), "face_landmarker_pts5.tsm")
	doc := openDoc(t, path)
	for _, e := range doc.Tensors {
		x, err := e.Load(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if x.Storage() != doc.Storage() || int64(x.Offset()) != e.Offset {
			t.Errorf("%s: views storage %p at %d, want the file's mapping at %d", e.Name, x.Storage(), x.Offset(), e.Offset)
		}
		if e.Role != formats.RoleWeight || x.DType() != tensor.Float32 {
			t.Errorf("%s: role %s dtype %s", e.Name, e.Role, x.DType())
		}
	}
}

// TestSampleDetails spot-checks values read by hand from the files.
func TestSampleDetails(t *testing.T) {
	dir := samples.Dir(t, "tsm")

	small := openDoc(t, filepath.Join(dir, "tennis_frontend_generated_small.tsm"))
	g := small.Graph
	// Node 0 is add_bias taking nodes 5 and 7: both forward references.
	if n := g.Nodes[0]; n.Op != "add_bias" || n.Name != "bias" || !reflect.DeepEqual(n.Inputs, []int{5, 7}) {
		t.Errorf("node 0: %+v", n)
	}
	in := g.Nodes[4]
	if in.Kind != formats.KindInput || g.Values[4].DType != tensor.Float32 || !reflect.DeepEqual(g.Values[4].Shape, []int{1, 3, 8, 8}) {
		t.Errorf("input node: %+v value %+v", in, g.Values[4])
	}
	conv := g.Nodes[5]
	wantAttrs := []formats.Attr{
		{Name: "dilation", Value: []int64{1, 1, 1, 1}},
		{Name: "format", Value: "NCHW"},
		{Name: "padding", Value: []int64{0, 0, 0, 0, 1, 1, 1, 1}},
		{Name: "padding.shape", Value: []int64{4, 2}},
		{Name: "padding_value", Value: int64(0)},
		{Name: "stride", Value: []int64{1, 1, 1, 1}},
	}
	if !reflect.DeepEqual(conv.Attrs, wantAttrs) {
		t.Errorf("conv attrs %#v", conv.Attrs)
	}
	if w := small.Tensor("_const_conv_weights"); w == nil || w.Offset != 0x1d7 || w.NBytes != 432 {
		t.Errorf("conv weights entry %+v", w)
	}

	eye := openDoc(t, filepath.Join(dir, "eye_state.tsm"))
	h := eye.Header[2]
	if h.Name != "user data" || h.Offset != 8 || h.Size != 120 ||
		!bytes.Equal(h.Value.(formats.Bytes)[:6], []byte{0xaa, 2, 2, 0x20, 0x20, 0}) || !strings.Contains(h.Meaning, "first 5 bytes") {
		t.Errorf("user data field %+v", h)
	}

	gender := openDoc(t, filepath.Join(dir, "gender_predictor.tsm"))
	found := false
	for _, n := range gender.Graph.Nodes {
		if n.Op == "batch_norm" {
			for _, a := range n.Attrs {
				if a.Name == "epsilon" {
					found = true
					if v, ok := a.Value.(float64); !ok || v < 1e-6 || v > 1e-4 {
						t.Errorf("batch_norm epsilon %v (FLOAT64 scalar)", a.Value)
					}
				}
			}
		}
	}
	if !found {
		t.Errorf("no batch_norm epsilon")
	}

	fd := openDoc(t, filepath.Join(dir, "face_detector.csta"))
	md := fd.Metadata
	if v := md.Child("global").Child("threshold"); v == nil || v.Value != 0.9 {
		t.Errorf("global.threshold %+v", v)
	}
	if v := md.Child("nms").Child("top_k"); v == nil || v.Value != int64(5000) {
		t.Errorf("nms.top_k %+v", v)
	}
	if v := md.Child("pre_processor"); v == nil || !v.List || len(v.Children) != 3 || v.Children[1].Child("op").Value != "sub_mean" {
		t.Errorf("pre_processor %+v", v)
	}
	if v := md.Child("backbone").Child("tsm"); v == nil || !strings.Contains(v.Value.(string), "4054430 bytes") {
		t.Errorf("backbone.tsm leaf %+v", v)
	}
	if fd.Header[0].Name != "mask" || fd.Header[0].Value != "fast" {
		t.Errorf("first header field %+v", fd.Header[0])
	}
	var user *formats.HeaderField
	for i := range fd.Header {
		if fd.Header[i].Name == "module user data" {
			user = &fd.Header[i]
		}
	}
	if user == nil || user.Offset != 8 || !strings.Contains(user.Meaning, "module byte 8") {
		t.Errorf("module user data field %+v", user)
	}
}

// TestPackedSample reads the frontend's packed constant: int32[2],
// char8 "abc" and a float32 scalar, as name[0], name[1], name[2].
func TestPackedSample(t *testing.T) {
	path := filepath.Join(samples.Dir(t, "tsm"), "tennis_frontend_generated_packed.tsm")
	checkPacked(t, openDoc(t, path))
}

func checkPacked(t *testing.T, doc *formats.Document) {
	t.Helper()
	if len(doc.Tensors) != 3 {
		t.Fatalf("%d tensors, want 3", len(doc.Tensors))
	}
	names := []string{"packed_const[0]", "packed_const[1]", "packed_const[2]"}
	dtypes := []tensor.DType{tensor.Int32, tensor.Uint8, tensor.Float32}
	shapes := [][]int{{2}, {3}, {}}
	for i, e := range doc.Tensors {
		if e.Name != names[i] || e.DType != dtypes[i] || !reflect.DeepEqual(e.Shape, shapes[i]) {
			t.Errorf("tensor %d: %s %s %v", i, e.Name, e.DType, e.Shape)
		}
	}
	if b := loadBytes(t, doc.Tensors[0]); binary.LittleEndian.Uint32(b) != 1 || binary.LittleEndian.Uint32(b[4:]) != 2 {
		t.Errorf("field 0 = % x, want int32 1, 2", b)
	}
	if b := loadBytes(t, doc.Tensors[1]); string(b) != "abc" {
		t.Errorf("field 1 = %q", b)
	}
	if !reflect.DeepEqual(doc.Tensors[1].Attrs[len(doc.Tensors[1].Attrs)-1], formats.Attr{Name: "text", Value: "abc"}) {
		t.Errorf("char8 field attrs %v", doc.Tensors[1].Attrs)
	}
	if doc.Tensors[1].Role != formats.RoleConstant || doc.Tensors[0].Role != formats.RoleConstant || doc.Tensors[2].Role != formats.RoleWeight {
		t.Errorf("roles %s %s %s", doc.Tensors[0].Role, doc.Tensors[1].Role, doc.Tensors[2].Role)
	}
	if b := loadBytes(t, doc.Tensors[2]); binary.LittleEndian.Uint32(b) != 0x3fc00000 {
		t.Errorf("field 2 = % x, want float32 1.5", b)
	}
	v := doc.Graph.Values[0]
	if v.Tensor != 0 || v.DType != tensor.Int32 || !reflect.DeepEqual(v.Shape, []int{2}) {
		t.Errorf("const value %+v", v)
	}
}
