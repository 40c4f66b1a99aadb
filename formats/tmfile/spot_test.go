package tmfile_test

import (
	"context"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"tensorscope/formats"
	"tensorscope/internal/samples"
)

func openSample(t *testing.T, name string) (*formats.Document, []byte) {
	t.Helper()
	path := filepath.Join(samples.Dir(t, "tmfile"), name)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := formats.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { doc.Close() })
	return doc, data
}

// rawParam walks the file's structs by hand, independently of the codec,
// to the param struct of node k.
func rawParam(data []byte, k int) []byte {
	u32 := func(at uint32) uint32 { return binary.LittleEndian.Uint32(data[at:]) }
	root := u32(8)
	sg := u32(u32(root+8) + 4)
	node := u32(u32(sg+20) + 4 + 4*uint32(k))
	op := u32(node + 12)
	return data[u32(op+8):op]
}

func node(t *testing.T, doc *formats.Document, name string) (int, formats.Node) {
	t.Helper()
	for i, n := range doc.Graph.Nodes {
		if n.Name == name {
			return i, n
		}
	}
	t.Fatalf("no node %q", name)
	return 0, formats.Node{}
}

func attrs(n formats.Node) map[string]any {
	m := map[string]any{}
	for _, a := range n.Attrs {
		m[a.Name] = a.Value
	}
	return m
}

func TestMNISTConv0MatchesFileBytes(t *testing.T) {
	doc, data := openSample(t, "tengine_mnist.tmfile")
	k, n := node(t, doc, "Conv_0")
	if n.Op != "Convolution" || n.Kind != formats.KindOp {
		t.Fatalf("Conv_0 is %s kind %v", n.Op, n.Kind)
	}
	raw := rawParam(data, k)
	if len(raw) != 56 {
		t.Fatalf("Conv_0 param is %d bytes, want 56", len(raw))
	}
	field := func(at int) int64 { return int64(int32(binary.LittleEndian.Uint32(raw[at:]))) }
	want := map[string]int64{"kernel_h": 3, "kernel_w": 3, "stride_h": 1, "stride_w": 1, "pad_h0": 1,
		"pad_w0": 1, "pad_h1": 1, "pad_w1": 1, "input_channel": 1, "output_channel": 8, "group": 1}
	at := map[string]int{"kernel_h": 0, "kernel_w": 4, "stride_h": 8, "stride_w": 12, "input_channel": 24,
		"output_channel": 28, "group": 32, "pad_h0": 40, "pad_w0": 44, "pad_h1": 48, "pad_w1": 52}
	got := attrs(n)
	for name, v := range want {
		if field(at[name]) != v {
			t.Fatalf("file bytes: %s is %d, want %d", name, field(at[name]), v)
		}
		if got[name] != v {
			t.Errorf("%s = %v (%T), want %d", name, got[name], got[name], v)
		}
	}
	if len(n.Attrs) != 14 {
		t.Errorf("%d attrs, want the 14 fields of TM2_ConvParam", len(n.Attrs))
	}
	// The weight input is the 1→8 3×3 kernel, with the file's values.
	w := doc.Tensors[n.Inputs[1]]
	if w.Name != "conv1.0.weight" || !reflect.DeepEqual(w.Shape, []int{8, 1, 3, 3}) || w.Role != formats.RoleWeight {
		t.Fatalf("weight %s %v %s", w.Name, w.Shape, w.Role)
	}
	tt, err := w.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	b := tt.Storage().Bytes()[tt.Offset():]
	for i := 0; i < 72; i++ {
		if got, want := binary.LittleEndian.Uint32(b[4*i:]), binary.LittleEndian.Uint32(data[w.Offset+int64(4*i):]); got != want {
			t.Fatalf("weight element %d: %08x, file has %08x", i, got, want)
		}
	}
	if f := math.Float32frombits(binary.LittleEndian.Uint32(b)); f == 0 || math.IsNaN(float64(f)) {
		t.Errorf("first weight %v looks wrong", f)
	}
}

func TestParamSpotChecks(t *testing.T) {
	tests := []struct {
		file, node string
		size       int // true param size
		want       map[string]any
		absent     []string
	}{
		{"tengine_mnist.tmfile", "MaxPool_6", 44, map[string]any{"alg": formats.Enum{Value: 0, Name: "MAX"}, "kernel_h": int64(2), "stride_w": int64(2)}, nil},
		{"tengine_mnist.tmfile", "Reshape_8", 16, map[string]any{"re_shape": []int64{-1, 1568}, "is_onnx": int64(1), "is_mxnet": int64(0)}, nil},
		{"tengine_resnet18_benchmark.tmfile", "res2a", 8, map[string]any{"type": formats.Enum{Value: 2, Name: "SUM"}, "caffe_flavor": int64(1)}, []string{"shift", "power", "scale"}},
		{"tengine_mobilenet_benchmark.tmfile", "pool6", 44, map[string]any{"alg": formats.Enum{Value: 1, Name: "AVG"}, "global": int64(1)}, nil},
		{"tengine_shufflenet_v2_benchmark.tmfile", "slice2", 36, map[string]any{"axis": int64(1), "slice_points": []int64{58}, "begins": nil, "iscaffe": int64(1)}, []string{"step"}},
		{"tengine_master_retinaface_benchmark.tmfile", "rf_c3_upsampling_", 52, map[string]any{"num_output": int64(64), "group": int64(64), "activation": int64(-1)}, []string{"output_pad_h0", "output_pad_w0"}},
		{"tengine_googlenet_benchmark.tmfile", "pool1/norm1", 20, map[string]any{"local_size": int64(5), "norm_region": formats.Enum{Value: 0, Name: "ACROSS_CHANNELS"}}, []string{"bias", "is_onnx"}},
		{"tenginekit_seg_human_portrait.tmfile", "Split_0", 16, map[string]any{"axis": int64(1), "split_dim": int64(2), "is_caffe": false, "is_onnx": true, "split_sizes": []int64{36, 36}}, nil},
		{"tenginekit_seg_human_portrait.tmfile", "Resize_0", 20, map[string]any{"resize_type": formats.Enum{Value: 2, Name: "BILINEAR"}, "width_scale": 7.96, "height_scale": 8.0, "output_width": int64(199), "output_height": int64(112)}, nil},
		{"tenginekit_seg_human_portrait.tmfile", "Transpose_0", 4, map[string]any{"tr_shape": []int64{0, 2, 1, 3, 4}}, nil},
		{"tenginekit_FaceDetect.tmfile", "233", 4, map[string]any{"tr_shape": []int64{0, 2, 3, 1}}, nil},
		{"tenginekit_face_iris.tmfile", "add__xeno_compat__1", 20, map[string]any{"type": formats.Enum{Value: 2, Name: "SUM"}, "caffe_flavor": int64(0)}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.file+"/"+tc.node, func(t *testing.T) {
			doc, data := openSample(t, tc.file)
			k, n := node(t, doc, tc.node)
			if got := len(rawParam(data, k)); got != tc.size {
				t.Fatalf("param is %d bytes in the file, want %d", got, tc.size)
			}
			got := attrs(n)
			for name, v := range tc.want {
				if !reflect.DeepEqual(got[name], v) {
					t.Errorf("%s = %#v, want %#v", name, got[name], v)
				}
				if _, ok := got[name]; !ok {
					t.Errorf("%s missing", name)
				}
			}
			for _, name := range tc.absent {
				if _, ok := got[name]; ok {
					t.Errorf("%s decoded from a param too short to hold it", name)
				}
			}
		})
	}
}

func TestPriorBoxVectors(t *testing.T) {
	doc, _ := openSample(t, "tengine_mssd_benchmark.tmfile")
	found := 0
	for _, n := range doc.Graph.Nodes {
		if n.Op != "PriorBox" {
			continue
		}
		found++
		a := attrs(n)
		min, _ := a["min_size"].([]float64)
		variance, _ := a["variance"].([]float64)
		if len(min) == 0 || !reflect.DeepEqual(variance, []float64{0.1, 0.1, 0.2, 0.2}) {
			t.Errorf("%s: min_size %v variance %v", n.Name, a["min_size"], a["variance"])
		}
	}
	if found != 6 {
		t.Errorf("%d PriorBox nodes, want 6", found)
	}
}

func TestQuantisedSamples(t *testing.T) {
	for _, name := range []string{"tenginekit_FaceDetect.tmfile", "tmfilesample_face_detection_deconv_mnt.tmfile", "tenginekit_FaceLandmark2d.tmfile"} {
		doc, _ := openSample(t, name)
		quantised, uint8Weights := 0, 0
		for _, e := range doc.Tensors {
			if e.Quant == nil {
				continue
			}
			quantised++
			if len(e.Quant.Scales) != 1 || len(e.Quant.ZeroPoints) != 1 || !(e.Quant.Scales[0] > 0) {
				t.Errorf("%s %s: quant %+v, want one positive scale", name, e.Name, e.Quant)
			}
			if e.DType.String() == "uint8" && e.Role == formats.RoleWeight && e.HasData() {
				uint8Weights++
			}
		}
		if quantised == 0 || uint8Weights == 0 {
			t.Errorf("%s: %d quantised tensors, %d uint8 weights with data", name, quantised, uint8Weights)
		}
	}
}

func TestFaceLandmark2dJunkSubgraphAndSubInfo(t *testing.T) {
	doc, _ := openSample(t, "tenginekit_FaceLandmark2d.tmfile")
	junk := false
	for _, w := range doc.Warnings {
		junk = junk || w.Offset == 1042056 && strings.Contains(w.Message, "junk")
	}
	if !junk {
		t.Errorf("no warning about the junk second subgraph offset: %v", doc.Warnings)
	}
	si := doc.Metadata.Child("sub_info")
	if si == nil || len(si.Children) != 2 {
		t.Fatalf("sub_info %+v, want 2 partitions", si)
	}
	for _, c := range si.Children {
		if c.Child("device").Value != "cpu_dev" {
			t.Errorf("partition device %v", c.Child("device").Value)
		}
	}
	if got := si.Children[0].Child("nodes").Value; got != int64(171) {
		t.Errorf("first partition has %v nodes, want 171", got)
	}
	// seg_human_portrait stores junk (32767) where sub_info would be.
	doc2, _ := openSample(t, "tenginekit_seg_human_portrait.tmfile")
	if doc2.Metadata.Child("sub_info") != nil {
		t.Errorf("seg_human_portrait: junk sub_info offset was trusted")
	}
}
