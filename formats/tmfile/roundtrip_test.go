package tmfile_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"tensorscope/formats"
	"tensorscope/formats/tmfile"
	"tensorscope/formats/tmfile/synth"
)

// roundTrip decodes data, encodes the model, decodes that again and checks
// that the two documents agree on everything but byte offsets, padding and
// warnings; it also checks that encoding the re-read model reproduces the
// written bytes exactly.
func roundTrip(t *testing.T, data []byte) {
	t.Helper()
	m1, _, err := tmfile.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	written, err := tmfile.Marshal(m1)
	if err != nil {
		t.Fatal(err)
	}
	m2, _, err := tmfile.Decode(written)
	if err != nil {
		t.Fatalf("re-reading the written file: %v", err)
	}
	again, err := tmfile.Marshal(m2)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(written, again) {
		t.Errorf("writing the re-read model gives different bytes (%d vs %d)", len(written), len(again))
	}
	compareModels(t, m1, m2)

	d1, err := formats.DecodeAs("tmfile", "original", data)
	if err != nil {
		t.Fatal(err)
	}
	d2, err := formats.DecodeAs("tmfile", "written", written)
	if err != nil {
		t.Fatal(err)
	}
	compareDocuments(t, d1, d2)
}

func compareModels(t *testing.T, a, b *tmfile.Model) {
	t.Helper()
	// Param bytes hold offsets that move when the file is rewritten:
	// compare them with their resolved references instead.
	strip := func(m *tmfile.Model) *tmfile.Model {
		c := *m
		c.Nodes = make([]tmfile.Node, len(m.Nodes))
		for i, n := range m.Nodes {
			n.Op.Param = maskRefs(n.Op)
			c.Nodes[i] = n
		}
		return &c
	}
	sa, sb := strip(a), strip(b)
	if !reflect.DeepEqual(sa.Nodes, sb.Nodes) {
		for i := range sa.Nodes {
			if !reflect.DeepEqual(sa.Nodes[i], sb.Nodes[i]) {
				t.Fatalf("node %d differs:\n%+v\n%+v", i, sa.Nodes[i], sb.Nodes[i])
			}
		}
		t.Fatalf("nodes differ")
	}
	sa.Nodes, sb.Nodes = nil, nil
	if !reflect.DeepEqual(sa, sb) {
		t.Fatalf("models differ:\n%+v\n%+v", summary(sa), summary(sb))
	}
}

func summary(m *tmfile.Model) string {
	b, _ := json.Marshal(struct {
		V                       [3]uint16
		O, S                    int32
		N, SN                   string
		ID                      uint32
		GL, ML                  int32
		In, Out                 []uint32
		Tensors, Buffers, Infos int
	}{[3]uint16{m.VerMain, m.VerSub, m.VerCompile}, m.OrigFormat, m.SubFormat, m.Name, m.SubgraphName, m.SubgraphID,
		m.GraphLayout, m.ModelLayout, m.Inputs, m.Outputs, len(m.Tensors), len(m.Buffers), len(m.SubInfo)})
	return string(b)
}

// maskRefs returns the param with the offset fields that have references
// zeroed.
func maskRefs(op tmfile.Operator) []byte {
	if op.Param == nil {
		return nil
	}
	p := append([]byte(nil), op.Param...)
	for _, r := range op.Refs {
		binary.LittleEndian.PutUint32(p[r.At:], 0)
	}
	return p
}

func compareDocuments(t *testing.T, a, b *formats.Document) {
	t.Helper()
	js := func(v any) string {
		out, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return string(out)
	}
	if js(a.Graph) != js(b.Graph) {
		t.Errorf("graphs differ")
	}
	if js(a.Metadata) != js(b.Metadata) {
		t.Errorf("metadata differs:\n%s\n%s", js(a.Metadata), js(b.Metadata))
	}
	if js(a.Tables) != js(b.Tables) {
		t.Errorf("tables differ")
	}
	if len(a.Tensors) != len(b.Tensors) {
		t.Fatalf("%d vs %d tensors", len(a.Tensors), len(b.Tensors))
	}
	for i, ea := range a.Tensors {
		eb := b.Tensors[i]
		if ea.Name != eb.Name || ea.DType != eb.DType || !reflect.DeepEqual(ea.Shape, eb.Shape) || ea.Role != eb.Role ||
			ea.NBytes != eb.NBytes || !reflect.DeepEqual(ea.Quant, eb.Quant) || js(ea.Attrs) != js(eb.Attrs) ||
			ea.Note != eb.Note || ea.HasData() != eb.HasData() {
			t.Fatalf("tensor %d differs:\n%+v\n%+v", i, ea, eb)
		}
		if !ea.HasData() {
			continue
		}
		ta, err := ea.Load(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		tb, err := eb.Load(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		n := int(ea.NBytes)
		if !bytes.Equal(ta.Storage().Bytes()[ta.Offset():ta.Offset()+n], tb.Storage().Bytes()[tb.Offset():tb.Offset()+n]) {
			t.Fatalf("tensor %d (%s): data differs", i, ea.Name)
		}
	}
}

func TestRoundTripSamples(t *testing.T) {
	for _, path := range sampleFiles(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			roundTrip(t, data)
		})
	}
}

func TestRoundTripGenerated(t *testing.T) {
	for name, m := range map[string]*tmfile.Model{
		"demo":           synth.Demo(),
		"cnn300":         synth.CNN(300, true),
		"cnn300-no-data": synth.CNN(300, false),
		"every-op":       everyOpModel(t),
	} {
		t.Run(name, func(t *testing.T) {
			data, err := tmfile.Marshal(m)
			if err != nil {
				t.Fatal(err)
			}
			back, _, err := tmfile.Decode(data)
			if err != nil {
				t.Fatal(err)
			}
			compareModels(t, m, back)
			roundTrip(t, data)
		})
	}
}
