// Package pyref finds a Python that can import the reference libraries
// (NumPy, onnx...) tests compare Tensorscope with. When none can, tests
// skip with a message; when CI=true they fail instead, as the tests over
// the samples do (internal/samples), because CI must make the comparison.
package pyref

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// candidates are tried in order: python3 on the PATH first, then the
// system's (a pyenv shim often comes first and lacks the Debian packages).
var candidates = []string{"python3", "/usr/bin/python3"}

// Python returns a Python interpreter that imports every module in
// modules (e.g. "numpy", "onnx"), or skips the test (fails it when
// CI=true) when there is none. install names what provides them, for the
// message (e.g. "python3-numpy").
func Python(tb testing.TB, install string, modules ...string) string {
	tb.Helper()
	py, err := find(modules)
	if err == nil {
		return py
	}
	if os.Getenv("CI") == "true" {
		tb.Fatalf("%v; CI=true requires it (apt-get install %s)", err, install)
	} else {
		tb.Skipf("%v; skipping (apt-get install %s, or set CI=true to make this a failure)", err, install)
	}
	return ""
}

// NumPy returns a Python with NumPy, or skips (fails when CI=true).
func NumPy(tb testing.TB) string {
	tb.Helper()
	return Python(tb, "python3-numpy", "numpy")
}

func find(modules []string) (string, error) {
	stmt := "import " + strings.Join(modules, ", ")
	var last error
	for _, p := range candidates {
		err := exec.Command(p, "-c", stmt).Run()
		if err == nil {
			return p, nil
		}
		last = err
	}
	return "", fmt.Errorf("no Python (%s) can %q: %v", strings.Join(candidates, ", "), stmt, last)
}

// Executable returns the interpreter file py runs (sys.executable): a
// pyenv shim is a bash script that starts pyenv, which then starts the
// interpreter, half a second in all on a loaded machine, which a benchmark
// against Python must not count as Python's.
func Executable(tb testing.TB, py string) string {
	tb.Helper()
	out, err := exec.Command(py, "-c", "import sys; print(sys.executable)").Output()
	exe := strings.TrimSpace(string(out))
	if err != nil || exe == "" {
		tb.Fatalf("%s cannot say its executable: %v", py, err)
	}
	return exe
}
