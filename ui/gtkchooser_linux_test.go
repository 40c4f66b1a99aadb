//go:build linux && cgo

package ui

import (
	"debug/elf"
	"os"
	"strings"
	"testing"
)

// GTK is loaded when a dialog is first shown, never linked: linking it cost
// every process, headless ones included, about 40 ms of start-up.
func TestGTKIsNotLinked(t *testing.T) {
	f, err := elf.Open(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	libs, err := f.ImportedLibraries()
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range libs {
		if strings.HasPrefix(l, "libgtk") || strings.HasPrefix(l, "libgdk") {
			t.Errorf("the binary links %s", l)
		}
	}
}

func TestGTKPatterns(t *testing.T) {
	got := gtkPatterns([]string{"npy", "*"})
	if got != "*.npy\x00*\x00" {
		t.Errorf("gtkPatterns = %q", got)
	}
}
