// Package idlecheck holds tests that run the viewer in a real window (Fyne's
// OpenGL driver) rather than Fyne's test driver, which runs no animations and
// draws no frames: an idle window that keeps repainting only shows there.
// The tests need a display (make test runs them under Xvfb) and skip without
// one.
package idlecheck
