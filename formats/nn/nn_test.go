package nn

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"tensorscope/formats"
	"tensorscope/internal/samples"
	"tensorscope/tensor"
)

func tensorBytes(t testing.TB, x *tensor.Tensor) []byte {
	t.Helper()
	var out []byte
	if err := formats.TensorChunks(x, func(c []byte) error { out = append(out, c...); return nil }); err != nil {
		t.Fatal(err)
	}
	return out
}

func floats(b []byte) []float32 {
	out := make([]float32, len(b)/4)
	for i := range out {
		out[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return out
}

func table(t *testing.T, doc *formats.Document, title string) formats.Table {
	t.Helper()
	for _, tab := range doc.Tables {
		if tab.Title == title {
			return tab
		}
	}
	t.Fatalf("no table %q in %v", title, doc.Tables)
	return formats.Table{}
}

func property(t *testing.T, doc *formats.Document, name string) string {
	t.Helper()
	for _, r := range table(t, doc, "Model").Rows {
		if r[0] == name {
			return r[1]
		}
	}
	t.Fatalf("no model property %q", name)
	return ""
}

// TestSamples checks both DataCode samples against what DataCode's own
// ml.model_info prints for them (NOTES §4) and against values read from
// the files independently.
func TestSamples(t *testing.T) {
	first := map[string]map[string]float32{
		"datacode_model_mnist.nn": {
			"layer0.weight": 0.08264755457639694, "layer0.bias": -0.00641472265124321,
			"layer1.weight": 0.19424888491630554, "layer1.bias": -0.0489993691444397},
		"datacode_model_mnist_sh.nn": {
			"layer0.weight": 0.062079716473817825, "layer0.bias": 0.040412407368421555,
			"layer1.weight": -0.2904103994369507, "layer1.bias": -0.04950236156582832},
	}
	for _, p := range samples.Files(t, "nn", ".nn") {
		t.Run(filepath.Base(p), func(t *testing.T) {
			doc, err := formats.Open(p)
			if err != nil {
				t.Fatal(err)
			}
			defer doc.Close()
			if doc.Format != "nn" || doc.Version != "1" || len(doc.Warnings) != 0 {
				t.Errorf("format %s version %s warnings %v", doc.Format, doc.Version, doc.Warnings)
			}
			arch := table(t, doc, "Architecture")
			want := [][]string{
				{"input", "Input", "784→784", "0"},
				{"layer0", "Linear", "784→128", "100480"},
				{"layer1", "ReLU", "128→128", "0"},
				{"layer1", "Linear", "128→10", "1290"},
			}
			if !slices.EqualFunc(arch.Rows, want, slices.Equal) {
				t.Errorf("architecture rows %v, want %v", arch.Rows, want)
			}
			wantMeaning := []formats.Meaning{
				// Scopes from the weight names (layer0.weight), none for
				// the ReLU, which has no weight.
				{Category: formats.CategoryConvolution, InChannels: 784, OutChannels: 128, Scope: []string{"layer0"}},
				{Category: formats.CategoryActivation},
				{Category: formats.CategoryConvolution, InChannels: 128, OutChannels: 10, Scope: []string{"layer1"}},
			}
			for i, n := range doc.Graph.Nodes {
				if !reflect.DeepEqual(n.Meaning, wantMeaning[i]) {
					t.Errorf("node %d (%s) meaning %+v, want %+v", i, n.Op, n.Meaning, wantMeaning[i])
				}
			}
			for name, v := range map[string]string{"type": "MLP", "device": "cpu", "dtype": "f32",
				"trainable params": "101770", "frozen params": "0", "total params": "101770"} {
				if got := property(t, doc, name); got != v {
					t.Errorf("%s = %q, want %q", name, got, v)
				}
			}
			wantTensors := []struct {
				name  string
				shape []int
				layer int64
			}{{"layer0.weight", []int{128, 784}, 0}, {"layer0.bias", []int{128}, 0},
				{"layer1.weight", []int{10, 128}, 2}, {"layer1.bias", []int{10}, 2}}
			if len(doc.Tensors) != len(wantTensors) {
				t.Fatalf("%d tensors", len(doc.Tensors))
			}
			for i, w := range wantTensors {
				e := doc.Tensors[i]
				if e.Name != w.name || e.DType != tensor.Float32 || !slices.Equal(e.Shape, w.shape) || e.Role != formats.RoleWeight {
					t.Errorf("tensor %d: %s %s%v %s", i, e.Name, e.DType, e.Shape, e.Role)
				}
				// layer1.* belongs to the second Linear (layer 2), not the ReLU named layer1.
				if got := attrInt(e, "layer_index"); got != w.layer {
					t.Errorf("%s matched to layer %d, want %d", e.Name, got, w.layer)
				}
				x, err := e.Load(context.Background())
				if err != nil {
					t.Fatal(err)
				}
				vals := floats(tensorBytes(t, x))
				if len(vals) != int(e.NBytes/4) || vals[0] != first[filepath.Base(p)][e.Name] {
					t.Errorf("%s: %d values starting %v", e.Name, len(vals), vals[0])
				}
			}
			g := doc.Graph
			if g == nil || len(g.Nodes) != 3 {
				t.Fatalf("graph %+v", g)
			}
			for i, op := range []string{"Linear", "ReLU", "Linear"} {
				if g.Nodes[i].Op != op || g.Nodes[i].ID != i {
					t.Errorf("node %d: %+v", i, g.Nodes[i])
				}
			}
			if !slices.Equal(g.Inputs, []int{0}) || !slices.Equal(g.Outputs, []int{2}) {
				t.Errorf("graph inputs %v outputs %v", g.Inputs, g.Outputs)
			}
			// Each node reads what the previous one produced.
			for i := 1; i < 3; i++ {
				if g.Values[g.Nodes[i].Inputs[0]].Producer != i-1 {
					t.Errorf("node %d is not fed by node %d", i, i-1)
				}
			}
			if w := g.Values[g.Nodes[2].Inputs[1]]; w.Tensor != 2 {
				t.Errorf("second Linear's weight value names tensor %d", w.Tensor)
			}
			if attrs := g.Nodes[0].Attrs; len(attrs) != 3 || attrs[0].Name != "in_features" || attrs[0].Value != int64(784) {
				t.Errorf("Linear attrs %v", attrs)
			}
		})
	}
}

func TestSampleTraining(t *testing.T) {
	p := filepath.Join(samples.Dir(t, "nn"), "datacode_model_mnist.nn")
	doc, err := formats.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer doc.Close()
	stages := table(t, doc, "Training stages")
	if len(stages.Rows) != 1 || stages.Rows[0][1] != "5" || stages.Rows[0][3] != "Adam" || stages.Rows[0][2] != "cross_entropy" {
		t.Errorf("stages %v", stages.Rows)
	}
	var titles []string
	for _, pl := range doc.Plots {
		titles = append(titles, pl.Title)
	}
	if !slices.Equal(titles, []string{"Stage 1 loss", "Stage 1 accuracy"}) {
		t.Fatalf("plots %v", titles)
	}
	loss := doc.Plots[0]
	if len(loss.Series) != 2 || loss.Series[0].Name != "loss" || loss.Series[1].Name != "val_loss" ||
		len(loss.Series[0].Y) != 5 || loss.Series[0].Y[0] != 0.37143418192863464 || loss.Series[1].Y[4] != 0.09641748666763306 {
		t.Errorf("loss plot %+v", loss)
	}
	// The untrained sample has no stages and null histories: no plots.
	p = filepath.Join(samples.Dir(t, "nn"), "datacode_model_mnist_sh.nn")
	doc2, err := formats.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer doc2.Close()
	if len(doc2.Plots) != 0 {
		t.Errorf("untrained model has plots %v", doc2.Plots)
	}
}

// TestSampleRoundTrip reads each sample and writes it back: the bytes must
// be identical (key order, number spelling, tensor records).
func TestSampleRoundTrip(t *testing.T) {
	for _, p := range samples.Files(t, "nn", ".nn") {
		orig, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := formats.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		m, err := FromDocument(context.Background(), doc)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := Encode(&buf, m); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(buf.Bytes(), orig) {
			n := 0
			for n < min(buf.Len(), len(orig)) && buf.Bytes()[n] == orig[n] {
				n++
			}
			t.Errorf("%s: rewritten file differs from byte %d (%d vs %d bytes)", p, n, buf.Len(), len(orig))
		}
		doc.Close()
	}
}

func metaJSON(t testing.TB, s string) *formats.Meta {
	t.Helper()
	m, err := formats.JSONTree("", []byte(s), 0)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func randomF32(t testing.TB, rng *rand.Rand, shape ...int) *tensor.Tensor {
	n, _ := tensor.NumElements(shape)
	b := make([]byte, 4*n)
	for i := 0; i < n; i++ {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(float32(rng.NormFloat64())))
	}
	x, err := tensor.FromBytes(b, tensor.Float32, shape)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// frozenModel has a frozen first layer, [1, out] biases, a Sigmoid between
// Linear layers, two training stages and an lr history.
const frozenJSON = `{"device":"metal","layers":[
 {"in_features":6,"name":"layer0","out_features":4,"trainable":false,"type":"Linear"},
 {"name":"layer1","type":"Sigmoid"},
 {"in_features":4,"name":"layer1","out_features":3,"trainable":true,"type":"Linear"},
 {"name":"layer3","type":"Softmax"}],
 "training":{"epochs":3,"loss":"mse","optimizer":"SGD","loss_history":[1,0.5,0.25],"accuracy_history":null,
 "stages":[
  {"epochs":1,"loss":"mse","optimizer_type":"SGD","optimizer_params":{"lr":0.1},"frozen_layers":[],
   "trainable_params":43,"frozen_params":0,"loss_history":[1],"accuracy_history":[0.5],"lr_history":[0.1],
   "val_loss_history":null,"val_accuracy_history":null},
  {"epochs":2,"loss":"mse","optimizer_type":"SGD","optimizer_params":{"lr":0.01},"frozen_layers":["layer0"],
   "trainable_params":15,"frozen_params":28,"loss_history":[0.5,0.25],"accuracy_history":[0.6,null],"lr_history":[0.01,0.005],
   "val_loss_history":[0.6,0.3],"val_accuracy_history":null}]}}`

func frozenModel(t testing.TB) *Model {
	rng := rand.New(rand.NewPCG(1, 1))
	return &Model{Metadata: metaJSON(t, frozenJSON), Tensors: []Tensor{
		{"layer0.weight", randomF32(t, rng, 4, 6)}, {"layer0.bias", randomF32(t, rng, 1, 4)},
		{"layer1.weight", randomF32(t, rng, 3, 4)}, {"layer1.bias", randomF32(t, rng, 1, 3)},
	}}
}

func encodeModel(t testing.TB, m *Model) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := Encode(&buf, m); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestGeneratedModel(t *testing.T) {
	m := frozenModel(t)
	b := encodeModel(t, m)
	doc, err := formats.OpenBytes("frozen.nn", b)
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Warnings) != 0 {
		t.Errorf("warnings %v", doc.Warnings)
	}
	for name, v := range map[string]string{"type": "MLP", "device": "metal", "layers": "4",
		"trainable params": "15", "frozen params": "28", "total params": "43"} {
		if got := property(t, doc, name); got != v {
			t.Errorf("%s = %q, want %q", name, got, v)
		}
	}
	arch := table(t, doc, "Architecture")
	if got := arch.Rows[4]; !slices.Equal(got, []string{"layer3", "Softmax", "3→3", "0"}) {
		t.Errorf("softmax row %v", got)
	}
	var titles []string
	for _, p := range doc.Plots {
		titles = append(titles, p.Title)
	}
	want := []string{"Stage 1 loss", "Stage 1 accuracy", "Stage 1 learning rate",
		"Stage 2 loss", "Stage 2 accuracy", "Stage 2 learning rate", "Training loss"}
	if !slices.Equal(titles, want) {
		t.Errorf("plots %v, want %v", titles, want)
	}
	if acc := doc.Plots[4].Series[0]; !slices.Equal(acc.X, []float64{1}) || !slices.Equal(acc.Y, []float64{0.6}) {
		t.Errorf("a null history entry should leave a gap: %+v", acc)
	}
	if lr := doc.Plots[5].Series[0]; lr.X != nil || !slices.Equal(lr.Y, []float64{0.01, 0.005}) {
		t.Errorf("lr series %+v", lr)
	}
	if rows := table(t, doc, "Training stages").Rows; rows[1][7] != "layer0" || rows[1][4] != "0.01" {
		t.Errorf("stage rows %v", rows)
	}
	for i, e := range doc.Tensors {
		x, err := e.Load(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(tensorBytes(t, x), tensorBytes(t, m.Tensors[i].Data)) || !slices.Equal(e.Shape, m.Tensors[i].Data.Shape()) {
			t.Errorf("%s differs", e.Name)
		}
	}
	// Written again, the document gives the same bytes.
	m2, err := FromDocument(context.Background(), doc)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(encodeModel(t, m2), b) {
		t.Error("second write differs")
	}
}

// TestRoundTripRanks writes tensors of every rank the format allows.
func TestRoundTripRanks(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	m := &Model{Metadata: metaJSON(t, `{"device":"cpu","layers":[],"training":null}`)}
	for _, shape := range [][]int{{}, {3}, {2, 3}, {2, 1, 3}, {1, 2, 2, 2}, {2, 1, 1, 2, 2}, {0}, {4, 0}} {
		m.Tensors = append(m.Tensors, Tensor{"t" + tensor.FormatShape(tensor.Float32, shape), randomF32(t, rng, shape...)})
	}
	doc, err := formats.OpenBytes("ranks.nn", encodeModel(t, m))
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range doc.Tensors {
		x, err := e.Load(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		want := m.Tensors[i].Data
		if e.Name != m.Tensors[i].Name || !slices.Equal(e.Shape, want.Shape()) || !bytes.Equal(tensorBytes(t, x), tensorBytes(t, want)) {
			t.Errorf("%s: read back %s%v", m.Tensors[i].Name, e.Name, e.Shape)
		}
	}
	if doc.Graph != nil {
		t.Errorf("a model without layers has a graph: %+v", doc.Graph)
	}
}

// TestEncodeView writes a transposed weight: the file gets the view's
// elements in row-major order.
func TestEncodeView(t *testing.T) {
	m := frozenModel(t)
	inOut := randomF32(t, rand.New(rand.NewPCG(5, 5)), 6, 4)
	w, err := inOut.Permute([]int{1, 0})
	if err != nil {
		t.Fatal(err)
	}
	m.Tensors[0].Data = w
	doc, err := formats.OpenBytes("view.nn", encodeModel(t, m))
	if err != nil {
		t.Fatal(err)
	}
	want, err := w.ContiguousBytes(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	x, err := doc.Tensors[0].Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(tensorBytes(t, x), want) || !slices.Equal(x.Shape(), []int{4, 6}) {
		t.Errorf("transposed weight reads back as %v", x.Shape())
	}
}

func TestEncodeRefuses(t *testing.T) {
	i32, _ := tensor.FromBytes(make([]byte, 8), tensor.Int32, []int{2})
	ok := metaJSON(t, `{"layers":[]}`)
	for name, m := range map[string]*Model{
		"nil metadata":  {},
		"list metadata": {Metadata: metaJSON(t, `[1,2]`)},
		"int32 tensor":  {Metadata: ok, Tensors: []Tensor{{"x", i32}}},
		"NaN in JSON":   {Metadata: formats.NewObject("", formats.Leaf("lr", math.NaN()))},
	} {
		if err := Encode(&bytes.Buffer{}, m); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestJSONKeepsOrderAndTypes(t *testing.T) {
	m := metaJSON(t, `{"z":1,"a":{"y":2.5,"b":[true,null,"s",-3,1e-8]},"m":12345678901234}`)
	var names []string
	for _, c := range m.Children {
		names = append(names, c.Name)
	}
	if !slices.Equal(names, []string{"z", "a", "m"}) {
		t.Errorf("key order %v", names)
	}
	if v := m.Child("m").Value; v != int64(12345678901234) {
		t.Errorf("integer became %T %v", v, v)
	}
	if v := m.Child("a").Child("y").Value; v != 2.5 {
		t.Errorf("float became %T %v", v, v)
	}
	out, err := appendJSON(nil, m)
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != `{"a":{"b":[true,null,"s",-3,1e-8],"y":2.5},"m":12345678901234,"z":1}` {
		t.Errorf("written as %s", out)
	}
	// The metadata pane's JSON keeps the file's order.
	j, _ := json.Marshal(m)
	if !strings.HasPrefix(string(j), `{"z":1,"a":`) {
		t.Errorf("marshalled as %s", j)
	}
}

func wantError(t *testing.T, b []byte, off int64, substr string) {
	t.Helper()
	_, err := formats.DecodeAs("nn", "test", b)
	var fe *formats.Error
	if !errors.As(err, &fe) || fe.Offset != off || !strings.Contains(fe.Msg, substr) {
		t.Errorf("want an error at byte %d containing %q, got %v", off, substr, err)
	}
}

func wantWarning(t *testing.T, b []byte, off int64, substr string) {
	t.Helper()
	doc, err := formats.DecodeAs("nn", "test", b)
	if err != nil {
		t.Fatalf("want a warning containing %q, got the error %v", substr, err)
	}
	for _, w := range doc.Warnings {
		if w.Offset == off && strings.Contains(w.Message, substr) {
			return
		}
	}
	t.Errorf("want a warning at byte %d containing %q, got %v", off, substr, doc.Warnings)
}

// build assembles a .nn file from JSON text and raw tensor records.
func build(jsonText string, records ...[]byte) []byte {
	le := binary.LittleEndian
	b := []byte(magic)
	b = le.AppendUint32(b, 1)
	b = le.AppendUint32(b, uint32(len(jsonText)))
	b = append(b, jsonText...)
	b = le.AppendUint32(b, uint32(len(records)))
	for _, r := range records {
		b = append(b, r...)
	}
	return b
}

func rec(name string, dims []uint32, data int) []byte {
	le := binary.LittleEndian
	b := le.AppendUint32(nil, uint32(len(name)))
	b = append(b, name...)
	b = le.AppendUint32(b, uint32(len(dims)))
	for _, d := range dims {
		b = le.AppendUint32(b, d)
	}
	return append(b, make([]byte, data)...)
}

func TestCorrupt(t *testing.T) {
	good := encodeModel(t, frozenModel(t))
	jsonLen := int64(binary.LittleEndian.Uint32(good[12:]))
	countAt := 16 + jsonLen

	wantError(t, good[:12], 12, "need 4 bytes")
	wantError(t, append([]byte("DATACODX"), good[8:]...), 0, `expected "DATACODE"`)
	v2 := bytes.Clone(good)
	v2[8] = 2
	wantError(t, v2, 8, "expected 1")
	big := bytes.Clone(good)
	binary.LittleEndian.PutUint32(big[12:], 1<<31)
	wantError(t, big, 12, "JSON length: count 2147483648")
	wantError(t, build(`{"a":`), 20, "ends in the middle")
	wantError(t, build(`{"a":1}x`), 23, "JSON")
	wantError(t, build(`[1,2]`), 16, "expected an object")
	wantError(t, build(strings.Repeat("[", 300)+strings.Repeat("]", 300)), 16+257, "nested more than")
	const maxJSONValues = 1 << 18 // formats.JSONTree's bound
	manyValues := "[" + strings.Repeat("0,", maxJSONValues) + "0]"
	wantError(t, build(`{"h":`+manyValues+`}`), 16+5+2*maxJSONValues-4, "more than 262144 values")
	manyTensors := build(`{}`)
	binary.LittleEndian.PutUint32(manyTensors[len(manyTensors)-4:], 1<<30)
	wantError(t, manyTensors, countAt-jsonLen+2, "tensor count: count 1073741824")
	// 2^60 elements: refused by the shape check, before any size is used.
	wantError(t, build(`{}`, rec("x", []uint32{1 << 30, 1 << 30, 1 << 30}, 4)), 31, "2^48")
	wantError(t, build(`{}`, rec("x", []uint32{3}, 8)), 35, "needs 12 bytes of f32 data, only 8 left")
	longName := rec("x", []uint32{3}, 12)
	binary.LittleEndian.PutUint32(longName, 100)
	wantError(t, build(`{}`, longName), 22, "tensor 0 name length: count 100")

	wantWarning(t, append(bytes.Clone(good), 1, 2), int64(len(good)), "2 trailing bytes")
	wantWarning(t, build(`{"layers":[]}`, rec("\xff", nil, 4)), 37, "not valid UTF-8")
	wantWarning(t, build(`{"device":"cpu"}`), 16, `no "layers" list`)
	layers := `{"layers":[{"name":"a","type":"Linear","in_features":2,"out_features":3}]}`
	lat := int64(16 + len(layers) + 4)
	wantWarning(t, build(layers, rec("layer0.weight", []uint32{2, 3}, 24), rec("layer0.bias", []uint32{3}, 12)), lat, "stored [in, out]")
	wantWarning(t, build(layers, rec("layer0.weight", []uint32{3, 2}, 24), rec("layer0.bias", []uint32{2}, 8)), lat+4+13+4+8+24, "needs [3] or [1, 3]")
	wantWarning(t, build(layers, rec("layer0.weight", []uint32{3, 2}, 24)), -1, "no bias tensor layer0.bias")
	wantWarning(t, build(layers, rec("layer1.weight", []uint32{3, 2}, 24)), lat, "has 1 Linear layers")
	wantWarning(t, build(layers, rec("fc.weight", []uint32{3, 2}, 24)), lat, "belongs to no layer")
	chainJSON := `{"layers":[{"name":"a","type":"Linear","in_features":2,"out_features":3},{"name":"b","type":"Linear","in_features":4,"out_features":1}]}`
	wantWarning(t, build(chainJSON), 16, "takes 4 inputs but the layer before it gives 3")
}

// generated returns seed files for fuzzing and truncation tests.
func generated(t testing.TB) [][]byte {
	rng := rand.New(rand.NewPCG(4, 4))
	tiny := &Model{Metadata: metaJSON(t, `{"device":"cpu","layers":[{"in_features":2,"name":"layer0","out_features":2,"trainable":true,"type":"Linear"},{"name":"layer1","type":"ReLU"}],"training":{"stages":[{"loss_history":[1,0.5]}]}}`),
		Tensors: []Tensor{{"layer0.weight", randomF32(t, rng, 2, 2)}, {"layer0.bias", randomF32(t, rng, 2)}}}
	return [][]byte{encodeModel(t, frozenModel(t)), encodeModel(t, tiny)}
}

func checkDecode(t *testing.T, b []byte) error {
	doc, err := formats.OpenBytes("fuzz", b)
	if err != nil {
		var fe *formats.Error
		if !errors.As(err, &fe) && !errors.Is(err, formats.ErrUnknownFormat) && !errors.Is(err, formats.ErrEmpty) {
			t.Fatalf("error without a byte offset: %v", err)
		}
		return err
	}
	for _, e := range doc.Tensors {
		x, err := e.Load(context.Background())
		if err != nil {
			t.Fatalf("%s: %v", e.Name, err)
		}
		if got := len(tensorBytes(t, x)); int64(got) != e.NBytes {
			t.Fatalf("%s: %d bytes, entry says %d", e.Name, got, e.NBytes)
		}
	}
	if _, err := json.Marshal(doc); err != nil {
		t.Fatalf("marshal: %v", err)
	}
	if doc.Format == "nn" {
		if m, err := FromDocument(context.Background(), doc); err == nil {
			// Whatever decodes must encode again (NaN cannot come from JSON).
			if err := Encode(io.Discard, m); err != nil {
				t.Fatalf("re-encode: %v", err)
			}
		}
	}
	return nil
}

func FuzzDecodeNN(f *testing.F) {
	samples.Seed(f, "nn", ".nn")
	for _, b := range generated(f) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) { checkDecode(t, b) })
}

// TestTruncated cuts each sample and generated file: every offset up to the
// end of the first tensor record and around every record, a stride over the
// data between.
func TestTruncated(t *testing.T) {
	files := generated(t)
	for _, p := range samples.Files(t, "nn", ".nn") {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, b)
	}
	for fi, b := range files {
		doc, err := formats.OpenBytes("whole", b)
		if err != nil {
			t.Fatal(err)
		}
		dense := func(n int) bool { return n < int(doc.HeaderSpan.Len)+64 }
		for _, e := range doc.Tensors {
			at := int(attrInt(e, "record_offset"))
			prev := dense
			dense = func(n int) bool { return prev(n) || (n >= at-8 && n < int(e.Offset)+64) }
		}
		for n := 0; n < len(b); n++ {
			if !dense(n) && n%1009 != 0 && n != len(b)-1 {
				continue
			}
			if checkDecode(t, b[:n]) == nil {
				t.Errorf("file %d cut at %d of %d bytes decoded without error", fi, n, len(b))
			}
		}
	}
}
