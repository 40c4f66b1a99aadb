// Package gentransformer gives tests and benchmarks the decoder-only
// transformer that scripts/gen-transformer.py writes with python3-onnx: 32
// layers, attention and MLP unfused, node names as torch.onnx.export gives
// them. It imports nothing of ours.
package gentransformer

import (
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
	mu    sync.Mutex
	made  = map[string]string{} // arguments → file
	tmpMu sync.Once
	tmp   string
)

// Path writes the model once per test binary and returns its path; args
// are passed to the script ("--fault-layer", "7"). Without python3-onnx it
// skips the test, or fails it when CI=true.
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
	tmpMu.Do(func() { tmp, _ = os.MkdirTemp("", "tensorscope-transformer-") })
	if tmp == "" {
		tb.Fatal("gentransformer: cannot make a temporary folder")
	}
	p := filepath.Join(tmp, fmt.Sprintf("decoder%d.onnx", len(made)))
	cmd := exec.Command(Python, append([]string{script, p}, args...)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		tb.Fatalf("%s %s: %v\n%s", script, key, err, out)
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
