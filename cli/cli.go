// Package cli is Tensorscope's command line: the headless subcommands
// (info, stats, render, export, diff), their shared flag parsing, output,
// overwrite refusal and interrupts, and the dispatch that hands everything
// else to the viewer.
package cli

import (
	"fmt"
	"io"
	"os"
	"strings"
	"unicode/utf8"

	"tensorscope/formats"
	"tensorscope/internal/earlyenv"
	"tensorscope/tensor"
)

// Version is the release version; FyneApp.toml carries the same number.
const Version = "0.1.0"

const usageTemplate = `Tensorscope — a viewer for tensor and model files.

Usage:
  tensorscope [FILE...]                      open the viewer, one tab per file
  tensorscope --follow DIR                   show the newest model file in DIR, and each
                                             newer one as it is completely written
  tensorscope info [--json] FILE             summarise a file's header, tensors and graph
  tensorscope stats [--json] FILE [TENSOR...] statistics of tensors (all with data by default;
                                             complex ones by --part, magnitude by default)
  tensorscope summary [--json] FILE          every tensor's health in one pass: figures, layers,
                                             flags (NaN/inf, all zero, constant, dead rows, anomaly)
  tensorscope render FILE --view heatmap|plot|histogram|graph|window|diff|summary
                     [options] --out OUT.png
                                             draw a view as the viewer does, without a display
  tensorscope export FILE --tensor NAME [--expr EXPR] --out OUT{one}
                                             write a tensor (a .csv holds one plane)
  tensorscope export FILE --all --out OUT{many}
                                             write every tensor with data
  tensorscope export FILE --view graph --out OUT.svg|.png
                                             write the model's graph
  tensorscope diff [--json] [--rtol R] [--atol A] [--map OLD=NEW ...] A B
                                             compare the tensors (and graphs) of two files;
                                             exit 0 same, 1 different, 2 trouble
  tensorscope --help | --version

Formats are chosen by content, not by file name: {formats}.
Exit status: 0 success, 1 the file could not be read (or the output
written), 2 bad usage, 130/143 interrupted by SIGINT/SIGTERM.
"tensorscope COMMAND --help" lists the options of a command.
`

// usage is the --help text, naming the registered formats.
func usage() string {
	return strings.NewReplacer(
		"{formats}", wrap(strings.Join(formats.Names(), ", "), 72, len("Formats are chosen by content, not by file name: ")),
		"{one}", strings.Join(formats.TensorExportExtensions(), "|"),
		"{many}", strings.Join(formats.EncoderExtensions(true), "|"),
	).Replace(usageTemplate)
}

// wrap breaks text into lines of at most width characters, the first line
// already holding used of them.
func wrap(text string, width, used int) string {
	var b strings.Builder
	for i, word := range strings.Fields(text) {
		n := utf8.RuneCountInString(word)
		if i > 0 && used+1+n > width {
			b.WriteByte('\n')
			used = 0
		} else if i > 0 {
			b.WriteByte(' ')
			used++
		}
		b.WriteString(word)
		used += n
	}
	return b.String()
}

// Viewer is what the command line asks the viewer to open.
type Viewer struct {
	Paths  []string // files, one tab each
	Follow string   // a folder of checkpoints to follow (--follow DIR)
}

// GUIFunc opens the viewer and returns the exit status.
type GUIFunc func(v Viewer, stderr io.Writer) int

// Run dispatches the command line and returns the exit status: a
// subcommand runs headless, anything else is files for gui.
func Run(args []string, stdout, stderr io.Writer, gui GUIFunc) int {
	if len(args) > 0 {
		switch {
		case earlyenv.Contains(earlyenv.HelpArgs, args[0]):
			fmt.Fprint(stdout, usage())
			return exitOK
		case earlyenv.Contains(earlyenv.VersionArgs, args[0]):
			fmt.Fprintf(stdout, "tensorscope %s\n", Version)
			return exitOK
		}
		if cmd, ok := commands[args[0]]; ok {
			return runCommand(cmd, args[1:], stdout, stderr)
		}
		if handOff != nil && earlyenv.Contains(earlyenv.Subcommands, args[0]) {
			return handOff(args, stderr)
		}
		if args[0] == "--follow" {
			return follow(args[1:], stderr, gui)
		}
		if status, bad := checkViewerArgs(args, stderr); bad {
			return status
		}
	}
	if reason := displayMissing(); reason != "" {
		fmt.Fprintf(stderr, "tensorscope: %s, so the viewer cannot open a window.\n%s", reason, HeadlessHint)
		return exitBadFile
	}
	return gui(Viewer{Paths: args}, stderr)
}

// follow opens the viewer on a folder of checkpoints: tensorscope --follow DIR.
func follow(args []string, stderr io.Writer, gui GUIFunc) int {
	if len(args) != 1 {
		fmt.Fprintf(stderr, "tensorscope: --follow takes one folder\n\n%s", usage())
		return exitBadUsage
	}
	if st, err := os.Stat(args[0]); err != nil || !st.IsDir() {
		fmt.Fprintf(stderr, "tensorscope: --follow %s: not a folder\n", args[0])
		return exitBadUsage
	}
	if reason := displayMissing(); reason != "" {
		fmt.Fprintf(stderr, "tensorscope: %s, so the viewer cannot open a window.\n%s", reason, HeadlessHint)
		return exitBadFile
	}
	return gui(Viewer{Follow: args[0]}, stderr)
}

// runCommand runs a headless subcommand. The commands read memory-mapped
// input; a file truncated while they run is reported instead of crashing
// with SIGBUS.
func runCommand(cmd commandFunc, args []string, stdout, stderr io.Writer) int {
	code := exitOK
	if err := tensor.CatchFault(func() error {
		code = cmd(args, stdout, stderr)
		return nil
	}); err != nil {
		fmt.Fprintf(stderr, "tensorscope: %v\n", err)
		return exitBadFile
	}
	return code
}

// commandFunc runs a headless subcommand and returns its exit status.
type commandFunc func(args []string, stdout, stderr io.Writer) int

// commands are the headless subcommands' implementations, by name.
var commands = map[string]commandFunc{}

// register adds a headless subcommand. Its name must be listed in
// internal/earlyenv.Subcommands, the one list of them, which hides the
// display from the subcommands before any package could open it.
func register(name string, run commandFunc) {
	if !earlyenv.Contains(earlyenv.Subcommands, name) {
		panic("tensorscope: subcommand " + name + " is not listed in internal/earlyenv.Subcommands")
	}
	commands[name] = run
}
