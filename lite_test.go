package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"tensorscope/cli"
)

// buildLite builds the lite tensorscope command (make's `tensorscope`)
// into a folder of its own and returns its path.
func buildLite(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the lite command; skipped with -short")
	}
	bin := filepath.Join(t.TempDir(), "tensorscope")
	build := exec.Command("go", "build", "-tags", "lite", "-o", bin, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0") // as make builds it
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build -tags lite: %v\n%s", err, out)
	}
	return bin
}

// run runs bin with args and extra environment, and returns its output and
// exit status.
func run(t *testing.T, env []string, bin string, args ...string) (stdout, stderr string, status int) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), env...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		status = exit.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	return out.String(), errOut.String(), status
}

// TestLiteLinksNoViewer: the point of the lite build is a start-up
// without the GUI's and the plotting library's package initialisers.
func TestLiteLinksNoViewer(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-tags", "lite", ".").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, dep := range strings.Fields(string(out)) {
		for _, heavy := range []string{"fyne.io/", "gonum.org/v1/plot", "github.com/go-text/", "github.com/yuin/goldmark", "tensorscope/ui", "tensorscope/viewmodel", "tensorscope/graphview"} {
			if strings.HasPrefix(dep, heavy) && dep != "tensorscope/viewmodel/textfmt" && dep != "tensorscope/viewmodel/summary" {
				t.Errorf("the lite build links %s", dep)
			}
		}
	}
}

// TestLiteHandsOffToTheViewer: the lite command runs info itself, and
// gives the window and render to the viewer beside it, or says it is
// missing.
func TestLiteHandsOffToTheViewer(t *testing.T) {
	bin := buildLite(t)
	noViewer := []string{"TENSORSCOPE_VIEWER=", "DISPLAY=:99"}
	if out, _, status := run(t, noViewer, bin, "--version"); status != 0 || out != "tensorscope "+cli.Version+"\n" {
		t.Errorf("--version: exit %d, %q", status, out)
	}
	out, errOut, status := run(t, noViewer, bin, "info", "--json", filepath.Join("assets", "demo.tmfile"))
	if status != 0 || !strings.Contains(out, `"format"`) {
		t.Errorf("info: exit %d, %q, %s", status, out, errOut)
	}

	_, errOut, status = run(t, noViewer, bin, "render", "x.npy", "--out", "x.png")
	if status != 1 || !strings.Contains(errOut, "render needs "+cli.ViewerProgram) || !strings.Contains(errOut, "not beside") {
		t.Errorf("render without the viewer: exit %d, %q", status, errOut)
	}

	// A stand-in viewer beside the command prints what it was given.
	viewer := filepath.Join(filepath.Dir(bin), cli.ViewerProgram)
	script := "#!/bin/sh\necho \"viewer $*\"\nexit 7\n"
	if err := os.WriteFile(viewer, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"render", "x.npy", "--view", "heatmap", "--out", "x.png"},
		{"export", "x.npy", "--tensor", "a", "--out", "a.csv"},
		{"diff", "a.npy", "b.npy"},
		{"model.onnx"},
		{},
	} {
		out, errOut, status := run(t, noViewer, bin, args...)
		if want := strings.TrimSpace("viewer " + strings.Join(args, " ")); status != 7 || strings.TrimSpace(out) != want {
			t.Errorf("%q: exit %d, %q, %q; want the viewer to run with them", args, status, out, errOut)
		}
	}
	// Without a display the window is refused before the hand-off.
	_, errOut, status = run(t, []string{"DISPLAY=", "WAYLAND_DISPLAY="}, bin, "model.onnx")
	if status != 1 || !strings.Contains(errOut, "no display") {
		t.Errorf("no display: exit %d, %q", status, errOut)
	}
}

// TestLiteBuildsForOtherSystems: the light command needs no C, so it can
// be built for the other systems here; building it keeps the code that is
// not Linux's compiling (a stat's mode is uint16 on macOS and the BSDs,
// which broke the macOS build unnoticed).
func TestLiteBuildsForOtherSystems(t *testing.T) {
	if testing.Short() {
		t.Skip("cross-builds the lite command; skipped with -short")
	}
	for _, target := range [][2]string{{"darwin", "arm64"}, {"windows", "amd64"}} {
		build := exec.Command("go", "build", "-tags", "lite", "-o", os.DevNull, ".")
		build.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS="+target[0], "GOARCH="+target[1])
		if out, err := build.CombinedOutput(); err != nil {
			t.Errorf("GOOS=%s GOARCH=%s go build -tags lite: %v\n%s", target[0], target[1], err, out)
		}
	}
}
