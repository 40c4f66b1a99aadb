package tsm

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"tensorscope/formats"
	"tensorscope/internal/samples"
)

// exercise touches everything a viewer would: JSON, every tensor's data.
func exercise(t *testing.T, doc *formats.Document) {
	if _, err := json.Marshal(doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Graph.Nodes) != len(doc.Graph.Values) {
		t.Fatalf("%d nodes, %d values", len(doc.Graph.Nodes), len(doc.Graph.Values))
	}
	for _, e := range doc.Tensors {
		if !e.HasData() {
			continue
		}
		x, err := e.Load(context.Background())
		if err != nil {
			t.Fatalf("%s: %v", e.Name, err)
		}
		if int64(x.Len()*x.DType().Size()) != e.NBytes {
			t.Fatalf("%s: %d elements for %d bytes", e.Name, x.Len(), e.NBytes)
		}
	}
}

func FuzzDecodeTSM(f *testing.F) {
	samples.Seed(f, "tsm", ".tsm")
	for _, name := range []string{"example_net.tsm", "packed.tsm", "all_dtypes.tsm"} {
		f.Add(readFixture(f, name))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, err := formats.DecodeAs("tsm", "fuzz.tsm", data)
		if err != nil {
			return
		}
		exercise(t, doc)
		// Whatever decodes re-encodes to the same bytes.
		m, end, err := Decode(data)
		if err != nil {
			t.Fatalf("document decoded but module did not: %v", err)
		}
		var buf bytes.Buffer
		if err := Encode(&buf, m); err != nil {
			t.Fatalf("decoded module does not encode: %v", err)
		}
		if !bytes.Equal(buf.Bytes(), data[:end]) {
			t.Fatalf("re-encoding changed the module")
		}
	})
}

func FuzzDecodeCSTA(f *testing.F) {
	samples.Seed(f, "tsm", ".csta")
	f.Add(readFixture(f, "example_net.csta"))
	f.Add(sealCSTA(tree(f, withBackbone(readFixture(f, "packed.tsm"),
		formats.NewList("l", formats.Leaf("", 1.5), formats.Leaf("", false), formats.Leaf("", nil)),
		formats.NewObject("d", formats.Leaf("s", "x"), formats.Leaf("b", formats.Bytes{9}))))))
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, err := formats.DecodeAs("csta", "fuzz.csta", data)
		if err != nil {
			return
		}
		exercise(t, doc)
	})
}
