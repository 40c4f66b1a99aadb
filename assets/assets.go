// Package assets holds what ships inside the binary: the application icon
// and the demo model opened when the viewer starts without a file. The
// files are made by the project's own generators (go generate ./assets).
package assets

import _ "embed"

//go:generate go run ./genicon -o icon.png
//go:generate go run ./gendemo -o demo.tmfile

// Icon is the 512×512 application icon (PNG).
//
//go:embed icon.png
var Icon []byte

// DemoModel is the Tengine tmfile the viewer opens when started without a
// file: a small convolutional network (two convolutions joined by a residual
// add, two fully connected layers) with deterministic, structured fp32
// weights. Made by gendemo from formats/tmfile/synth.Demo.
//
//go:embed demo.tmfile
var DemoModel []byte
