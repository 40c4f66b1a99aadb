package ui

import (
	"bytes"
	"encoding/binary"
	"math"
	"os"
	"testing"
	"time"

	"tensorscope/formats"
	"tensorscope/formats/nn"
	"tensorscope/formats/tsr"
	"tensorscope/tensor"
	"tensorscope/viewmodel"
)

// Fixtures are made by the project's own writers; none is copied from the
// real samples, so the golden images do not depend on ../shared.

func float32Tensor(t testing.TB, shape []int, f func(i int) float32) *tensor.Tensor {
	t.Helper()
	n, _ := tensor.NumElements(shape)
	b := make([]byte, 4*n)
	for i := 0; i < n; i++ {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(f(i)))
	}
	x, err := tensor.FromBytes(b, tensor.Float32, shape)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// tsrFixture is a TSR4 file: a 16×24 smooth signed pattern with one NaN,
// one +Inf and one −Inf, and a 3×8 ramp.
func tsrFixture(t testing.TB) []byte {
	a := float32Tensor(t, []int{16, 24}, func(i int) float32 {
		r, c := i/24, i%24
		switch i {
		case 2*24 + 3:
			return float32(math.NaN())
		case 5*24 + 7:
			return float32(math.Inf(1))
		case 9*24 + 11:
			return float32(math.Inf(-1))
		}
		return float32(math.Sin(float64(r)/3) * math.Cos(float64(c)/4))
	})
	b := float32Tensor(t, []int{3, 8}, func(i int) float32 { return float32(i) / 4 })
	var buf bytes.Buffer
	if err := tsr.EncodeV4(&buf, []*tensor.Tensor{a, b}, tsr.RAW); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// nnFixture is a DataCode model 8→4→ReLU→2 with a five-epoch history.
func nnFixture(t *testing.T) []byte {
	floats := func(v ...float64) *formats.Meta {
		l := formats.NewList("")
		for _, f := range v {
			l.Add(formats.Leaf("", f))
		}
		return l
	}
	named := func(name string, m *formats.Meta) *formats.Meta { m.Name = name; return m }
	loss := []float64{0.9, 0.5, 0.32, 0.25, 0.21}
	acc := []float64{0.61, 0.78, 0.86, 0.9, 0.92}
	vloss := []float64{0.95, 0.6, 0.41, 0.35, 0.33}
	vacc := []float64{0.58, 0.74, 0.81, 0.84, 0.85}
	stage := formats.NewObject("",
		named("accuracy_history", floats(acc...)), formats.Leaf("epochs", int64(5)),
		formats.NewList("frozen_layers"), formats.Leaf("frozen_params", int64(0)),
		formats.Leaf("loss", "cross_entropy"), named("loss_history", floats(loss...)),
		formats.Leaf("lr_history", nil),
		formats.NewObject("optimizer_params", formats.Leaf("lr", 0.001)),
		formats.Leaf("optimizer_type", "Adam"), formats.Leaf("trainable_params", int64(46)),
		named("val_accuracy_history", floats(vacc...)), named("val_loss_history", floats(vloss...)))
	meta := formats.NewObject("",
		formats.Leaf("device", "cpu"),
		formats.NewList("layers",
			formats.NewObject("", formats.Leaf("in_features", int64(8)), formats.Leaf("name", "layer0"),
				formats.Leaf("out_features", int64(4)), formats.Leaf("trainable", true), formats.Leaf("type", "Linear")),
			formats.NewObject("", formats.Leaf("name", "layer1"), formats.Leaf("type", "ReLU")),
			formats.NewObject("", formats.Leaf("in_features", int64(4)), formats.Leaf("name", "layer1"),
				formats.Leaf("out_features", int64(2)), formats.Leaf("trainable", true), formats.Leaf("type", "Linear"))),
		formats.NewObject("training",
			named("accuracy_history", floats(acc...)), formats.Leaf("epochs", int64(5)),
			formats.Leaf("loss", "cross_entropy"), named("loss_history", floats(loss...)),
			formats.Leaf("optimizer", "Adam"), formats.NewList("stages", stage),
			named("val_accuracy_history", floats(vacc...)), named("val_loss_history", floats(vloss...))))
	wave := func(i int) float32 { return float32(math.Sin(float64(i))) / 2 }
	m := &nn.Model{Metadata: meta, Tensors: []nn.Tensor{
		{Name: "layer0.weight", Data: float32Tensor(t, []int{4, 8}, wave)},
		{Name: "layer0.bias", Data: float32Tensor(t, []int{4}, wave)},
		{Name: "layer1.weight", Data: float32Tensor(t, []int{2, 4}, wave)},
		{Name: "layer1.bias", Data: float32Tensor(t, []int{2}, wave)},
	}}
	var buf bytes.Buffer
	if err := nn.Encode(&buf, m); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// openFixture opens an in-memory file as a tab's document, posting through q.
func openFixture(t testing.TB, q *viewmodel.Queue, name string, data []byte) *viewmodel.Doc {
	t.Helper()
	ws := viewmodel.NewWorkspace(q.Post, viewmodel.MemPrefs{})
	var doc *viewmodel.Doc
	var err error
	done := false
	ws.OpenBytes(name, data, func(d *viewmodel.Doc, e error) { doc, err, done = d, e, true })
	if !q.Drain(func() bool { return !done }, 10*time.Second) {
		t.Fatal("opening timed out")
	}
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// settle runs posted work until the document's inspector is idle.
func settle(t testing.TB, q *viewmodel.Queue, d *viewmodel.Doc) {
	t.Helper()
	if !q.Drain(func() bool { return !d.Inspector.Idle() }, 20*time.Second) {
		t.Fatal("inspector did not settle")
	}
}

func readAll(path string) ([]byte, error) { return os.ReadFile(path) }
