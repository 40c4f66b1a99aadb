package tsr

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"tensorscope/formats"
	"tensorscope/tensor"
)

// patched returns a copy of b with v written little-endian at off.
func patched(b []byte, off int, v any) []byte {
	out := bytes.Clone(b)
	var w bytes.Buffer
	if err := binary.Write(&w, binary.LittleEndian, v); err != nil {
		panic(err)
	}
	copy(out[off:], w.Bytes())
	return out
}

// resealed recomputes a TSR4 header's CRC after a test patched the header.
func resealed(b []byte) []byte {
	binary.LittleEndian.PutUint32(b[headerCRCAt:], headerCRC(b))
	return b
}

func wantError(t *testing.T, id string, b []byte, off int64, substr string) {
	t.Helper()
	_, err := formats.DecodeAs(id, "test", b)
	var fe *formats.Error
	if !errors.As(err, &fe) {
		t.Fatalf("want an error at byte %d containing %q, got %v", off, substr, err)
	}
	if fe.Offset != off || !strings.Contains(fe.Msg, substr) {
		t.Errorf("want an error at byte %d containing %q, got %v", off, substr, err)
	}
}

func wantWarning(t *testing.T, id string, b []byte, off int64, substr string) *formats.Document {
	t.Helper()
	doc, err := formats.DecodeAs(id, "test", b)
	if err != nil {
		t.Fatalf("want a warning at byte %d containing %q, got the error %v", off, substr, err)
	}
	for _, w := range doc.Warnings {
		if w.Offset == off && strings.Contains(w.Message, substr) {
			return doc
		}
	}
	t.Errorf("want a warning at byte %d containing %q, got %v", off, substr, doc.Warnings)
	return doc
}

func encoded(t *testing.T, enc func(*bytes.Buffer) error) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := enc(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestCorruptV1(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	x := randomTensor(t, rng, tensor.Int32, []int{2, 3})
	b := encoded(t, func(w *bytes.Buffer) error { return EncodeV1(w, x) })

	wantError(t, "tsr", b[:10], 0, "shorter than the 64-byte")
	wantError(t, "tsr", patched(b, 0, []byte("TSR?")), 0, `expected "TSR!"`)
	wantError(t, "tsr", patched(b, 4, int32(2)), 4, "version: expected 1, found 2")
	wantError(t, "tsr", patched(b, 16, int32(4)), 16, "expected one of 1 FP32, 2 INT8, 3 INT32, found 4")
	wantError(t, "tsr", patched(b, 20, int32(5)), 20, "ndim: expected 0 to 4")
	wantError(t, "tsr", patched(b, 20, int32(-1)), 20, "ndim")
	wantError(t, "tsr", patched(b, 28, int32(-1)), 28, "dims[1]")
	wantError(t, "tsr", patched(b, 40, int64(7)), 40, "expected 6")
	wantError(t, "tsr", append(bytes.Clone(b), 0), int64(len(b)+1), "expected 88 bytes")
	wantError(t, "tsr", b[:len(b)-1], int64(len(b)-1), "expected 88 bytes")
	// A header claiming 2^60 elements is refused before anything is sized by it.
	huge := patched(b, 24, []int32{1 << 15, 1 << 15, 1 << 15, 1 << 15})
	huge = patched(huge, 40, int64(1)<<60)
	wantError(t, "tsr", huge, 24, "2^48")

	wantWarning(t, "tsr", patched(b, 8, int32(60)), 8, "header_size is 60")
	wantWarning(t, "tsr", patched(b, 12, int32(1)), 12, "reserved_1")
	wantWarning(t, "tsr", patched(b, 48, int64(1)), 48, "reserved_2")
	wantWarning(t, "tsr", patched(b, 56, int64(1)), 56, "reserved_3")
	// ndim 1 over dims [1,1,2,3]: the reference reads the first 3 of 6 elements.
	doc := wantWarning(t, "tsr", patched(b, 20, int32(1)), 32, "first 3 of the 6")
	if e := doc.Tensors[0]; len(e.Shape) != 1 || e.Shape[0] != 3 {
		t.Errorf("shape %v, want [3]", e.Shape)
	}
	got := tensorBytes(t, load(t, doc.Tensors[0]))
	if !bytes.Equal(got, tensorBytes(t, x)[:12]) {
		t.Error("ndim 1 tensor is not the first 3 stored elements")
	}
}

func TestCorruptV3(t *testing.T) {
	rng := rand.New(rand.NewPCG(10, 10))
	x := randomTensor(t, rng, tensor.Float32, []int{2, 3})
	raw := encoded(t, func(w *bytes.Buffer) error { return EncodeV3(w, x, RAW) })
	z := encoded(t, func(w *bytes.Buffer) error { return EncodeV3(w, x, ZLIB) })

	wantError(t, "tsr3", raw[:127], 0, "shorter than the 128-byte")
	wantError(t, "tsr3", patched(raw, 8, uint32(4)), 8, "version: expected 3")
	wantError(t, "tsr3", patched(raw, 4, uint32(127)), 4, "header_size: expected 128")
	wantError(t, "tsr3", patched(raw, 12, uint32(2)), 12, "file_mode")
	wantError(t, "tsr3", patched(raw, 16, uint8(5)), 16, "1 FP32, 2 BF16, 3 INT32, 4 INT8")
	wantError(t, "tsr3", patched(raw, 17, uint8(5)), 17, "ndim")
	wantError(t, "tsr3", patched(raw, 44, uint64(128)), 44, "expected 256 in RAW mode")
	wantError(t, "tsr3", patched(z, 44, uint64(256)), 44, "expected 128 in ZLIB mode")
	wantError(t, "tsr3", patched(raw, 28, int32(-2)), 28, "dims[2]")
	wantError(t, "tsr3", patched(raw, 36, uint64(7)), 36, "numel: expected 6")
	wantError(t, "tsr3", patched(raw, 60, uint64(25)), 60, "raw_data_size: expected 24")
	wantError(t, "tsr3", patched(raw, 52, uint64(1)<<62), 52, "run past the end")
	wantError(t, "tsr3", raw[:len(raw)-1], 52, "run past the end")
	// 2^40 bytes claimed from a 40-byte zlib stream.
	big := patched(z, 20, []int32{1 << 10, 1 << 10, 1 << 10, 1 << 8})
	big = patched(big, 36, uint64(1)<<38)
	big = patched(big, 60, uint64(1)<<40)
	wantError(t, "tsr3", big, 60, "cannot come from")
	// 1 MiB from a stream of a few dozen bytes is past deflate's 1032:1 too.
	mib := patched(z, 20, []int32{0, 0, 1 << 9, 1 << 9})
	mib = patched(mib, 36, uint64(1)<<18)
	mib = patched(mib, 60, uint64(1)<<20)
	wantError(t, "tsr3", mib, 60, "cannot come from")

	wantWarning(t, "tsr3", patched(raw, 18, uint8(1)), 18, "reserved_1")
	wantWarning(t, "tsr3", patched(raw, 72, uint32(1)), 72, "reserved_2")
	wantWarning(t, "tsr3", patched(raw, 100, uint8(1)), 100, "header padding")
	wantWarning(t, "tsr3", patched(raw, 200, uint8(1)), 200, "alignment padding")
	wantWarning(t, "tsr3", append(bytes.Clone(raw), 1, 2, 3), int64(len(raw)), "3 trailing bytes")
	wantWarning(t, "tsr3", patched(raw, 52, uint64(20)), 52, "payload_size is 20")
	flipped := bytes.Clone(raw)
	flipped[len(flipped)-1] ^= 1
	doc := wantWarning(t, "tsr3", flipped, 68, "CRC-32 mismatch")
	if _, err := doc.Tensors[0].Load(context.Background()); err != nil {
		t.Errorf("a CRC mismatch reported when opening should not stop loading: %v", err)
	}
	// RAW crc32 0 means unchecked: no warning even though the data changed.
	unchecked := patched(flipped, 68, uint32(0))
	if doc, err := formats.DecodeAs("tsr3", "test", unchecked); err != nil || len(doc.Warnings) != 0 {
		t.Errorf("RAW with crc32 0: %v %v", err, doc.Warnings)
	}
}

func TestZlibBounds(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 11))
	// A stream holding 7 floats declared as 6 must not inflate past 6.
	seven := encoded(t, func(w *bytes.Buffer) error {
		return EncodeV3(w, randomTensor(t, rng, tensor.Float32, []int{7}), ZLIB)
	})
	six := patched(seven, 32, int32(6))
	six = patched(six, 36, uint64(6))
	six = patched(six, 60, uint64(24))
	doc := wantWarning(t, "tsr3", six, 128, "inflates past the declared 24 bytes")
	if _, err := doc.Tensors[0].Load(context.Background()); err == nil || !strings.Contains(err.Error(), "inflates past") {
		t.Errorf("load: %v", err)
	}
	// A stream holding 5 floats declared as 6 ends early.
	five := encoded(t, func(w *bytes.Buffer) error {
		return EncodeV3(w, randomTensor(t, rng, tensor.Float32, []int{5}), ZLIB)
	})
	five = patched(five, 32, int32(6))
	five = patched(five, 36, uint64(6))
	five = patched(five, 60, uint64(24))
	doc = wantWarning(t, "tsr3", five, 128, "ends after 20")
	if _, err := doc.Tensors[0].Load(context.Background()); err == nil {
		t.Error("a short zlib stream loaded")
	}
	// Garbage instead of a zlib stream.
	junk := bytes.Clone(seven)
	for i := 128; i < len(junk); i++ {
		junk[i] = 0xff
	}
	wantWarning(t, "tsr3", junk, 128, "zlib stream")
}

// TestCRCCheckedWhenLoaded covers files too large to verify when opened:
// a mismatch must then stop loading with ErrChecksum instead of going unseen.
func TestCRCCheckedWhenLoaded(t *testing.T) {
	defer func(b int64) { openVerifyBudget = b }(openVerifyBudget)
	openVerifyBudget = 0
	rng := rand.New(rand.NewPCG(12, 12))
	x := randomTensor(t, rng, tensor.Float32, []int{4, 4})
	for _, mode := range []Mode{RAW, ZLIB} {
		b3 := encoded(t, func(w *bytes.Buffer) error { return EncodeV3(w, x, mode) })
		b4 := encoded(t, func(w *bytes.Buffer) error { return EncodeV4(w, []*tensor.Tensor{x}, mode) })
		for id, b := range map[string][]byte{"tsr3": b3, "tsr4": b4} {
			good, err := formats.DecodeAs(id, "test", b)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := good.Tensors[0].Load(context.Background()); err != nil {
				t.Errorf("%s %v: intact file: %v", id, mode, err)
			}
			var crcAt int
			if id == "tsr3" {
				crcAt = 68
			} else {
				crcAt = 128 + 60
			}
			bad := patched(b, crcAt, binary.LittleEndian.Uint32(b[crcAt:])^1)
			doc, err := formats.DecodeAs(id, "test", bad)
			if err != nil {
				t.Fatal(err)
			}
			if len(doc.Warnings) != 0 {
				t.Errorf("%s %v: data was read when opening: %v", id, mode, doc.Warnings)
			}
			_, err = doc.Tensors[0].Load(context.Background())
			if !errors.Is(err, ErrChecksum) {
				t.Errorf("%s %v: load of corrupt data: %v", id, mode, err)
			}
		}
	}
}

func TestLoadHonoursContext(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 13))
	x := randomTensor(t, rng, tensor.Float32, []int{64})
	b := encoded(t, func(w *bytes.Buffer) error { return EncodeV4(w, []*tensor.Tensor{x}, ZLIB) })
	doc, err := formats.DecodeAs("tsr4", "test", b)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := doc.Tensors[0].Load(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("load with a cancelled context: %v", err)
	}
}

func TestCorruptV4(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 14))
	ts := []*tensor.Tensor{
		randomTensor(t, rng, tensor.Float32, []int{2, 3}),
		randomTensor(t, rng, tensor.Int8, []int{5}),
	}
	raw := encoded(t, func(w *bytes.Buffer) error { return EncodeV4(w, ts, RAW) })
	z := encoded(t, func(w *bytes.Buffer) error { return EncodeV4(w, ts, ZLIB) })
	const e0, e1 = 128, 192 // directory entries

	wantError(t, "tsr4", raw[:100], 0, "shorter than the 128-byte")
	wantError(t, "tsr4", patched(raw, 4, uint16(5)), 4, "version_major: expected 4")
	wantError(t, "tsr4", patched(raw, 8, uint32(64)), 8, "header_size")
	wantError(t, "tsr4", patched(raw, 12, uint32(3)), 12, "file_mode")
	wantError(t, "tsr4", patched(raw, 16, uint32(0)), 16, "at least 1")
	wantError(t, "tsr4", patched(raw, 16, uint32(1)<<31), 16, "directory entries")
	wantError(t, "tsr4", patched(raw, 20, uint32(32)), 20, "entry_size")
	wantError(t, "tsr4", patched(raw, 24, uint64(64)), 24, "dir_offset")
	wantError(t, "tsr4", patched(raw, e0, uint8(4)), e0, "0 FP32, 1 FP16, 2 INT8, 3 INT32")
	wantError(t, "tsr4", patched(raw, e0+8, int32(-1)), e0+8, "shape[1]")
	wantError(t, "tsr4", patched(raw, e0+20, int64(5)), e0+20, "numel: expected 6")
	wantError(t, "tsr4", patched(raw, e1+36, uint64(6)), e1+36, "nbytes: expected 5")
	wantError(t, "tsr4", patched(raw, e1+44, uint64(len(raw))), e1+44, "run past the end")
	wantError(t, "tsr4", patched(raw, e1+44, uint64(200)), e1+44, "directory's end 256")
	wantError(t, "tsr4", patched(raw, e0+52, uint64(20)), e0+52, "expected 24 (nbytes) in RAW mode")
	wantError(t, "tsr4", raw[:len(raw)-1], e1+44, "run past the end")
	big := patched(z, e0+4, []int32{1 << 12, 1 << 12, 1 << 12, 1})
	big = patched(big, e0+20, int64(1)<<36)
	big = patched(big, e0+36, uint64(1)<<38)
	wantError(t, "tsr4", big, e0+36, "cannot come from")

	wantWarning(t, "tsr4", resealed(patched(raw, 6, uint16(21))), 6, "version 4.21")
	wantWarning(t, "tsr4", patched(raw, 44, uint32(1)), 40, "header CRC-32 mismatch")
	wantWarning(t, "tsr4", resealed(patched(raw, 44, uint32(1))), 44, "reserved_0")
	wantWarning(t, "tsr4", resealed(patched(raw, 90, uint8(1))), 90, "reserved_1")
	wantWarning(t, "tsr4", resealed(patched(raw, 32, uint64(999))), 32, "data_offset is 999")
	wantWarning(t, "tsr4", patched(raw, e0+2, uint8(1)), e0+1, "reserved_0")
	wantWarning(t, "tsr4", patched(raw, 300, uint8(1)), 300, "alignment padding")
	wantWarning(t, "tsr4", append(bytes.Clone(raw), 0), int64(len(raw)), "1 trailing bytes")
	wantWarning(t, "tsr4", patched(raw, 256, uint8(0x55)), e0+60, "data CRC-32 mismatch")
	wantWarning(t, "tsr4", patched(raw, e1+44, uint64(256)), 256, "overlaps")
	// Moving block 1 off its 256-byte boundary into a larger file.
	moved := append(bytes.Clone(raw), make([]byte, 8)...)
	copy(moved[520:], raw[512:517])
	moved = patched(moved, e1+44, uint64(520))
	wantWarning(t, "tsr4", moved, e1+44, "not a multiple of 256")
	// An empty tensor (a zero dim) is legal to read, with a warning.
	empty := patched(raw, e1+4, []int32{1, 1, 1, 0})
	empty = patched(empty, e1+20, []uint64{0, 0, 0, 512, 0, 0})
	empty = patched(empty, e1+60, uint32(0))
	wantWarning(t, "tsr4", empty[:512], e1+16, "shape[3] is 0")
}

func TestSniffing(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 15))
	x := randomTensor(t, rng, tensor.Float32, []int{3})
	for id, b := range map[string][]byte{
		"tsr":  encoded(t, func(w *bytes.Buffer) error { return EncodeV1(w, x) }),
		"tsr3": encoded(t, func(w *bytes.Buffer) error { return EncodeV3(w, x, RAW) }),
		"tsr4": encoded(t, func(w *bytes.Buffer) error { return EncodeV4(w, []*tensor.Tensor{x}, RAW) }),
	} {
		f, err := formats.Detect(b)
		if err != nil || f.ID != id {
			t.Errorf("%s detected as %v, %v", id, f, err)
		}
	}
	if _, err := formats.OpenBytes("x", []byte("TSR5 not a tsr file")); !errors.Is(err, formats.ErrUnknownFormat) {
		t.Errorf("TSR5: %v", err)
	}
}
