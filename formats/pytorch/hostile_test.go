package pytorch

import (
	"bytes"
	"compress/flate"
	"context"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tensorscope/formats"
)

// openBoth opens a data.pkl program as a zip checkpoint.
func openZip(t *testing.T, pickle []byte, storages map[string][]byte) (*formats.Document, error) {
	t.Helper()
	return formats.OpenBytes("hostile.pt", checkpointZip(t, pickle, storages))
}

func metaText(m *formats.Meta) string {
	b, _ := m.MarshalJSON()
	return string(b)
}

// TestCodeIsNeverRun: GLOBAL/REDUCE, STACK_GLOBAL, INST, OBJ and NEWOBJ
// of os.system, eval, exec and subprocess become inert objects shown as
// data; the command each would run creates a file, which must not exist.
func TestCodeIsNeverRun(t *testing.T) {
	dir := t.TempDir()
	proof := func(n string) string { return filepath.Join(dir, n) }
	cmd := func(n string) string { return "touch " + proof(n) }
	programs := map[string][]byte{
		"os.system reduce": new(pk).proto(2).global("os", "system").op(opMark).str(cmd("a")).op(opTuple, opReduce).stop(),
		"posix.system":     new(pk).proto(2).global("posix", "system").op(opMark).str(cmd("b")).op(opTuple, opReduce).stop(),
		"builtins.eval": new(pk).proto(2).global("builtins", "eval").op(opMark).
			str("__import__('os').system('"+cmd("c")+"')").op(opTuple, opReduce).stop(),
		"builtins.exec": new(pk).proto(2).global("builtins", "exec").op(opMark).
			str("import os; os.system('"+cmd("d")+"')").op(opTuple, opReduce).stop(),
		"subprocess list": new(pk).proto(2).global("subprocess", "check_call").op(opMark, opMark).
			str("touch").str(proof("e")).op(opList, opTuple, opReduce).stop(),
		"stack global": new(pk).proto(4).str("os").str("system").op(opStackGlobal).op(opMark).str(cmd("f")).op(opTuple, opReduce).stop(),
		"inst":         append([]byte("(V"+cmd("g")+"\nios\nsystem\n"), '.'),
		"obj":          new(pk).proto(2).op(opMark).global("subprocess", "Popen").str("sh").str("-c").str(cmd("h")).op(opObj).stop(),
		"newobj":       new(pk).proto(2).global("subprocess", "Popen").op(opMark, opMark).str("touch").str(proof("i")).op(opList, opTuple, opNewObj).stop(),
		"build setstate": new(pk).proto(2).global("os", "system").op(opEmptyTuple, opNewObj).op(opEmptyDict).
			str("__setstate__").global("os", "system").op(opSetItem, opBuild).stop(),
		"in a state_dict": new(pk).proto(2).dict1("model", func(p *pk) {
			p.global("os", "system").op(opMark).str(cmd("j")).op(opTuple, opReduce)
		}).stop(),
	}
	for name, prog := range programs {
		t.Run(name, func(t *testing.T) {
			for _, data := range [][]byte{checkpointZip(t, prog, nil), legacyFile(prog, nil, nil, 4)} {
				doc, err := formats.OpenBytes("evil.pt", data)
				if err != nil {
					t.Fatalf("an inert object should open: %v", err)
				}
				text := metaText(doc.Metadata)
				if !strings.Contains(text, "object of class") {
					t.Errorf("the metadata does not show the inert object: %s", text)
				}
				doc.Close()
			}
		})
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		t.Errorf("a command ran: %s exists", e.Name())
	}
}

// TestInertObjectState: an unknown class's arguments and state are shown.
func TestInertObjectState(t *testing.T) {
	prog := new(pk).proto(2).dict1("args", func(p *pk) {
		p.global("argparse", "Namespace").op(opEmptyTuple, opNewObj)
		p.op(opEmptyDict, opMark).str("lr").op(opBinFloat, 0x3f, 0x50, 0x62, 0x4d, 0xd2, 0xf1, 0xa9, 0xfc).
			str("weights").tensor("FloatStorage", "0", 2, 0, []int64{2}, []int64{1}).op(opSetItems)
		p.op(opBuild)
	}).stop()
	doc, err := openZip(t, prog, map[string][]byte{"0": f32s(1, 2)})
	if err != nil {
		t.Fatal(err)
	}
	defer doc.Close()
	text := metaText(doc.Metadata)
	for _, want := range []string{`"object of class":"argparse.Namespace"`, `"lr":0.001`, `"weights":"tensor float32[2]"`} {
		if !strings.Contains(text, want) {
			t.Errorf("metadata lacks %s: %s", want, text)
		}
	}
	if len(doc.Tensors) != 1 || doc.Tensors[0].Name != "args.weights" {
		t.Fatalf("tensors %v, want args.weights", names(doc))
	}
}

func names(doc *formats.Document) []string {
	var out []string
	for _, e := range doc.Tensors {
		out = append(out, e.Name)
	}
	return out
}

// wantError checks that err is a *formats.Error naming an offset and
// saying want.
func wantError(t *testing.T, err error, want string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error; want one saying %q", want)
	}
	var fe *formats.Error
	if !errors.As(err, &fe) || fe.Offset < 0 {
		t.Errorf("error %v names no byte offset", err)
	}
	if !strings.Contains(err.Error(), want) {
		t.Errorf("error %q does not say %q", err, want)
	}
}

func TestMemoAndStackAbuse(t *testing.T) {
	cases := []struct {
		name string
		prog []byte
		want string
	}{
		{"get of a missing entry", new(pk).proto(2).op(opBinGet, 9).stop(), "memo entry 9 was never stored"},
		{"long get of a missing entry", new(pk).proto(2).op(opLongBinGet, 0xff, 0xff, 0xff, 0xff).stop(), "never stored"},
		{"put on an empty stack", new(pk).proto(2).op(opBinPut, 0).stop(), "stack is empty"},
		{"append on an empty stack", new(pk).proto(2).op(opNone, opPop, opAppend).stop(), "stack is empty"},
		{"append to a str", new(pk).proto(2).str("x").op(opNone, opAppend).stop(), "APPEND to a str"},
		{"setitem on a list", new(pk).proto(2).op(opEmptyList, opNone, opNone, opSetItem).stop(), "SETITEM on a list"},
		{"pop mark without mark", new(pk).proto(2).op(opNone, opPopMark).stop(), "none is open"},
		{"tuple3 of one value", new(pk).proto(2).op(opNone, opTuple3).stop(), "TUPLE3 needs 3"},
		{"stop on empty stack", new(pk).proto(2).stop(), "STOP with an empty stack"},
		{"no stop", new(pk).proto(2).op(opNone).Bytes(), "without a STOP"},
		{"unknown opcode", new(pk).proto(2).op(0xff).stop(), "not a pickle opcode"},
		{"protocol 9", new(pk).proto(9).op(opNone).stop(), "protocol 9"},
		{"out-of-band buffer", new(pk).proto(5).op(opNextBuffer).stop(), "out-of-band"},
		{"stack flood", append(new(pk).proto(2).Bytes(), bytes.Repeat([]byte{opNone}, maxStack+2)...), "values on the stack"},
		{"mark flood", append(new(pk).proto(2).Bytes(), bytes.Repeat([]byte{opMark}, maxNesting+1)...), "MARKs open"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := openZip(t, c.prog, nil)
			wantError(t, err, c.want)
		})
	}
	t.Run("memo flood", func(t *testing.T) {
		old := maxMemo
		maxMemo = 1000
		defer func() { maxMemo = old }()
		prog := append(new(pk).proto(4).op(opNone).Bytes(), bytes.Repeat([]byte{opMemoize}, 1001)...)
		_, err := openZip(t, append(prog, opStop), nil)
		wantError(t, err, "more than 1000 memo entries")
	})
}

// TestDeepNesting: 100,000 nested lists, tuples or dicts, and 100,000
// MARKs, end with an error, not a stack overflow.
func TestDeepNesting(t *testing.T) {
	const depth = 100000
	lists := new(pk).proto(2)
	lists.Write(bytes.Repeat([]byte{opEmptyList}, depth))
	lists.Write(bytes.Repeat([]byte{opAppend}, depth-1))
	tuples := new(pk).proto(2).op(opNone)
	tuples.Write(bytes.Repeat([]byte{opTuple1}, depth))
	dicts := new(pk).proto(2)
	for range depth {
		dicts.op(opEmptyDict).str("k")
	}
	dicts.op(opNone)
	dicts.Write(bytes.Repeat([]byte{opSetItem}, depth))
	marks := new(pk).proto(2)
	marks.Write(bytes.Repeat([]byte{opMark}, depth))
	for name, p := range map[string]*pk{"lists": lists, "tuples": tuples, "dicts": dicts, "marks": marks} {
		t.Run(name, func(t *testing.T) {
			_, err := openZip(t, p.stop(), nil)
			wantError(t, err, "more than 1000")
		})
	}
}

// TestRepeatedAndCyclicObjects: a list that holds itself, and a DAG that
// expands to 2^60 nodes, open quickly.
func TestRepeatedAndCyclicObjects(t *testing.T) {
	cyclic := new(pk).proto(2).op(opEmptyList, opBinPut, 0, opBinGet, 0, opAppend).stop()
	dag := new(pk).proto(2).op(opEmptyList)
	for range 60 {
		dag.op(opBinPut, 0, opPop, opBinGet, 0, opBinGet, 0, opTuple2)
	}
	for name, prog := range map[string][]byte{"cyclic": cyclic, "dag": dag.stop()} {
		t.Run(name, func(t *testing.T) {
			start := time.Now()
			doc, err := openZip(t, prog, nil)
			if err != nil {
				t.Fatal(err)
			}
			doc.Close()
			if d := time.Since(start); d > 10*time.Second {
				t.Errorf("took %v", d)
			}
		})
	}
}

func TestHugeLengths(t *testing.T) {
	u32 := func(op byte, n uint32) []byte {
		b := []byte{opProto, 2, op, 0, 0, 0, 0}
		binary.LittleEndian.PutUint32(b[3:], n)
		return append(b, "abc."...)
	}
	u64 := func(op byte, n uint64) []byte {
		b := []byte{opProto, 4, op, 0, 0, 0, 0, 0, 0, 0, 0}
		binary.LittleEndian.PutUint64(b[3:], n)
		return append(b, "abc."...)
	}
	cases := map[string][]byte{
		"BINUNICODE 2^31":  u32(opBinUnicode, 1<<31),
		"BINBYTES 2^32-1":  u32(opBinBytes, 1<<32-1),
		"BINSTRING 2^31":   u32(opBinString, 1<<31),
		"BINUNICODE8 2^62": u64(opBinUnicode8, 1<<62),
		"BINBYTES8 2^64-1": u64(opBinBytes8, 1<<64-1),
		"FRAME 2^62":       u64(opFrame, 1<<62),
		"LONG4 2^31-1":     u32(opLong4, 1<<31-1),
	}
	for name, prog := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := openZip(t, prog, nil)
			if err == nil {
				t.Fatal("no error")
			}
			var fe *formats.Error
			if !errors.As(err, &fe) || fe.Offset < 0 {
				t.Errorf("error %v names no offset", err)
			}
		})
	}
}

// tensorProblem opens a one-tensor checkpoint and returns the entry,
// which must exist, have no data, and say why.
func tensorProblem(t *testing.T, data []byte, want string) {
	t.Helper()
	doc, err := formats.OpenBytes("bad.pt", data)
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	defer doc.Close()
	if len(doc.Tensors) != 1 {
		t.Fatalf("%d tensors", len(doc.Tensors))
	}
	e := doc.Tensors[0]
	if e.HasData() {
		t.Fatalf("%s has data; want none because %s", e.Name, want)
	}
	if !strings.Contains(e.Note, want) {
		t.Errorf("note %q does not say %q", e.Note, want)
	}
	if _, err := e.Load(context.Background()); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("Load: %v; want an error saying %q", err, want)
	}
	found := false
	for _, w := range doc.Warnings {
		if strings.Contains(w.Message, want) && w.Offset >= 0 {
			found = true
		}
	}
	if !found {
		t.Errorf("no warning with an offset says %q: %v", want, doc.Warnings)
	}
}

func TestBadViews(t *testing.T) {
	one := func(key string, numel, off int64, size, stride []int64) []byte {
		return new(pk).proto(2).dict1("w", func(p *pk) { p.tensor("FloatStorage", key, numel, off, size, stride) }).stop()
	}
	eight := map[string][]byte{"0": f32s(1, 2, 3, 4, 5, 6, 7, 8)}
	t.Run("missing storage", func(t *testing.T) {
		tensorProblem(t, checkpointZip(t, one("7", 8, 0, []int64{8}, []int64{1}), eight), `storage "7" is missing`)
	})
	t.Run("storage shorter than it says", func(t *testing.T) {
		tensorProblem(t, checkpointZip(t, one("0", 100, 0, []int64{100}, []int64{1}), eight), "the file holds 32")
	})
	t.Run("view beyond its storage", func(t *testing.T) {
		tensorProblem(t, checkpointZip(t, one("0", 8, 2, []int64{4, 2}, []int64{2, 1}), eight), "reaches element 9")
	})
	t.Run("legacy view beyond its storage", func(t *testing.T) {
		obj := new(pk).proto(2).dict1("w", func(p *pk) { p.tensor("FloatStorage", "k", 8, 0, []int64{3, 3}, []int64{3, 1}) }).stop()
		tensorProblem(t, legacyFile(obj, []string{"k"}, map[string][]byte{"k": f32s(1, 2, 3, 4, 5, 6, 7, 8)}, 4), "reaches element 8")
	})
	t.Run("negative stride", func(t *testing.T) {
		tensorProblem(t, checkpointZip(t, one("0", 8, 7, []int64{8}, []int64{-1}), eight), "negative")
	})
	t.Run("2^62 elements", func(t *testing.T) {
		tensorProblem(t, checkpointZip(t, one("0", 8, 0, []int64{1 << 31, 1 << 31}, []int64{0, 0}), eight), "more than 2^48 elements")
	})
	t.Run("stride overflow", func(t *testing.T) {
		tensorProblem(t, checkpointZip(t, one("0", 8, 0, []int64{4, 4}, []int64{1 << 62, 1 << 62}), eight), "beyond 2^63")
	})
	t.Run("key leaving the folder", func(t *testing.T) {
		tensorProblem(t, checkpointZip(t, one("../../etc/passwd", 8, 0, []int64{8}, []int64{1}), eight), "not a member name")
	})
}

// TestUnsafeMemberNames: members named ../x or /x are never used as paths;
// they are ignored with a warning and the checkpoint opens.
func TestUnsafeMemberNames(t *testing.T) {
	prog := new(pk).proto(2).dict1("w", func(p *pk) { p.tensor("FloatStorage", "0", 2, 0, []int64{2}, []int64{1}) }).stop()
	data := zipFile(t,
		zipMember{name: "archive/data.pkl", data: prog},
		zipMember{name: "archive/data/0", data: f32s(1, 2)},
		zipMember{name: "../../evil.sh", data: []byte("rm -rf /")},
		zipMember{name: "archive/../../evil2.sh", data: []byte("x")},
		zipMember{name: "/etc/evil3", data: []byte("x")},
	)
	doc, err := formats.OpenBytes("names.pt", data)
	if err != nil {
		t.Fatal(err)
	}
	defer doc.Close()
	if len(doc.Tensors) != 1 || !doc.Tensors[0].HasData() {
		t.Fatalf("tensors %v", names(doc))
	}
	n := 0
	for _, w := range doc.Warnings {
		if strings.Contains(w.Message, "unsafe name") {
			n++
		}
	}
	if n != 3 {
		t.Errorf("%d warnings about unsafe names, want 3: %v", n, doc.Warnings)
	}
	if _, err := os.Stat("../../evil.sh"); err == nil {
		t.Error("a member was written")
	}
}

// TestZipBomb: a member declaring more than deflate can produce is
// refused before anything is allocated; one that inflates past its
// declared size fails when loaded.
func TestZipBomb(t *testing.T) {
	prog := new(pk).proto(2).dict1("w", func(p *pk) { p.tensor("FloatStorage", "0", 1<<30, 0, []int64{1 << 30}, []int64{1}) }).stop()
	bomb := zipFile(t,
		zipMember{name: "archive/data.pkl", data: prog},
		zipMember{name: "archive/data/0", raw: []byte{0x03, 0x00}, declaredSize: 4 << 30},
	)
	tensorProblem(t, bomb, "zip bomb")

	var packed bytes.Buffer
	big := bytes.Repeat([]byte{0}, 1<<20)
	zw, _ := flate.NewWriter(&packed, flate.BestCompression)
	zw.Write(big)
	zw.Close()
	prog = new(pk).proto(2).dict1("w", func(p *pk) { p.tensor("FloatStorage", "0", 16, 0, []int64{16}, []int64{1}) }).stop()
	liar := zipFile(t,
		zipMember{name: "archive/data.pkl", data: prog},
		zipMember{name: "archive/data/0", raw: packed.Bytes(), data: big[:64], declaredSize: 64},
	)
	doc, err := formats.OpenBytes("liar.pt", liar)
	if err != nil {
		t.Fatal(err)
	}
	defer doc.Close()
	if _, err := doc.Tensors[0].Load(context.Background()); err == nil || !strings.Contains(err.Error(), "inflates past the 64 bytes the member declares") {
		t.Errorf("Load: %v; want the stream refused", err)
	}

	pickleBomb := zipFile(t, zipMember{name: "archive/data.pkl", raw: []byte{0x03, 0x00}, declaredSize: 1 << 40})
	_, err = formats.OpenBytes("bomb.pt", pickleBomb)
	wantError(t, err, "zip bomb")
}

// TestFloat8Storages: torch ≥ 2.1 saves float8 tensors with storage
// classes torch 1.13 cannot write; a hand-written checkpoint stands in.
func TestFloat8Storages(t *testing.T) {
	for cls, want := range map[string]string{"Float8_e4m3fnStorage": "float8_e4m3fn", "Float8_e5m2Storage": "float8_e5m2",
		"Float8_e4m3fnuzStorage": "float8_e4m3fnuz", "Float8_e5m2fnuzStorage": "float8_e5m2fnuz"} {
		prog := new(pk).proto(2).dict1("w", func(p *pk) { p.tensor(cls, "0", 4, 0, []int64{2, 2}, []int64{2, 1}) }).stop()
		doc, err := openZip(t, prog, map[string][]byte{"0": {0x38, 0x40, 0xb8, 0x00}})
		if err != nil {
			t.Fatal(err)
		}
		e := doc.Tensors[0]
		if e.TypeString() != want {
			t.Errorf("%s: dtype %s, want %s", cls, e.TypeString(), want)
		}
		v, err := e.Load(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if x, _ := v.Float64At([]int{1, 1}); x != 0 {
			t.Errorf("%s: [1,1] = %v, want 0", cls, x)
		}
		doc.Close()
	}
}
