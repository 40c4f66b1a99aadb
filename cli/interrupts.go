package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"
)

// interrupts turns the first SIGINT or SIGTERM into a cancelled context,
// so that a write in progress stops and removes its temporary file; a
// second signal has its default effect again.
type interrupts struct {
	ctx    context.Context
	cancel context.CancelFunc
	ch     chan os.Signal
	mu     sync.Mutex
	sig    os.Signal
	done   chan struct{}
}

func catchInterrupts() *interrupts {
	ctx, cancel := context.WithCancel(context.Background())
	it := &interrupts{ctx: ctx, cancel: cancel, ch: make(chan os.Signal, 1), done: make(chan struct{})}
	signal.Notify(it.ch, os.Interrupt, syscall.SIGTERM)
	go func() {
		select {
		case s := <-it.ch:
			signal.Stop(it.ch)
			it.mu.Lock()
			it.sig = s
			it.mu.Unlock()
			cancel()
		case <-it.done:
		}
	}()
	return it
}

func (it *interrupts) stop() {
	signal.Stop(it.ch)
	close(it.done)
	it.cancel()
}

// caught reports whether a signal arrived.
func (it *interrupts) caught() bool {
	it.mu.Lock()
	defer it.mu.Unlock()
	return it.sig != nil
}

// report says the command was interrupted and returns its exit status.
func (it *interrupts) report(stderr io.Writer, cmd, out string) int {
	fmt.Fprintf(stderr, "tensorscope %s: interrupted (%v); %s was not written\n", cmd, it.signal(), out)
	return it.status()
}

func (it *interrupts) signal() os.Signal {
	it.mu.Lock()
	defer it.mu.Unlock()
	return it.sig
}

// status is 128 + the signal number, as a shell reports a command killed
// by it: 130 for SIGINT (Ctrl+C), 143 for SIGTERM.
func (it *interrupts) status() int {
	if n, ok := it.signal().(syscall.Signal); ok {
		return 128 + int(n)
	}
	return 130
}
