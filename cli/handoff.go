package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"

	"tensorscope/internal/earlyenv"
)

// ViewerProgram is the program that draws: the viewer's window and the
// commands that render (render, export, diff). The tensorscope command is
// built without it (the lite build, `go build -tags lite`), so that the
// commands that only read files start in half the time: Fyne's and the
// plotting library's package initialisers run in every process that links
// them, before main, whatever the command. The lite command hands
// everything that draws to ViewerProgram beside it, replacing its own
// process, so arguments, standard streams, signals and the exit status are
// the viewer's own. A build without the tag is the whole program in one
// file and never hands off.
const ViewerProgram = "tensorscope-viewer"

// viewerEnv names the viewer program explicitly (tests, unusual installs).
const viewerEnv = "TENSORSCOPE_VIEWER"

// handOff, set by the lite build, runs a subcommand this build lacks.
var handOff func(args []string, stderr io.Writer) int

// HandOff runs args (a command line without the program name) in the
// viewer program, replacing this process. It returns only when the viewer
// cannot be started, having said why.
func HandOff(args []string, stderr io.Writer) int {
	path, err := viewerPath()
	if err == nil {
		err = replaceProcess(path, args)
	}
	what := "the viewer"
	if len(args) > 0 && earlyenv.Contains(earlyenv.Subcommands, args[0]) {
		what = args[0]
	}
	fmt.Fprintf(stderr, "tensorscope: %s needs %s: %v\n", what, ViewerProgram, err)
	return exitBadFile
}

// viewerPath finds the viewer program: $TENSORSCOPE_VIEWER, else the file
// beside this program (after symbolic links, so a link in ~/.local/bin to
// a build folder works).
func viewerPath() (string, error) {
	if p := os.Getenv(viewerEnv); p != "" {
		return p, nil
	}
	self, err := os.Executable()
	if err != nil {
		return "", err
	}
	if real, err := filepath.EvalSymlinks(self); err == nil {
		self = real
	}
	name := ViewerProgram
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	path := filepath.Join(filepath.Dir(self), name)
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("it is not beside %s in %s (make build and make install put both there)", filepath.Base(self), filepath.Dir(self))
	} else if err != nil {
		return "", err
	}
	return path, nil
}
