// Package fifo makes named pipes for tests of what Tensorscope refuses to
// open: open(2) of a FIFO for reading waits for a writer, so a reader that
// forgets to check hangs. Within turns such a hang into a failure.
package fifo

import (
	"testing"
	"time"
)

// Make creates a named pipe at path (skipping the test where there are
// none). On cleanup it opens the pipe for writing, without blocking, which
// releases any reader a failed test left waiting.
func Make(tb testing.TB, path string) {
	tb.Helper()
	if err := mkfifo(path); err != nil {
		tb.Skipf("cannot make a named pipe here: %v", err)
	}
	tb.Cleanup(func() { release(path) })
}

// Within runs f and fails the test when it has not returned after d: what
// names the work for the message.
func Within(tb testing.TB, d time.Duration, what string, f func()) {
	tb.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(d):
		tb.Fatalf("%s still blocked after %v", what, d)
	}
}
