package instance

import (
	"os"
	"strings"
)

// DisplayKey names the display this process shows its windows on, for the
// socket's name: one instance runs per display, so a file opened on :88
// opens in the window on :88, not in one on another display the user
// cannot see. It is $WAYLAND_DISPLAY when set (a Wayland session's
// DISPLAY names its X server, which shows on the same screen), else
// $DISPLAY, else "". An X display's screen number is dropped (":88.0" is
// display :88), and characters a file name cannot hold become '_'.
func DisplayKey() string {
	d := os.Getenv("WAYLAND_DISPLAY")
	if d == "" {
		d = os.Getenv("DISPLAY")
		if colon := strings.LastIndexByte(d, ':'); colon >= 0 {
			if dot := strings.IndexByte(d[colon:], '.'); dot >= 0 {
				d = d[:colon+dot]
			}
		}
	}
	return fileNamePart(d)
}

// fileNamePart keeps letters, digits, '.', '-' and '_' of s and replaces
// every other byte by '_'; a part that would be "." or ".." gains a '_'.
func fileNamePart(s string) string {
	b := []byte(s)
	for i, c := range b {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '.', c == '-', c == '_':
		default:
			b[i] = '_'
		}
	}
	out := string(b)
	if strings.Trim(out, ".") == "" && out != "" {
		out = "_" + out
	}
	return out
}
