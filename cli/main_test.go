package cli

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"tensorscope/formats"
	"tensorscope/internal/earlyenv"
)

// TestMain lets tests run the real command line in a child process
// (TENSORSCOPE_RUN_MAIN=1), so that process-wide effects such as package
// initialisation order are tested as users get them.
func TestMain(m *testing.M) {
	if os.Getenv("TENSORSCOPE_RUN_MAIN") == "1" {
		code := Run(os.Args[1:], os.Stdout, os.Stderr, noViewer)
		if out := os.Getenv("TENSORSCOPE_STATUS_OUT"); out != "" {
			// For the process benchmarks: the memory counters as the
			// command ends (see processRun).
			if status, err := os.ReadFile("/proc/self/status"); err == nil {
				os.WriteFile(out, status, 0o644)
			}
		}
		os.Exit(code)
	}
	code := m.Run()
	for _, dir := range removeAfterTests {
		os.RemoveAll(dir)
	}
	os.Exit(code)
}

// removeAfterTests are folders the tests made outside their own temporary
// ones (the lite build the process benchmarks run), removed at the end.
var removeAfterTests []string

// noViewer stands in for the viewer in tests, which never open a window.
func noViewer(v Viewer, stderr io.Writer) int {
	fmt.Fprintf(stderr, "test: the viewer would open %q, following %q\n", v.Paths, v.Follow)
	return 3
}

// runChild runs the command line in a fresh process with extra environment.
func runChild(t *testing.T, env []string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(append(os.Environ(), "TENSORSCOPE_RUN_MAIN=1"), env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code = 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

func TestVersionAndHelp(t *testing.T) {
	out, _, code := runChild(t, nil, "--version")
	if code != 0 || out != "tensorscope "+Version+"\n" {
		t.Errorf("--version: exit %d, %q", code, out)
	}
	out, _, code = runChild(t, nil, "--help")
	if code != 0 || !strings.Contains(out, "tensorscope info") {
		t.Errorf("--help: exit %d, %q", code, out)
	}
	_, errOut, code := runChild(t, nil, "--no-such-flag")
	if code != 2 || !strings.Contains(errOut, "unknown flag") {
		t.Errorf("bad flag: exit %d, %q", code, errOut)
	}
}

func TestNoLocaleNoise(t *testing.T) {
	for _, lang := range []string{"C", "C.UTF-8", "POSIX", ""} {
		_, errOut, _ := runChild(t, []string{"LANG=" + lang, "LC_ALL=", "LC_MESSAGES=", "LANGUAGE="}, "--version")
		if errOut != "" {
			t.Errorf("LANG=%q: --version wrote to stderr:\n%s", lang, errOut)
		}
	}
}

// TestEarlyEnvInitialisesFirst pins the package initialisation order that
// internal/earlyenv relies on: it must run before Fyne's lang, which reads
// the locale.
func TestEarlyEnvInitialisesFirst(t *testing.T) {
	_, errOut, _ := runChild(t, []string{"GODEBUG=inittrace=1"}, "--version")
	pos := func(pkg string) int {
		i := strings.Index(errOut, "init "+pkg+" @")
		if i < 0 {
			t.Fatalf("inittrace does not mention %s:\n%s", pkg, errOut)
		}
		return i
	}
	early := pos("tensorscope/internal/earlyenv")
	if pos("fyne.io/fyne/v2/lang") < early {
		t.Errorf("fyne.io/fyne/v2/lang initialises before internal/earlyenv")
	}
}

// internal/earlyenv.Subcommands is the one list of headless subcommands:
// every registered subcommand is on it (or earlyenv would leave the display
// to it) and every name on it runs something.
func TestSubcommandsListedOnce(t *testing.T) {
	for name := range commands {
		if !earlyenv.Contains(earlyenv.Subcommands, name) {
			t.Errorf("subcommand %q is registered but not listed in earlyenv.Subcommands", name)
		}
	}
	for _, name := range earlyenv.Subcommands {
		if commands[name] == nil {
			t.Errorf("earlyenv lists subcommand %q, which nothing registers", name)
		}
		if !strings.Contains(usage(), "tensorscope "+name+" ") {
			t.Errorf("the usage text does not mention %q", name)
		}
	}
}

// The usage text names every registered format, in lines that fit.
func TestUsageNamesFormats(t *testing.T) {
	text := usage()
	for _, name := range formats.Names() {
		if !strings.Contains(strings.Join(strings.Fields(text), " "), name) {
			t.Errorf("usage lacks format %q", name)
		}
	}
	for _, line := range strings.Split(text, "\n") {
		if n := len([]rune(line)); n > 100 {
			t.Errorf("usage line of %d characters: %q", n, line)
		}
	}
}

// On a machine without a display (a GPU server over ssh) the viewer says
// why it cannot start and what works instead, rather than panicking in GLFW.
func TestNoDisplaySaysSo(t *testing.T) {
	_, errOut, code := runChild(t, []string{"DISPLAY=", "WAYLAND_DISPLAY="}, "model.safetensors")
	if code != 1 || !strings.Contains(errOut, "no display") || !strings.Contains(errOut, "tensorscope info FILE") {
		t.Errorf("exit %d, stderr:\n%s", code, errOut)
	}
	if strings.Contains(errOut, "test: the viewer would open") {
		t.Error("the viewer was started without a display")
	}
}

// A word that is no subcommand followed by flags is a usage error, not a
// list of files for the viewer.
func TestMisspeltCommandIsUsageError(t *testing.T) {
	_, errOut, code := runChild(t, []string{"DISPLAY=:0"}, "inof", "--json", "x.npy")
	if code != 2 || !strings.Contains(errOut, `"inof" is not a command`) {
		t.Errorf("exit %d, stderr:\n%s", code, errOut)
	}
	_, errOut, code = runChild(t, []string{"DISPLAY=:0"}, "a.npy", "b.npy")
	if code != 3 || !strings.Contains(errOut, "the viewer would open") {
		t.Errorf("plain files: exit %d, stderr:\n%s", code, errOut)
	}
}

// --follow takes one folder and hands it to the viewer.
func TestFollowArguments(t *testing.T) {
	dir := t.TempDir()
	_, errOut, code := runChild(t, []string{"DISPLAY=:0"}, "--follow", dir)
	if code != 3 || !strings.Contains(errOut, "following \""+dir+"\"") {
		t.Errorf("--follow DIR: exit %d, stderr:\n%s", code, errOut)
	}
	for _, args := range [][]string{{"--follow"}, {"--follow", dir, dir}, {"--follow", filepath.Join(dir, "missing")}} {
		if _, errOut, code := runChild(t, []string{"DISPLAY=:0"}, args...); code != 2 || !strings.Contains(errOut, "--follow") {
			t.Errorf("%q: exit %d, stderr:\n%s", args, code, errOut)
		}
	}
}
