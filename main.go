// Command tensorscope is a desktop viewer for tensor and model files. With
// file arguments (or none) it opens the viewer; its subcommands run headless.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode/utf8"

	"tensorscope/assets"
	"tensorscope/internal/earlyenv" // must initialise before Fyne and sqweek/dialog; see its comment
	"tensorscope/internal/instance"
	"tensorscope/tensor"
	"tensorscope/ui"
	"tensorscope/viewmodel"
)

// Version is the release version; FyneApp.toml carries the same number.
const Version = "0.1.0"

// AppID is the application id used for preferences and desktop integration.
const AppID = "io.github.tensorscope"

const usageTemplate = `Tensorscope — a viewer for tensor and model files.

Usage:
  tensorscope [FILE...]                      open the viewer, one tab per file
  tensorscope info [--json] FILE             summarise a file's header, tensors and graph
  tensorscope stats [--json] FILE [TENSOR...] statistics of tensors (all with data by default;
                                             complex ones by --part, magnitude by default)
  tensorscope render FILE --view heatmap|plot|histogram|graph|window|diff [options] --out OUT.png
                                             draw a view as the viewer does, without a display
  tensorscope export FILE --tensor NAME [--expr EXPR] --out OUT.npy|.csv|.tsr|.safetensors
                                             write a tensor (a .csv holds one plane)
  tensorscope export FILE --all --out OUT.safetensors
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
	return strings.Replace(usageTemplate, "{formats}", wrap(strings.Join(viewmodel.SupportedFormatNames(), ", "), 72, len("Formats are chosen by content, not by file name: ")), 1)
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

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run dispatches the command line and returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		switch {
		case earlyenv.Contains(earlyenv.HelpArgs, args[0]):
			fmt.Fprint(stdout, usage())
			return 0
		case earlyenv.Contains(earlyenv.VersionArgs, args[0]):
			fmt.Fprintf(stdout, "tensorscope %s\n", Version)
			return 0
		}
		if cmd, ok := commands[args[0]]; ok {
			code := 0
			// The commands read memory-mapped input; a file truncated while
			// they run is reported instead of crashing with SIGBUS.
			if err := tensor.CatchFault(func() error {
				code = cmd(args[1:], stdout, stderr)
				return nil
			}); err != nil {
				fmt.Fprintf(stderr, "tensorscope: %v\n", err)
				return 1
			}
			return code
		}
		if len(args[0]) > 1 && args[0][0] == '-' {
			fmt.Fprintf(stderr, "tensorscope: unknown flag %s\n\n%s", args[0], usage())
			return 2
		}
	}
	return runGUI(args, stderr)
}

// runGUI opens the viewer, or hands the files to a viewer already running
// for this user so they open as tabs there.
func runGUI(paths []string, stderr io.Writer) int {
	incoming := make(chan []string, 16)
	primary, delivered, err := instance.Start(AppID, paths, func(ps []string) { incoming <- ps })
	if delivered {
		return 0
	}
	if err != nil && !errors.Is(err, instance.ErrRunning) && !errors.Is(err, instance.ErrUnsupported) {
		fmt.Fprintf(stderr, "tensorscope: %v; opening a new window\n", err)
	}
	if primary != nil {
		defer primary.Close()
	}
	ui.Run(ui.Options{
		AppID: AppID, Version: Version, Icon: assets.Icon, Paths: paths,
		DemoName: "demo.tmfile", Demo: assets.DemoModel, Incoming: incoming,
	})
	return 0
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
