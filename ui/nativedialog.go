package ui

import "strings"

// The native open, save and folder choosers: GTK's on Linux (loaded on
// first use, see gtkchooser_linux.go), sqweek/dialog's elsewhere. Each
// returns ok false when the native dialog cannot run (no GTK, no display)
// and the caller falls back to Fyne's own dialog; a cancelled dialog gives
// ok with "".

// fileFilter is a named set of file name endings without dots.
type fileFilter struct {
	Name       string
	Extensions []string
}

// endingsFilter is a filter for files ending in any of exts (".npy"),
// named by them: ".npy, .tsr or .csv".
func endingsFilter(exts []string) fileFilter {
	f := fileFilter{Name: exts[len(exts)-1]}
	if len(exts) > 1 {
		f.Name = strings.Join(exts[:len(exts)-1], ", ") + " or " + f.Name
	}
	for _, e := range exts {
		f.Extensions = append(f.Extensions, strings.TrimPrefix(e, "."))
	}
	return f
}
