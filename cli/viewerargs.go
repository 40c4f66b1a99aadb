package cli

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"

	"tensorscope/internal/earlyenv"
)

// HeadlessHint is what a user without a display can run instead.
const HeadlessHint = `Without a display, these commands work:
  tensorscope info FILE      the header, tensors and graph
  tensorscope stats FILE     statistics of every tensor
  tensorscope summary FILE   every tensor's health at a glance
  tensorscope render FILE --view heatmap --out OUT.png
                             draw a view to a PNG
"tensorscope --help" lists them all.
`

// checkViewerArgs refuses a command line meant for no subcommand: a flag
// before any file ("--frobnicate"), or a first word that is neither a
// subcommand nor an existing file followed by flags ("inof --json x.npy",
// a misspelt subcommand). Files for the viewer are never flags.
func checkViewerArgs(args []string, stderr io.Writer) (status int, bad bool) {
	first := args[0]
	if len(first) > 1 && first[0] == '-' {
		fmt.Fprintf(stderr, "tensorscope: unknown flag %s\n\n%s", first, usage())
		return exitBadUsage, true
	}
	for _, a := range args[1:] {
		if len(a) > 1 && a[0] == '-' && !isURL(a) {
			if _, err := os.Stat(first); err != nil {
				fmt.Fprintf(stderr, "tensorscope: %q is not a command (and no such file); commands are %s\n\n%s",
					first, strings.Join(earlyenv.Subcommands, ", "), usage())
			} else {
				fmt.Fprintf(stderr, "tensorscope: the viewer takes only files, not %s\n\n%s", a, usage())
			}
			return exitBadUsage, true
		}
	}
	return exitOK, false
}

// isURL reports whether an argument names a remote file rather than a flag.
func isURL(a string) bool { return strings.Contains(a, "://") }

// displayMissing says why no window can open here, or "" when one can:
// on X11 and Wayland systems a viewer needs DISPLAY or WAYLAND_DISPLAY
// (a GPU server reached over ssh has neither). macOS and Windows always
// have a display.
func displayMissing() string {
	switch runtime.GOOS {
	case "darwin", "windows", "android", "ios":
		return ""
	}
	if os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
		return "there is no display (DISPLAY and WAYLAND_DISPLAY are unset)"
	}
	return ""
}

// DisplayName is the display the viewer opens its window on.
func DisplayName() string {
	if d := os.Getenv("WAYLAND_DISPLAY"); d != "" {
		return d
	}
	return os.Getenv("DISPLAY")
}
