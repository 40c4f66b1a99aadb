package tsm

import (
	"bytes"
	"encoding/binary"
	"flag"
	"io"
	"math"
	"os"
	"path/filepath"
	"testing"

	"tensorscope/formats"
)

var update = flag.Bool("update", false, "rewrite the generated fixtures in testdata/")

// packedModule mirrors the TenniS frontend's packed sample: one <const>
// whose value has three fields, int32[2], char8 "abc" and a float32 scalar.
func packedModule() *Module {
	b := NewBuilder()
	c := b.Const("packed_const", Int32s([]int32{1, 2}, 2), String("abc"), Float32(1.5))
	b.Output(c)
	return b.Module()
}

// allDTypesModule has one node whose parameters hold a field of every
// TenniS dtype, scalar and array, and a <const> per dtype.
func allDTypesModule() *Module {
	b := NewBuilder()
	b.SetUserData(bytes.Repeat([]byte{0xab}, UserDataSize))
	var params []Param
	var consts []int
	for d := VOID; d <= SINK8Q7; d++ {
		params = append(params,
			P("scalar_"+d.String(), sampleField(d, nil)),
			P("vector_"+d.String(), sampleField(d, []int{3})),
			P("matrix_"+d.String(), sampleField(d, []int{2, 3})),
			P("large_"+d.String(), sampleField(d, []int{5, 4})))
		consts = append(consts, b.Const("const_"+d.String(), sampleField(d, []int{2, 2})))
	}
	params = append(params,
		P("text", String("hello")),
		P("one", sampleField(INT64, []int{1})),
		P("packed", Int32(7), String("x"), Bool(false)),
		P("empty_packed"),
		P("empty_vector", Int32s(nil, 0)),
		P("negative", mustField(INT8, []byte{0xff}), mustField(INT16, []byte{0xfe, 0xff}),
			Int32(-5), mustField(INT64, []byte{0xf9, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}),
			mustField(UINT64, []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff})))
	x := b.Input("x", FLOAT16, 2, 3)
	n := b.Node("every_dtype", "all", append([]int{x}, consts...), params...)
	b.Output(n)
	return b.Module()
}

func mustField(d DType, data []byte) Tensor {
	t, err := NewTensor(d, nil, data)
	if err != nil {
		panic(err)
	}
	return t
}

// sampleField makes a field of d and shape whose bytes count up from 1
// (so every element differs and none is zero).
func sampleField(d DType, shape []int) Tensor {
	size, _ := d.Size()
	n := 1
	for _, s := range shape {
		n *= s
	}
	data := make([]byte, n*size)
	switch d {
	case FLOAT16:
		for i := 0; i < n; i++ {
			binary.LittleEndian.PutUint16(data[2*i:], 0x3c00+uint16(i)) // 1.0, 1.0009765625, ...
		}
	case FLOAT32:
		for i := 0; i < n; i++ {
			binary.LittleEndian.PutUint32(data[4*i:], math.Float32bits(0.5+float32(i)))
		}
	case FLOAT64:
		for i := 0; i < n; i++ {
			binary.LittleEndian.PutUint64(data[8*i:], math.Float64bits(0.25+float64(i)))
		}
	case BOOLEAN:
		for i := range data {
			data[i] = byte(i % 2)
		}
	case CHAR8, CHAR16, CHAR32:
		for i := 0; i < n; i++ {
			switch size {
			case 1:
				data[i] = 'a' + byte(i%26)
			case 2:
				binary.LittleEndian.PutUint16(data[2*i:], 0x3b1+uint16(i)) // Greek
			case 4:
				binary.LittleEndian.PutUint32(data[4*i:], 0x1f600+uint32(i)) // emoji
			}
		}
	default:
		for i := range data {
			data[i] = byte(i + 1)
		}
	}
	t, err := NewTensor(d, shape, data)
	if err != nil {
		panic(err)
	}
	return t
}

func exampleCSTA(t testing.TB) []byte {
	var mod bytes.Buffer
	if err := Encode(&mod, ExampleNet()); err != nil {
		t.Fatal(err)
	}
	root := formats.NewObject("",
		formats.NewObject("#signed", formats.Leaf("user_key", "TSCOPE")),
		formats.NewObject("backbone", formats.Leaf("tsm", formats.Bytes(mod.Bytes()))),
		formats.NewObject("global",
			formats.Leaf("threshold", 0.9),
			formats.Leaf("enabled", true),
			formats.Leaf("nothing", nil),
			formats.Leaf("salt", formats.Bytes{1, 2, 3})),
		formats.NewList("pre_processor",
			formats.NewObject("", formats.Leaf("op", "to_float")),
			formats.NewObject("", formats.Leaf("op", "sub_mean"),
				formats.NewList("mean", formats.Leaf("", int64(104)), formats.Leaf("", int64(117)), formats.Leaf("", int64(123))))))
	var out bytes.Buffer
	if err := EncodeCSTA(&out, root); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// fixtures are the generated files in testdata/, by name.
func fixtures(t testing.TB) map[string][]byte {
	enc := func(m *Module) []byte {
		var buf bytes.Buffer
		if err := Encode(&buf, m); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	return map[string][]byte{
		"example_net.tsm":  enc(ExampleNet()),
		"packed.tsm":       enc(packedModule()),
		"all_dtypes.tsm":   enc(allDTypesModule()),
		"example_net.csta": exampleCSTA(t),
	}
}

// TestFixtures checks that testdata/ holds what the writers produce now;
// `go generate` (go test . -run TestFixtures -args -update) rewrites it.
func TestFixtures(t *testing.T) {
	for name, want := range fixtures(t) {
		path := filepath.Join("testdata", name)
		if *update {
			if err := formats.WriteFileAtomic(path, func(w io.Writer) error { _, err := w.Write(want); return err }); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run go generate ./formats/tsm)", err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from what the writer produces now; run go generate ./formats/tsm", path)
		}
	}
}

func readFixture(t testing.TB, name string) []byte {
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}
