package tsm

import (
	"bytes"
	"encoding/binary"
	"errors"
	"strings"
	"testing"

	"tensorscope/formats"
)

// sealCSTA encrypts a decrypted container (code + tree), padding it to 16.
func sealCSTA(plain []byte) []byte {
	pad := cstaBlock - len(plain)%cstaBlock
	plain = append(append([]byte{}, plain...), bytes.Repeat([]byte{byte(pad)}, pad)...)
	out := append([]byte(cstaMask), make([]byte, len(plain))...)
	xorFast(out[cstaHdrSize:], plain)
	return out
}

// tree encodes pieces after the container code.
func tree(t testing.TB, root *formats.Meta) []byte {
	var buf bytes.Buffer
	buf.Write(binary.LittleEndian.AppendUint32(nil, Magic))
	if err := writePieces(&buf, root, 0); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func withBackbone(module []byte, more ...*formats.Meta) *formats.Meta {
	root := formats.NewObject("", formats.NewObject("backbone", formats.Leaf("tsm", formats.Bytes(module))))
	return root.Add(more...)
}

func TestCSTAFixture(t *testing.T) {
	data := readFixture(t, "example_net.csta")
	doc, err := formats.OpenBytes("example_net.csta", data)
	if err != nil {
		t.Fatal(err)
	}
	if doc.Format != "csta" || len(doc.Warnings) != 0 {
		t.Fatalf("format %s, warnings %v", doc.Format, doc.Warnings)
	}
	plain := decodeDoc(t, readFixture(t, "example_net.tsm"))
	sameGraph(t, doc, plain)
	md := doc.Metadata
	if v := md.Child("global").Child("threshold").Value; v != 0.9 {
		t.Errorf("threshold %v", v)
	}
	if v := md.Child("global").Child("enabled").Value; v != true {
		t.Errorf("enabled %v", v)
	}
	if c := md.Child("global").Child("nothing"); c == nil || c.Value != nil || !c.IsLeaf() {
		t.Errorf("nil piece %+v", c)
	}
	if v := md.Child("global").Child("salt").Value; !bytes.Equal(v.(formats.Bytes), []byte{1, 2, 3}) {
		t.Errorf("binary piece %v", v)
	}
	mean := md.Child("pre_processor").Children[1].Child("mean")
	if !mean.List || len(mean.Children) != 3 || mean.Children[2].Value != int64(123) {
		t.Errorf("mean %+v", mean)
	}
	// Tensors view the decrypted buffer, not the file.
	x := loadBytes(t, doc.Tensor("fc_weights"))
	if bytes.Contains(data, x[:64]) {
		t.Errorf("fc weights appear unencrypted in the file")
	}
}

func TestCSTAErrors(t *testing.T) {
	module := readFixture(t, "example_net.tsm")
	badModule := append([]byte{}, module...)
	binary.LittleEndian.PutUint32(badModule[128:], 100000) // input count larger than the module
	// The writer refuses trees this deep, so write the pieces by hand:
	// 80 nested one-element lists.
	deep := binary.LittleEndian.AppendUint32(nil, Magic)
	for i := 0; i < 80; i++ {
		deep = append(deep, pieceList, 1, 0, 0, 0)
	}
	deep = append(deep, pieceNil)
	otherKey := append([]byte(cstaMask), module[:64]...) // plain bytes where cipher text belongs

	cases := []struct {
		name   string
		data   []byte
		offset int64
		want   string
	}{
		{"not fast", module, 0, `unsupported or encrypted .csta variant: expected the mask "fast" at byte 0`},
		{"other key", otherKey, 4, "unsupported or encrypted .csta variant: after the \"fast\" XOR the container code is"},
		{"short", []byte("fast\x01"), 4, "container code"},
		{"unknown piece", sealCSTA(append(binary.LittleEndian.AppendUint32(nil, Magic), 9)), 8, "decrypted byte 4: unknown piece type 9"},
		{"too deep", sealCSTA(deep), 8 + 65*5, "nested more than 64 deep"},
		{"no backbone", sealCSTA(tree(t, formats.NewObject("", formats.Leaf("x", int64(1))))), 8, "no binary backbone.tsm"},
		{"backbone not binary", sealCSTA(tree(t, formats.NewObject("", formats.NewObject("backbone", formats.Leaf("tsm", "text"))))), 8, "no binary backbone.tsm"},
		{"bad module", sealCSTA(tree(t, withBackbone(badModule))), 4 + 4 + 5 + 12 + 5 + 7 + 5 + 128,
			"embedded module byte 128: module inputs count: count 100000"},
		{"huge dict", sealCSTA(append(binary.LittleEndian.AppendUint32(nil, Magic), 6, 0xff, 0xff, 0xff, 0x7f)), 9, "dict piece count: count 2147483647"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := formats.DecodeAs("csta", "bad.csta", c.data)
			var fe *formats.Error
			if !errors.As(err, &fe) {
				t.Fatalf("error %v is not a *formats.Error", err)
			}
			if fe.Offset != c.offset || !strings.Contains(fe.Msg, c.want) {
				t.Errorf("got %v (offset %d)\nwant offset %d and %q", err, fe.Offset, c.offset, c.want)
			}
		})
	}
	// A short file is reported as truncated.
	_, err := formats.DecodeAs("csta", "short", []byte("fast\x01"))
	if !errors.Is(err, formats.ErrTruncated) {
		t.Errorf("short file: %v does not wrap ErrTruncated", err)
	}
}

func TestCSTAWarnings(t *testing.T) {
	module := readFixture(t, "example_net.tsm")

	// Bytes after the tree, and after the module inside its piece.
	plain := tree(t, withBackbone(append(append([]byte{}, module...), 0, 0)))
	plain = append(plain, 7, 7, 7)
	doc := mustCSTA(t, sealCSTA(plain))
	checkWarnings(t, doc, "3 bytes after the piece tree", "2 bytes after the embedded module's last node")

	// No valid padding: read to the end, with a warning.
	plain = tree(t, withBackbone(module))
	sealed := sealCSTA(plain)
	doc = mustCSTA(t, sealed[:cstaHdrSize+len(plain)])
	checkWarnings(t, doc, "does not end in a valid padding")

	// A tree too large to show: the metadata stops, with a warning.
	many := formats.NewList("many")
	for i := 0; i < maxMetaNodes+10; i++ {
		many.Add(formats.Leaf("", nil))
	}
	doc = mustCSTA(t, sealCSTA(tree(t, withBackbone(module, many))))
	checkWarnings(t, doc, "more than 100000 entries")
	if n := len(doc.Metadata.Child("many").Children); n >= maxMetaNodes {
		t.Errorf("%d entries shown", n)
	}
	if doc.Graph == nil || len(doc.Graph.Nodes) != 10 {
		t.Errorf("graph lost")
	}
}

func mustCSTA(t *testing.T, data []byte) *formats.Document {
	t.Helper()
	doc, err := formats.DecodeAs("csta", "test.csta", data)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func checkWarnings(t *testing.T, doc *formats.Document, want ...string) {
	t.Helper()
	var all []string
	for _, w := range doc.Warnings {
		all = append(all, w.String())
	}
	s := strings.Join(all, "\n")
	for _, w := range want {
		if !strings.Contains(s, w) {
			t.Errorf("missing warning %q in %q", w, s)
		}
	}
}

// TestCSTAPieceRoundTrip: pieces written from metadata read back as the
// same metadata, with f32 values shown by their shortest decimal.
func TestCSTAPieceRoundTrip(t *testing.T) {
	module := readFixture(t, "example_net.tsm")
	extra := []*formats.Meta{
		formats.NewObject("values",
			formats.Leaf("int", int64(-7)),
			formats.Leaf("float", 0.1),
			formats.Leaf("float32", float32(2.5)),
			formats.Leaf("text", "héllo"),
			formats.Leaf("yes", true),
			formats.Leaf("none", nil),
			formats.NewList("empty"),
			formats.NewObject("empty_dict")),
	}
	doc := mustCSTA(t, sealCSTA(tree(t, withBackbone(module, extra...))))
	v := doc.Metadata.Child("values")
	want := map[string]any{"int": int64(-7), "float": 0.1, "float32": 2.5, "text": "héllo", "yes": true, "none": nil}
	for k, w := range want {
		if c := v.Child(k); c == nil || c.Value != w {
			t.Errorf("%s: %+v, want %v", k, c, w)
		}
	}
	if c := v.Child("empty"); c == nil || !c.List || c.IsLeaf() || len(c.Children) != 0 {
		t.Errorf("empty list %+v", c)
	}
	if c := v.Child("empty_dict"); c == nil || c.List || c.IsLeaf() {
		t.Errorf("empty dict %+v", c)
	}
	for _, bad := range []*formats.Meta{
		formats.Leaf("big", int64(1)<<40),
		formats.Leaf("odd", struct{}{}),
	} {
		if err := EncodeCSTA(&bytes.Buffer{}, withBackbone(module, bad)); err == nil {
			t.Errorf("%s written", bad.Name)
		}
	}
}
