// Package localefix gives Fyne a locale it can parse, before Fyne reads it.
//
// Fyne's lang package reads the locale in its package initialiser and logs
// "Error parsing user locale C" when the environment says C.UTF-8 (or C or
// POSIX with a codeset). Such a user gets English anyway, so for this process
// we say en_US instead. The fix has to run as a package initialiser: by the
// time main runs, Fyne has already complained. Go initialises packages in
// import-path order as soon as their imports are ready; this package imports
// only os and sorts before the text/template that fyne.io/fyne/v2/lang waits
// for, so it runs first (a test in package main checks it).
package localefix

import (
	"os"
	"strings"
)

func init() { Fix() }

// Fix rewrites the first set locale variable to en_US.UTF-8 when it names the
// C or POSIX locale in a form Fyne cannot parse.
func Fix() {
	for _, k := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		v := os.Getenv(k)
		if v == "" {
			continue
		}
		if unparsable(v) {
			os.Setenv(k, "en_US.UTF-8")
		}
		return
	}
}

// unparsable reports the C/POSIX locale spelt with a codeset or modifier
// ("C.UTF-8", "POSIX@euro"); bare "C" and "POSIX" Fyne already handles.
func unparsable(v string) bool {
	i := strings.IndexAny(v, ".@")
	if i < 0 {
		return false
	}
	base := v[:i]
	return base == "C" || base == "POSIX" || base == ""
}
