package archtest

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

const module = "tensorscope"

// allowed lists, for each package (or package prefix ending in "/"), the
// packages of ours it may import: the arrows of docs/ARCHITECTURE.md. A
// codec is any formats/<id> other than formats/all; "codec's own" lets a
// codec import its own sub-packages.
var allowed = []struct {
	pkg     string
	imports []string
}{
	{"tensor", nil},
	{"internal/", nil},
	{"formats", []string{"tensor", "internal/remote"}},
	{"formats/all", []string{"codec"}},
	{"formats/", []string{"formats", "tensor", "codec's own", "formats/internal/"}},
	{"formats/internal/", []string{"formats", "tensor"}},
	{"graphview/layout", nil},
	{"graphview", []string{"graphview/layout"}},
	{"viewmodel", []string{"formats", "formats/all", "graphview", "graphview/", "tensor", "viewmodel/summary", "viewmodel/textfmt"}},
	{"viewmodel/summary", []string{"formats", "tensor"}},
	{"viewmodel/textfmt", []string{"formats", "tensor"}},
	{"viewmodel/", []string{"viewmodel", "viewmodel/textfmt", "formats", "graphview", "tensor"}},
	{"ui/headless", []string{"ui", "viewmodel", "viewmodel/", "formats", "graphview", "graphview/", "tensor"}},
	{"ui/", nil},
	{"ui", []string{"viewmodel", "viewmodel/", "formats", "graphview", "graphview/", "tensor"}},
	{"cli", []string{"ui/headless", "viewmodel", "viewmodel/", "formats", "formats/all", "tensor", "internal/earlyenv"}},
	{"", []string{"cli", "ui", "assets", "internal/earlyenv", "internal/instance"}}, // the root: main
	{"assets", nil},
	{"assets/", nil},
}

// rule returns the allowed imports of pkg: the first entry that names it
// exactly, else the longest prefix entry.
func rule(pkg string) ([]string, bool) {
	best := -1
	for i, r := range allowed {
		if r.pkg == pkg {
			return r.imports, true
		}
		if strings.HasSuffix(r.pkg, "/") && strings.HasPrefix(pkg, r.pkg) && (best < 0 || len(r.pkg) > len(allowed[best].pkg)) {
			best = i
		}
	}
	if best < 0 {
		return nil, false
	}
	return allowed[best].imports, true
}

func permits(pkg, imp string, imports []string) bool {
	codec := func(p string) string { // formats/onnx/onnxtest → formats/onnx
		parts := strings.Split(p, "/")
		if len(parts) < 2 || parts[0] != "formats" || parts[1] == "all" {
			return ""
		}
		return parts[0] + "/" + parts[1]
	}
	for _, a := range imports {
		switch {
		case a == imp:
			return true
		case a == "codec" && codec(imp) != "" && codec(imp) == imp:
			return true
		case a == "codec's own" && codec(imp) != "" && codec(imp) == codec(pkg):
			return true
		case strings.HasSuffix(a, "/") && strings.HasPrefix(imp, a):
			return true
		}
	}
	return false
}

// TestImportsFollowTheArchitecture reads the imports of every non-test
// file in the repository (generators under assets/ and scripts/ aside) and
// fails on any import of ours that the design does not allow.
func TestImportsFollowTheArchitecture(t *testing.T) {
	imports := packageImports(t)
	if len(imports) < 10 {
		t.Fatalf("found only %d packages: is the repository root right?", len(imports))
	}
	var pkgs []string
	for p := range imports {
		pkgs = append(pkgs, p)
	}
	sort.Strings(pkgs)
	for _, pkg := range pkgs {
		rules, ok := rule(pkg)
		if !ok {
			t.Errorf("package %q has no rule here: add it to allowed and to docs/ARCHITECTURE.md", pkg)
			continue
		}
		for _, imp := range imports[pkg] {
			if !permits(pkg, imp, rules) {
				t.Errorf("%s imports %s, against docs/ARCHITECTURE.md", display(pkg), imp)
			}
		}
	}
}

// The rules themselves: a few arrows that must be refused.
func TestImportRulesRefuse(t *testing.T) {
	for _, c := range [][2]string{
		{"tensor", "formats"},
		{"formats", "formats/npy"},
		{"formats/npy", "formats/onnx"},
		{"graphview", "tensor"},
		{"graphview", "formats"},
		{"viewmodel", "formats/safetensors"},
		{"viewmodel", "ui"},
		{"ui", "formats/gguf"},
		{"ui", "cli"},
		{"cli", "formats/tsr"},
		{"viewmodel", "formats/internal/zipfile"},
		{"formats/internal/zipfile", "formats/npy"},
	} {
		rules, _ := rule(c[0])
		if permits(c[0], c[1], rules) {
			t.Errorf("%s may import %s", c[0], c[1])
		}
	}
	rules, _ := rule("formats/onnx/onnxtest/gen")
	if !permits("formats/onnx/onnxtest/gen", "formats/onnx/onnxtest", rules) {
		t.Error("a codec's own sub-packages are refused")
	}
}

func display(pkg string) string {
	if pkg == "" {
		return "the root package"
	}
	return pkg
}

// packageImports maps each package (a path relative to the module root)
// to the packages of ours its non-test files import.
func packageImports(t *testing.T) map[string][]string {
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Dir(filepath.Dir(filepath.Dir(file)))
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("no go.mod at %s", root)
	}
	out := map[string][]string{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || rel == "scripts" || rel == "assets/gendemo" ||
				rel == "assets/genicon" || rel == "assets/desktop/genicons" || strings.HasSuffix(rel, "/internal/opgen")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		pkg := filepath.ToSlash(filepath.Dir(rel))
		if pkg == "." {
			pkg = ""
		}
		for _, spec := range f.Imports {
			imp, _ := strconv.Unquote(spec.Path.Value)
			if ours, ok := strings.CutPrefix(imp, module+"/"); ok && !slices.Contains(out[pkg], ours) {
				out[pkg] = append(out[pkg], ours)
			}
		}
		if _, ok := out[pkg]; !ok {
			out[pkg] = nil
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
