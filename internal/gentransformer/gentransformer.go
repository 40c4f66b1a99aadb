// Package gentransformer gives tests and benchmarks the decoder-only
// transformer that scripts/gen-transformer.py writes with python3-onnx: 32
// layers, attention and MLP unfused, node names as torch.onnx.export gives
// them. It imports nothing of ours.
package gentransformer

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// Python is Debian's python3, which has python3-onnx; a pyenv shim first
// in PATH on developer machines may lack it.
const Python = "/usr/bin/python3"

var (
	mu   sync.Mutex
	made = map[string]string{} // arguments → file
)

// Path writes the model and returns its path; args are passed to the
// script ("--fault-layer", "7"). The file is kept in the user's cache
// folder under a name made of the script's hash and the arguments, so it
// is written once per script version, not once per test run. Without
// python3-onnx it skips the test, or fails it when CI=true.
func Path(tb testing.TB, args ...string) string {
	tb.Helper()
	mu.Lock()
	defer mu.Unlock()
	key := strings.Join(args, " ")
	if p, ok := made[key]; ok {
		return p
	}
	if out, err := exec.Command(Python, "-c", "import onnx, numpy").CombinedOutput(); err != nil {
		msg := fmt.Sprintf("%s cannot import onnx and numpy (%v: %s)", Python, err, strings.TrimSpace(string(out)))
		if os.Getenv("CI") == "true" {
			tb.Fatalf("%s; CI=true requires python3-onnx", msg)
		}
		tb.Skipf("%s: install python3-onnx to generate the transformer", msg)
	}
	script, err := scriptPath()
	if err != nil {
		tb.Fatal(err)
	}
	src, err := os.ReadFile(script)
	if err != nil {
		tb.Fatal(err)
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	dir := filepath.Join(cache, "tensorscope-transformer")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		tb.Fatal(err)
	}
	sum := sha256.Sum256(append(src, key...))
	p := filepath.Join(dir, hex.EncodeToString(sum[:8])+".onnx")
	if _, err := os.Stat(p); err != nil {
		part := fmt.Sprintf("%s.%d.part", p, os.Getpid())
		cmd := exec.Command(Python, append([]string{script, part}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			os.Remove(part)
			tb.Fatalf("%s %s: %v\n%s", script, key, err, out)
		}
		if err := os.Rename(part, p); err != nil { // whole or not at all, whoever else writes it
			tb.Fatal(err)
		}
	}
	made[key] = p
	return p
}

// scriptPath finds scripts/gen-transformer.py above the working directory
// (a package's tests run in its folder).
func scriptPath() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		p := filepath.Join(dir, "scripts", "gen-transformer.py")
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return p, nil
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "", fmt.Errorf("gentransformer: no go.mod above the working directory")
		}
		dir = up
	}
}
