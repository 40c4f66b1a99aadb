// Package earlyenv adjusts the process environment before any dependency's
// package initialiser reads it, for two reasons:
//
//   - fyne.io/fyne/v2/lang parses the locale and logs "Error parsing user
//     locale C" when the environment says C.UTF-8 (or POSIX@..., etc.). Such a
//     user gets English anyway, so we set LANGUAGE=en, which Fyne's locale
//     lookup prefers in that case and the C library's setlocale ignores
//     (rewriting LANG instead makes GTK warn when en_US is not installed).
//   - The headless subcommands must never touch the display (they run on
//     servers over ssh, and in CI), so for them we hide DISPLAY and
//     WAYLAND_DISPLAY from every library. (sqweek/dialog's initialiser used
//     to connect to the display here; on Linux the viewer now loads GTK only
//     when it shows a file dialog, see ui/gtkchooser_linux.go.)
//
// Go initialises packages in import-path order as soon as their own imports
// are initialised. This package imports only os, so it becomes ready right
// after os and sorts before unicode, fmt and everything that waits on them —
// including Fyne's lang (cli/main_test.go checks the order). Do not add
// imports here.
package earlyenv

import "os"

// Subcommands are the headless subcommands: the one list of them. The
// command line registers an implementation for each (and refuses to
// register any other name), and they never touch the display.
var Subcommands = []string{"info", "stats", "render", "export", "diff", "summary"}

// HelpArgs ask for the usage and VersionArgs for the version; they run
// headless too.
var (
	HelpArgs    = []string{"help", "-h", "-help", "--help"}
	VersionArgs = []string{"version", "-version", "--version"}
)

func init() {
	fixLocale()
	if len(os.Args) > 1 && IsHeadless(os.Args[1]) {
		os.Unsetenv("DISPLAY")
		os.Unsetenv("WAYLAND_DISPLAY")
	}
}

// IsHeadless reports whether a first argument runs without a window.
func IsHeadless(arg string) bool {
	return Contains(Subcommands, arg) || Contains(HelpArgs, arg) || Contains(VersionArgs, arg)
}

// Contains reports whether list holds s. (This package imports only os,
// so it cannot use slices.Contains.)
func Contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// fixLocale sets LANGUAGE=en when the effective message locale is C or
// POSIX spelt with a codeset or modifier and LANGUAGE is unset; Fyne already
// copes with bare "C" and "POSIX".
func fixLocale() {
	if os.Getenv("LANGUAGE") != "" {
		return
	}
	for _, k := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		v := os.Getenv(k)
		if v == "" {
			continue
		}
		if unparsableCLocale(v) {
			os.Setenv("LANGUAGE", "en")
		}
		return
	}
}

func unparsableCLocale(v string) bool {
	for i := 0; i < len(v); i++ {
		if v[i] == '.' || v[i] == '@' {
			base := v[:i]
			return base == "C" || base == "POSIX" || base == ""
		}
	}
	return false
}
