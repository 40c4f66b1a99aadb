// Package samples finds the real sample files in ../shared/samples for
// tests. When the folder is missing (the repository was cloned alone) tests
// skip with a message; when CI=true they fail instead, because CI must
// exercise the real files.
package samples

import (
	"flag"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"testing"
)

// Root returns the absolute path of ../shared/samples relative to the
// repository root, whether or not it exists.
func Root() string {
	_, file, _, _ := runtime.Caller(0)
	// file is <repo>/internal/samples/samples.go
	repo := filepath.Dir(filepath.Dir(filepath.Dir(file)))
	if env := os.Getenv("TENSORSCOPE_SAMPLES"); env != "" {
		return env
	}
	return filepath.Join(filepath.Dir(repo), "shared", "samples")
}

// Dir returns the samples sub-folder sub (e.g. "tmfile"), or skips the
// test (fails it when CI=true) when it is absent.
func Dir(tb testing.TB, sub string) string {
	tb.Helper()
	d := filepath.Join(Root(), sub)
	if st, err := os.Stat(d); err != nil || !st.IsDir() {
		if os.Getenv("CI") == "true" {
			tb.Fatalf("sample folder %s is missing, and CI=true requires it", d)
		}
		tb.Skipf("sample folder %s is missing; skipping (set CI=true to make this a failure)", d)
	}
	return d
}

// Files returns the files in sub whose names end in one of exts (all files
// when none given), sorted; it skips or fails like Dir.
func Files(tb testing.TB, sub string, exts ...string) []string {
	tb.Helper()
	d := Dir(tb, sub)
	entries, err := os.ReadDir(d)
	if err != nil {
		tb.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		if len(exts) == 0 || slices.ContainsFunc(exts, func(x string) bool { return strings.HasSuffix(e.Name(), x) }) {
			out = append(out, filepath.Join(d, e.Name()))
		}
	}
	sort.Strings(out)
	if len(out) == 0 {
		tb.Fatalf("no sample files in %s with endings %v", d, exts)
	}
	return out
}

// maxFuzzSeed is the largest sample Seed adds to the corpus of a run that
// fuzzes (go test -fuzz). Mutating a multi-megabyte file runs about once a
// second and minimising what it finds takes a minute, so such seeds only
// stall the fuzzer; plain `go test` still runs every sample through the
// fuzz function.
const maxFuzzSeed = 128 << 10

// Seed adds every sample file of sub (ending in one of exts) to a fuzz
// corpus; when fuzzing, only those up to maxFuzzSeed bytes. Fuzzing
// without the samples still works from the other seeds, so a missing
// folder only logs (or fails under CI=true).
func Seed(f *testing.F, sub string, exts ...string) {
	f.Helper()
	d := filepath.Join(Root(), sub)
	if _, err := os.Stat(d); err != nil {
		if os.Getenv("CI") == "true" {
			f.Fatalf("sample folder %s is missing, and CI=true requires it", d)
		}
		f.Logf("sample folder %s is missing; fuzzing from generated seeds only", d)
		return
	}
	left := 0
	for _, p := range Files(f, sub, exts...) {
		if st, err := os.Stat(p); err == nil && st.Size() > maxFuzzSeed && fuzzing() {
			left++
			continue
		}
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	if left > 0 {
		f.Logf("fuzzing: %d samples of %s over %d KiB are left out of the corpus (go test runs them all)", left, sub, maxFuzzSeed>>10)
	}
}

// fuzzing reports whether the test binary runs with -fuzz.
func fuzzing() bool {
	fl := flag.Lookup("test.fuzz")
	return fl != nil && fl.Value.String() != ""
}
