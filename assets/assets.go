// Package assets holds what ships inside the binary: the application icon
// and the demo model opened when the viewer starts without a file. The
// files are made by the project's own generators (go generate ./assets).
package assets

import _ "embed"

//go:generate go run ./genicon -o icon.png

// Icon is the 512×512 application icon (PNG).
//
//go:embed icon.png
var Icon []byte
