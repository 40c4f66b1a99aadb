package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tensorscope/internal/samples"
)

// TestGeneratedTableIsCurrent regenerates the operator table from the spec
// and compares it with the committed optable_gen.go.
func TestGeneratedTableIsCurrent(t *testing.T) {
	tsv := filepath.Join(filepath.Dir(samples.Root()), "specs", "tmfile", "op-params.tsv")
	f, err := os.Open(tsv)
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is missing, and CI=true requires it", tsv)
		}
		t.Skipf("%s is missing; skipping", tsv)
	}
	defer f.Close()
	ops, err := parseTSV(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(ops) != 107 {
		t.Errorf("%d operators, want 107", len(ops))
	}
	got, err := generate(ops)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("../../optable_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Error("optable_gen.go is out of date: run go generate ./formats/tmfile")
	}
}

func TestParseTSVRejectsBadRows(t *testing.T) {
	for name, row := range map[string]string{
		"overlap":   "1\tX\tX\tS\t8\ta:i32@0;b:i32@2\t",
		"beyond":    "1\tX\tX\tS\t4\ta:i32@0;b:i32@4\t",
		"bad field": "1\tX\tX\tS\t4\ta:int@0\t",
		"unaligned": "1\tX\tX\tS\t8\ta:u8@0;b:f32@1\t",
	} {
		if _, err := parseTSV(strings.NewReader(row + "\n")); err == nil {
			t.Errorf("%s: %q accepted", name, row)
		}
	}
	if _, err := parseTSV(strings.NewReader("1\tX\tX\tS\t4\ta:i32@0\t\n2\tY\tX\tS\t4\ta:i32@0\t\n")); err == nil {
		t.Error("repeated op name accepted")
	}
}
