package tensor

import (
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// ggmlReference is one file of testdata/ggml, written by
// scripts/ggml_reference.py from gguf-py's quants.dequantize.
type ggmlReference struct {
	Type   string          `json:"type"`
	Source json.RawMessage `json:"source"`
	Blocks string          `json:"blocks_hex"`
	Values []uint32        `json:"values_f32_bits"`
}

func loadGGMLReferences(t *testing.T) map[DType]ggmlReference {
	t.Helper()
	files, err := filepath.Glob("testdata/ggml/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no reference files in testdata/ggml: %v", err)
	}
	out := map[DType]ggmlReference{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var ref ggmlReference
		if err := json.Unmarshal(b, &ref); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		dt, err := ParseDType(strings.ToLower(ref.Type))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out[dt] = ref
	}
	return out
}

// TestGGMLDecodersMatchGGUFPy compares every decoder with the values
// gguf-py's dequantiser computed for blocks of the real quantised samples,
// bit for bit.
func TestGGMLDecodersMatchGGUFPy(t *testing.T) {
	refs := loadGGMLReferences(t)
	// Every type gguf-py can dequantise has a reference (Q8_1, Q8_K and
	// MXFP4 are checked against ggml's formulas below).
	for _, dt := range []DType{GGMLQ4_0, GGMLQ4_1, GGMLQ5_0, GGMLQ5_1, GGMLQ8_0, GGMLQ2_K, GGMLQ3_K,
		GGMLQ4_K, GGMLQ5_K, GGMLQ6_K, GGMLIQ2_XXS, GGMLIQ2_XS, GGMLIQ2_S, GGMLIQ3_XXS, GGMLIQ3_S,
		GGMLIQ1_S, GGMLIQ1_M, GGMLIQ4_NL, GGMLIQ4_XS, GGMLTQ1_0, GGMLTQ2_0} {
		if _, ok := refs[dt]; !ok {
			t.Errorf("no reference values for %s in testdata/ggml", dt)
		}
	}
	for dt, ref := range refs {
		raw, err := hex.DecodeString(ref.Blocks)
		if err != nil {
			t.Fatalf("%s: %v", dt, err)
		}
		if len(raw)%dt.UnitBytes() != 0 || len(raw)/dt.UnitBytes()*dt.UnitElems() != len(ref.Values) {
			t.Fatalf("%s: %d bytes and %d values do not fit blocks of %d/%d", dt, len(raw), len(ref.Values), dt.UnitElems(), dt.UnitBytes())
		}
		got := make([]float32, len(ref.Values))
		if n := DecodeUnits(dt, got, raw); n != len(got) {
			t.Fatalf("%s: DecodeUnits wrote %d values, want %d", dt, n, len(got))
		}
		bad := 0
		for i, want := range ref.Values {
			if g := math.Float32bits(got[i]); g != want {
				if bad < 5 {
					t.Errorf("%s value %d (block %d): got %g (%08x), gguf-py %g (%08x)", dt, i, i/dt.UnitElems(),
						got[i], g, math.Float32frombits(want), want)
				}
				bad++
			}
		}
		if bad > 0 {
			t.Errorf("%s: %d of %d values differ from gguf-py (source %s)", dt, bad, len(got), ref.Source)
		}
	}
}

// TestGGMLDecodersFormulas checks the types gguf-py cannot dequantise with
// values worked out from ggml's dequantize_row_* by hand.
func TestGGMLDecodersFormulas(t *testing.T) {
	// Q8_K: float32 d, 256 int8 codes, 16 int16 sums (ignored).
	q8k := make([]byte, 292)
	binary.LittleEndian.PutUint32(q8k, math.Float32bits(0.5))
	q8k[4], q8k[5], q8k[259] = 0x7F, 0x80, 0xFF // 127, -128, -1
	got := make([]float32, 256)
	DecodeUnits(GGMLQ8_K, got, q8k)
	if got[0] != 63.5 || got[1] != -64 || got[255] != -0.5 || got[2] != 0 {
		t.Errorf("q8_k: got %v %v %v %v", got[0], got[1], got[2], got[255])
	}
	// Q8_1: f16 d = 2 (0x4000), f16 s, 32 int8 codes.
	q81 := make([]byte, 36)
	q81[1] = 0x40
	q81[4], q81[35] = 3, 0xFE
	got = make([]float32, 32)
	DecodeUnits(GGMLQ8_1, got, q81)
	if got[0] != 6 || got[31] != -4 || got[1] != 0 {
		t.Errorf("q8_1: got %v %v %v", got[0], got[1], got[31])
	}
	// MXFP4: e = 128 gives the half scale 2^(128−127)/2 = 1; the code book
	// holds doubled E2M1 values, so code 7 (E2M1 6) is 12 and code 9 is −1.
	mx := make([]byte, 17)
	mx[0] = 128
	mx[1] = 0x97 // low nibble 7 → +12, high nibble 9 → -1
	got = make([]float32, 32)
	DecodeUnits(GGMLMXFP4, got, mx)
	if got[0] != 12 || got[16] != -1 || got[1] != 0 {
		t.Errorf("mxfp4: got %v %v %v", got[0], got[16], got[1])
	}
	// The two subnormal scales.
	if e8m0Half(0) != float32(math.Ldexp(1, -128)) || e8m0Half(1) != float32(math.Ldexp(1, -127)) || e8m0Half(254) != float32(math.Ldexp(1, 126)) {
		t.Errorf("e8m0Half: %g %g %g", e8m0Half(0), e8m0Half(1), e8m0Half(254))
	}
}

// TestGGMLDecodersAnyBytes runs every decoder over random bytes: any bit
// pattern is valid data, so none may panic, and each must fill every value.
func TestGGMLDecodersAnyBytes(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for dt := GGMLQ4_0; dt <= GGMLMXFP4; dt++ {
		raw := make([]byte, 7*dt.UnitBytes()+dt.UnitBytes()/2) // a partial unit is ignored
		rng.Read(raw)
		dst := make([]float32, 7*dt.UnitElems()+1)
		dst[len(dst)-1] = 42
		if n := DecodeUnits(dt, dst, raw); n != 7*dt.UnitElems() {
			t.Errorf("%s: wrote %d values, want %d", dt, n, 7*dt.UnitElems())
		}
		if dst[len(dst)-1] != 42 {
			t.Errorf("%s: wrote past the whole units", dt)
		}
	}
}
