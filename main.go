// Command tensorscope is a desktop viewer for tensor and model files. With
// file arguments (or none) it opens the viewer; its subcommands run headless
// (package cli).
//
// Built with -tags lite it is the light front of the two programs make
// builds: it runs the commands that only read files and hands the viewer
// and the commands that draw to tensorscope-viewer (see cli.ViewerProgram).
package main

import (
	"os"

	"tensorscope/cli"
	_ "tensorscope/internal/earlyenv" // must initialise before Fyne; see its comment
)

// AppID is the application id used for preferences and desktop integration.
const AppID = "io.github.tensorscope"

func main() {
	os.Exit(cli.Run(os.Args[1:], os.Stdout, os.Stderr, runGUI))
}
