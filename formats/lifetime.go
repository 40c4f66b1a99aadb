package formats

import (
	"context"
	"errors"
	"sync"

	"tensorscope/tensor"
)

// ErrClosed is returned when work is started on a document that is being
// closed or has been closed.
var ErrClosed = errors.New("the document was closed")

// lifetime counts the users of a document's mapped bytes so that Close
// unmaps them only after the last user has returned. Its zero value is a
// live document with no users (codecs build documents as literals).
type lifetime struct {
	mu       sync.Mutex
	users    int
	closing  bool
	ctx      context.Context    // cancelled by Close
	cancel   context.CancelFunc // cancels ctx
	unmapped chan struct{}      // closed once the files are unmapped
}

// init sets up the fields the zero value lacks; the caller holds mu.
func (l *lifetime) init() {
	if l.ctx == nil {
		l.ctx, l.cancel = context.WithCancel(context.Background())
		l.unmapped = make(chan struct{})
	}
}

// Acquire is the document's one primitive for background work: it holds
// the document's file and every shard mapped until release is called, and
// returns a context that is cancelled when ctx is or when the document is
// closed. Once Close has been called it returns ErrClosed.
//
// Ownership rules: whoever reads tensor data off the UI goroutine (stats,
// histograms, downsampling, exports, layouts) does so between Acquire and
// release, under tensor.CatchFault (Run and Go do both); release must be
// called exactly once. Close may be called at any time by the document's
// owner (the tab): it cancels every holder's context and unmaps the files
// when the last holder releases. Tensors loaded from the document must not
// be used after their holder released it.
func (d *Document) Acquire(ctx context.Context) (context.Context, func(), error) {
	l := &d.life
	l.mu.Lock()
	defer l.mu.Unlock()
	l.init()
	if l.closing {
		return nil, nil, ErrClosed
	}
	l.users++
	inner, cancel := context.WithCancel(ctx)
	stop := context.AfterFunc(l.ctx, cancel)
	var once sync.Once
	release := func() {
		once.Do(func() {
			stop()
			cancel()
			d.release()
		})
	}
	return inner, release, nil
}

// Run runs f on the calling goroutine with the document held (see
// Acquire): f's context is cancelled when ctx is or the document closes,
// a memory fault while f reads the mapped file (truncated on disk) becomes
// tensor.ErrFault, and nothing is unmapped before f returns.
func (d *Document) Run(ctx context.Context, f func(ctx context.Context) error) error {
	inner, release, err := d.Acquire(ctx)
	if err != nil {
		return err
	}
	defer release()
	return tensor.CatchFault(func() error { return f(inner) })
}

// Go is Run on a new goroutine. The document is acquired before Go
// returns, so a Close that follows waits for f; done (may be nil)
// receives f's error after the document was released.
func (d *Document) Go(ctx context.Context, f func(ctx context.Context) error, done func(error)) error {
	inner, release, err := d.Acquire(ctx)
	if err != nil {
		return err
	}
	go func() {
		err := tensor.CatchFault(func() error { return f(inner) })
		release()
		if done != nil {
			done(err)
		}
	}()
	return nil
}

// release ends one use; the last use after Close unmaps the files.
func (d *Document) release() {
	l := &d.life
	l.mu.Lock()
	l.users--
	last := l.closing && l.users == 0
	l.mu.Unlock()
	if last {
		d.unmap()
	}
}

// Close marks the document closing: work started afterwards fails with
// ErrClosed, running work sees its context cancelled, and the file and its
// shards are unmapped as soon as the last user has returned — at once when
// there is none, and then Close returns the unmapping's error. Closing
// twice does nothing.
func (d *Document) Close() error {
	l := &d.life
	l.mu.Lock()
	l.init()
	if l.closing {
		l.mu.Unlock()
		return nil
	}
	l.closing = true
	l.cancel()
	idle := l.users == 0
	l.mu.Unlock()
	if !idle {
		return nil
	}
	return d.unmap()
}

// Unmapped returns a channel that is closed once Close has unmapped the
// document's files (after its last user returned).
func (d *Document) Unmapped() <-chan struct{} {
	l := &d.life
	l.mu.Lock()
	defer l.mu.Unlock()
	l.init()
	return l.unmapped
}

// Users is the number of holders of the document (tests, diagnostics).
func (d *Document) Users() int {
	l := &d.life
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.users
}

// unmap releases the mappings; it runs once, after the last user.
func (d *Document) unmap() error {
	err := d.closeShards()
	if d.storage != nil {
		if e := d.storage.Close(); e != nil {
			err = e
		}
	}
	l := &d.life
	l.mu.Lock()
	close(l.unmapped)
	l.mu.Unlock()
	return err
}
