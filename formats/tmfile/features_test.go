package tmfile_test

import (
	"strings"
	"testing"

	"tensorscope/formats"
	"tensorscope/formats/tmfile"
)

// featureModel is small but uses every feature of the format: names of the
// model and subgraph, node attributes, dynamic shape, per-tensor and
// per-channel quantisation, an int8 weight, a buffer without data, params
// pointing at each kind of vector and at a string, and sub-graph info.
func featureModel(t testing.TB) *tmfile.Model {
	b := tmfile.NewBuilder(3, "features")
	x := b.Input("x", []int32{1, 2, 4, 4})
	w := b.ConstRaw("w_int8", []int32{2, 2, 1, 1}, tmfile.DataInt8, 4, []byte{1, 0xff, 2, 0xfe},
		[]tmfile.QuantParam{{ZeroPoint: 0, Scale: 0.5}, {ZeroPoint: 1, Scale: 0.25}})
	bias := b.ConstRaw("bias", []int32{2}, tmfile.DataFP32, 8, nil, nil)
	shape := b.ConstRaw("shape", []int32{2}, tmfile.DataInt32, 8, []byte{1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff}, nil)
	y := b.Op("conv", "Convolution", []formats.Attr{{Name: "kernel_h", Value: 1}, {Name: "kernel_w", Value: 1},
		{Name: "output_channel", Value: 2}}, []int32{1, 2, 4, 4}, x, w, bias)
	y = b.Op("reshape", "Reshape", []formats.Attr{{Name: "re_shape", Value: []int{1, -1}}, {Name: "is_onnx", Value: 1}},
		[]int32{1, 32}, y, shape)
	pb := b.Op("prior", "PriorBox", []formats.Attr{{Name: "min_size", Value: []float64{30}},
		{Name: "variance", Value: []float64{0.1, 0.1, 0.2, 0.2}}, {Name: "step_w", Value: 8.0}}, []int32{1, 2, 16}, x)
	rpn := b.Op("rpn", "RPN", []formats.Attr{{Name: "anchors", Value: []float64{0, 0, 15, 15, -8, -8, 23, 23}},
		{Name: "ratios", Value: []float64{0.5, 1, 2}}}, []int32{1, 4}, x)
	gen := b.Op("generic", "Generic", []formats.Attr{{Name: "opname", Value: "MyCustomOp"},
		{Name: "max_input_num", Value: 3}}, []int32{1, 32}, y, pb, rpn)
	out := b.Op("softmax", "Softmax", []formats.Attr{{Name: "axis", Value: 1}}, []int32{1, 32}, gen)
	b.Output(out)
	b.Output(pb)
	m, err := b.Model()
	if err != nil {
		t.Fatal(err)
	}
	m.SubgraphName = "main"
	m.Nodes[len(m.Nodes)-1].DynamicShape = true
	m.Nodes[len(m.Nodes)-1].Attrs = []tmfile.NodeAttr{{Name: "origin", Value: "onnx::Softmax_7", Type: 1}}
	m.Tensors[len(m.Tensors)-1].Quant = []tmfile.QuantParam{{ZeroPoint: 128, Scale: 1.0 / 256, Width: 8}}
	m.SubInfo = []tmfile.SubInfo{
		{ID: 0, DataType: tmfile.DataFP32, Nodes: []uint32{0, 1, 2, 3, 4, 5}, InputTensors: []uint32{0}, OutputTensors: []uint32{5}, Device: "cpu_dev"},
		{ID: 1, InputWaitCount: 1, Nodes: []uint32{6, 7, 8, 9}, InputTensors: []uint32{5}, OutputTensors: []uint32{9, 6}, Device: "npu"},
	}
	return m
}

func TestFeatureModel(t *testing.T) {
	data, err := tmfile.Marshal(featureModel(t))
	if err != nil {
		t.Fatal(err)
	}
	roundTrip(t, data)
	doc, err := formats.DecodeAs("tmfile", "features", data)
	if err != nil {
		t.Fatal(err)
	}
	w := doc.Tensor("w_int8")
	if w == nil || w.Quant == nil || len(w.Quant.Scales) != 2 || w.Quant.Axis != 0 || w.Role != formats.RoleWeight || !w.HasData() {
		t.Errorf("int8 per-channel weight: %+v", w)
	}
	if e := doc.Tensor("bias"); e == nil || e.HasData() || e.Note == "" {
		t.Errorf("bias without data: %+v", e)
	}
	if e := doc.Tensor("shape"); e == nil || e.Role != formats.RoleConstant || !e.HasData() {
		t.Errorf("int32 shape constant: %+v", e)
	}
	if si := doc.Metadata.Child("sub_info"); si == nil || len(si.Children) != 2 || si.Children[1].Child("device").Value != "npu" {
		t.Errorf("sub_info: %+v", si)
	}
	if got := doc.Metadata.Child("weights").Child("status").Value; got != "1 constant tensors have no data" {
		t.Errorf("weights status %q", got)
	}
	last := doc.Graph.Nodes[len(doc.Graph.Nodes)-1]
	res := map[string]any{}
	for _, a := range last.Reserved {
		res[a.Name] = a.Value
	}
	if res["dynamic_shape"] != true || res["origin"] != "onnx::Softmax_7" || res["op_ver"] != int64(1) {
		t.Errorf("reserved attrs of the last node: %+v", last.Reserved)
	}
	if len(doc.Graph.Outputs) != 2 {
		t.Errorf("graph outputs %v", doc.Graph.Outputs)
	}
}

// An operator id the table does not define keeps its param as raw bytes,
// is named Unknown(id), and is counted and warned about.
func TestUnknownOperator(t *testing.T) {
	b := tmfile.NewBuilder(0, "")
	x := b.Input("x", []int32{1})
	b.Op("mystery", "Noop", nil, []int32{1}, x)
	m, err := b.Model()
	if err != nil {
		t.Fatal(err)
	}
	m.Nodes[1].Op = tmfile.Operator{Version: 2, Type: 104, Param: []byte{1, 2, 3, 4, 5, 6, 7, 8}}
	data, err := tmfile.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := formats.DecodeAs("tmfile", "unknown", data)
	if err != nil {
		t.Fatal(err)
	}
	n := doc.Graph.Nodes[1]
	if n.Op != "Unknown(104)" || len(n.Attrs) != 1 || n.Attrs[0].Name != "param" || len(n.Attrs[0].Value.(formats.Bytes)) != 8 {
		t.Errorf("node %+v", n)
	}
	if rows := doc.Tables[0].Rows; len(rows) != 2 || rows[1][0] != "Unknown(104)" || rows[1][2] != "1" {
		t.Errorf("operator table %v", rows)
	}
	warned := false
	for _, w := range doc.Warnings {
		warned = warned || strings.Contains(w.Message, "operator type 104")
	}
	if !warned {
		t.Errorf("no warning about operator 104: %v", doc.Warnings)
	}
	roundTrip(t, data)
}
