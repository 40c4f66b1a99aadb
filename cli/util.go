package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"tensorscope/formats"
	_ "tensorscope/formats/all" // the headless commands read every format
)

// Exit statuses of the headless commands.
const (
	exitOK       = 0
	exitBadFile  = 1
	exitBadUsage = 2
)

// command describes a headless subcommand for flag parsing and messages.
type command struct {
	name  string // "info"
	usage string // "tensorscope info [--json] FILE"
	flags *flag.FlagSet
}

// newCommand returns a command whose flag set reports nothing by itself:
// parse prints errors and help where they belong.
func newCommand(name, usage string) *command {
	fl := flag.NewFlagSet(name, flag.ContinueOnError)
	fl.SetOutput(io.Discard)
	fl.Usage = func() {}
	fl.Func("remote-cache", "memory for the fetched bytes of http(s):// and hf:// files, e.g. 512M, 2G (default 1G, or $TENSORSCOPE_REMOTE_CACHE)", formats.SetRemoteCache)
	return &command{name: name, usage: usage, flags: fl}
}

// parse parses flags placed anywhere among args (`info FILE --json` as well
// as `info --json FILE`; everything after `--` is positional) and returns
// the positional arguments. When ok is false the command must return
// status: 0 after -h/--help (usage printed to stdout), 2 after a bad flag
// (a one-line error and the usage printed to stderr).
func (c *command) parse(args []string, stdout, stderr io.Writer) (pos []string, status int, ok bool) {
	for {
		if err := c.flags.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				c.printUsage(stdout)
				return nil, exitOK, false
			}
			return nil, c.usageError(stderr, "%v", err), false
		}
		rest := c.flags.Args()
		if len(rest) == 0 {
			return pos, exitOK, true
		}
		if i := len(args) - len(rest); i > 0 && args[i-1] == "--" {
			return append(pos, rest...), exitOK, true
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

func (c *command) printUsage(w io.Writer) {
	fmt.Fprintf(w, "usage: %s\n", c.usage)
	c.flags.SetOutput(w)
	c.flags.PrintDefaults()
	c.flags.SetOutput(io.Discard)
}

// usageError prints "tensorscope NAME: message" and the usage line to
// stderr and returns the bad-usage status.
func (c *command) usageError(stderr io.Writer, format string, args ...any) int {
	fmt.Fprintf(stderr, "tensorscope %s: %s\nusage: %s\n", c.name, fmt.Sprintf(format, args...), c.usage)
	return exitBadUsage
}

// openDocument opens path with the codec its content matches. On failure it
// prints the one-line file error and returns the bad-file status.
func openDocument(path string, stderr io.Writer) (*formats.Document, int) {
	doc, err := formats.Open(path)
	if err != nil {
		return nil, fileError(stderr, path, err)
	}
	return doc, exitOK
}

// fileError prints "tensorscope: FILE: at byte N: what was expected, what
// was found" (or "tensorscope: FILE: reason" when the failure has no place
// in the file) on one line and returns the bad-file status.
func fileError(stderr io.Writer, path string, err error) int {
	fmt.Fprintf(stderr, "tensorscope: %s: %s\n", path, oneLine(formats.Describe(path, err)))
	return exitBadFile
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\n", " ")), " ")
}
