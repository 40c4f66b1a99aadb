//go:build lite

package main

import (
	"io"
	"os"

	"tensorscope/cli"
)

// runGUI hands the whole command line to the viewer program, which opens
// the window (or gives the files to a viewer already running).
func runGUI(_ cli.Viewer, stderr io.Writer) int { return cli.HandOff(os.Args[1:], stderr) }
