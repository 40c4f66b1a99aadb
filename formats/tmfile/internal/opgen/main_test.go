package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tensorscope/formats"
	"tensorscope/internal/samples"
)

// TestGeneratedTableIsCurrent regenerates the operator table from the spec
// and compares it with the committed optable_gen.go.
func TestGeneratedTableIsCurrent(t *testing.T) {
	tsv := filepath.Join(filepath.Dir(samples.Root()), "specs", "tmfile", "op-params.tsv")
	if _, err := os.Stat(tsv); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is missing, and CI=true requires it", tsv)
		}
		t.Skipf("%s is missing; skipping", tsv)
	}
	ops, err := readTables(tsv, "../../op-meaning.tsv")
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

func TestJoinMeaningsRejectsBadRows(t *testing.T) {
	const params = "5\tCONVOLUTION\tConvolution\tS\t12\tkernel_h:i32@0;kernel_w:i32@4;scale:f32@8\t\n" +
		"12\tINPUTOP\tInputOp\t-\t0\t\t\n"
	const input = "InputOp\tinput\t-\t-\t-\t-\t-\t-\t-\t-\n"
	for name, rows := range map[string]string{
		"missing operator": "Convolution\tconvolution\tkernel_h,kernel_w\t-\t-\t-\t-\t-\t-\t-\n",
		"unknown operator": input + "Conv\tconvolution\t-\t-\t-\t-\t-\t-\t-\t-\nConvolution\tconvolution\t-\t-\t-\t-\t-\t-\t-\t-\n",
		"unknown category": input + "Convolution\tconv\t-\t-\t-\t-\t-\t-\t-\t-\n",
		"no such field":    input + "Convolution\tconvolution\tkernel_h,kernel_x\t-\t-\t-\t-\t-\t-\t-\n",
		"float field":      input + "Convolution\tconvolution\t-\t-\t-\tscale\t-\t-\t-\t-\n",
		"two in one":       input + "Convolution\tconvolution\t-\t-\t-\tkernel_h,kernel_w\t-\t-\t-\t-\n",
		"short row":        input + "Convolution\tconvolution\t-\n",
		"repeated":         input + input + "Convolution\tconvolution\t-\t-\t-\t-\t-\t-\t-\t-\n",
	} {
		ops, err := parseTSV(strings.NewReader(params))
		if err != nil {
			t.Fatal(err)
		}
		if err := joinMeanings(ops, strings.NewReader(rows)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// The generator spells every category the document model has, by the name
// formats.Category.String gives it.
func TestCategoryIdentsCoverFormats(t *testing.T) {
	if len(categoryIdents) != int(formats.NumCategories) {
		t.Errorf("%d category names, formats has %d", len(categoryIdents), formats.NumCategories)
	}
	for c := formats.Category(0); c < formats.NumCategories; c++ {
		if _, ok := categoryIdents[c.String()]; !ok {
			t.Errorf("no identifier for category %q", c)
		}
	}
}
