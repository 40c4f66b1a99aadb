//go:build !lite

package main

import (
	"errors"
	"fmt"
	"io"

	"tensorscope/assets"
	"tensorscope/cli"
	"tensorscope/internal/instance"
	"tensorscope/ui"
)

// runGUI opens the viewer, or hands the files to a viewer already running
// on this display so they open as tabs there.
func runGUI(v cli.Viewer, stderr io.Writer) (status int) {
	defer func() {
		// GLFW panics when the display named cannot be opened (an ssh
		// session whose forwarded X server has gone, a wrong DISPLAY).
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "tensorscope: cannot open a window on display %q (%v).\n%s", cli.DisplayName(), r, cli.HeadlessHint)
			status = 1
		}
	}()
	incoming := make(chan []string, 16)
	if v.Follow == "" { // following a folder takes a window of its own
		primary, delivered, err := instance.Start(AppID, v.Paths, func(ps []string) { incoming <- ps })
		if delivered {
			return 0
		}
		if err != nil && !errors.Is(err, instance.ErrRunning) && !errors.Is(err, instance.ErrUnsupported) {
			fmt.Fprintf(stderr, "tensorscope: %v; opening a new window\n", err)
		}
		if primary != nil {
			defer primary.Close()
		}
	}
	ui.Run(ui.Options{
		AppID: AppID, Version: cli.Version, Icon: assets.Icon, Paths: v.Paths, Follow: v.Follow,
		DemoName: "demo.tmfile", Demo: assets.DemoModel, Incoming: incoming,
	})
	return 0
}
