package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver"
	"github.com/go-gl/glfw/v3.3/glfw"
)

// Room fitToScreen leaves around a window on a small screen, in pixels,
// for the window manager's frame and title bar.
const (
	screenMarginX = 16
	screenMarginY = 48
)

// fitToScreen shrinks win to the work area of the primary monitor when it
// is larger (the viewer opens at 1280×820; a laptop screen may be
// 1024×700) and centres it. Fyne tells nothing of the screen; many window
// managers shrink a new window to the screen, but not all, and without
// one the window ran off it. It must run on the main goroutine after
// win is shown (GLFW is then initialised) and before the app runs, and it
// acts only on a window of an X11 desktop: a test or headless window, or
// another windowing system's, is left as it is.
func fitToScreen(win fyne.Window) {
	if !onX11(win) {
		return
	}
	monitor := glfw.GetPrimaryMonitor()
	if monitor == nil {
		return
	}
	_, _, w, h := monitor.GetWorkarea() // X11 screen coordinates: pixels
	if size, smaller := fitted(win.Canvas().Size(), w, h, win.Canvas().Scale()); smaller {
		win.Resize(size)
		win.CenterOnScreen()
	}
}

// fitted is size shrunk to a work area of w×h pixels at scale pixels per
// unit, less the margins; smaller says whether it had to shrink.
func fitted(size fyne.Size, w, h int, scale float32) (fitted fyne.Size, smaller bool) {
	if w <= screenMarginX || h <= screenMarginY || scale <= 0 {
		return size, false // no usable work area: leave the window as it is
	}
	room := fyne.NewSize(float32(w-screenMarginX)/scale, float32(h-screenMarginY)/scale)
	if size.Width <= room.Width && size.Height <= room.Height {
		return size, false
	}
	return size.Min(room), true
}

// onX11 reports whether win is a window of an X11 desktop.
func onX11(win fyne.Window) bool {
	native, ok := win.(driver.NativeWindow)
	if !ok {
		return false
	}
	x11 := false
	native.RunNative(func(context any) {
		handle, ok := context.(driver.X11WindowContext)
		x11 = ok && handle.WindowHandle != 0
	})
	return x11
}
