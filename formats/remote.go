package formats

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"runtime"
	"time"

	"tensorscope/internal/remote"
	"tensorscope/tensor"
)

// IsRemote reports whether path names a remote file (http://, https://,
// hf://): Open then reads it with range requests (internal/remote).
func IsRemote(path string) bool { return remote.IsURL(path) }

// maxFaultRetries bounds the decodes of one remote file; every retry has
// fetched new bytes, so this is only a guard against a codec that turns
// faults into something else in a loop.
const maxFaultRetries = 64

// openRemoteStorage opens the remote file name as a storage whose bytes
// fault until fetched. Closing the storage closes the window.
func openRemoteStorage(ctx context.Context, name string) (*tensor.Storage, *remote.Window, error) {
	t, err := remote.Resolve(name)
	if err != nil {
		return nil, nil, err
	}
	w, err := remote.OpenWindow(ctx, t, nil)
	if err != nil {
		return nil, nil, err
	}
	// The storage finds its window again through its pager (windowOf).
	st := tensor.NewStorageFunc(w.Bytes(), w.Close)
	st.SetPager(windowPager{w})
	return st, w, nil
}

// windowPager pages a remote window's bytes in for passes that read a
// tensor in chunks (tensor.Pager): each chunk is fetched (if it is not
// yet) and pinned while it is read, and what lies ahead is prefetched.
type windowPager struct{ w *remote.Window }

// maxReadAhead bounds what a pass prefetches ahead of its chunks; a
// quarter of the cache at most, so that prefetched bytes are not dropped
// before they are read.
const maxReadAhead = 32 << 20

func (p windowPager) Page(ctx context.Context, off, n, ahead int) (func(), error) {
	unpin, err := p.w.Ensure(ctx, int64(off), int64(n), nil)
	if err != nil {
		return nil, err
	}
	if ahead > 0 {
		p.w.Prefetch(ctx, int64(off+n), min(int64(ahead), maxReadAhead, remote.CacheLimit()/4))
	}
	return unpin, nil
}

type streamedKey struct{}

// Streamed returns ctx saying that the tensors loaded with it are read
// only by passes that page their bytes in chunks (statistics: see
// tensor.Pager). A remote tensor larger than the cache is then loaded
// without fetching it, and read in pieces.
func Streamed(ctx context.Context) context.Context {
	return context.WithValue(ctx, streamedKey{}, true)
}

func isStreamed(ctx context.Context) bool { v, _ := ctx.Value(streamedKey{}).(bool); return v }

// openRemote decodes a remote file: the codec reads the window's bytes as
// it would a mapped file; each read of a block not fetched yet faults,
// the block is fetched, and the decode runs again.
func openRemote(path string) (*Document, error) {
	ctx := context.Background()
	st, _, err := openRemoteStorage(ctx, path)
	if err != nil {
		return nil, err
	}
	src := &Source{Path: path, Data: st.Bytes(), Storage: st}
	var doc *Document
	err = retryFaults(ctx, func() error {
		var err error
		doc, err = decode(src)
		return err
	})
	if err != nil {
		st.Close()
		return nil, err
	}
	doc.remote = true
	for _, e := range doc.Tensors {
		e.remote = doc
	}
	// Lazy metadata (a GGUF vocabulary, written from the file's bytes by
	// info --json and the metadata pane) is read after decoding, outside
	// any retry: the header, up to the first tensor's data, is fetched
	// now (its blocks not touched by the decode, in parallel ranges).
	if end := headerEnd(doc); end > 0 {
		if err := ensureRange(context.Background(), st, 0, end, true); err != nil {
			doc.Close()
			return nil, err
		}
	}
	return doc, nil
}

// maxHeaderPrefetch bounds the header fetched after decoding.
const maxHeaderPrefetch = 64 << 20

// headerEnd is where a remote document's header ends: the end of its
// header span, or the start of the first tensor's data when that is
// further (metadata lies before the data in GGUF and safetensors).
func headerEnd(doc *Document) int64 {
	end := doc.HeaderSpan.Offset + doc.HeaderSpan.Len
	first := int64(-1)
	for _, e := range doc.Tensors {
		if e.Offset > 0 && (first < 0 || e.Offset < first) {
			first = e.Offset
		}
	}
	if len(doc.Shards()) == 0 {
		end = max(end, first)
	}
	return min(end, doc.Size, maxHeaderPrefetch)
}

// retryFaults runs f until it returns without a fault in a remote
// window, fetching the bytes around each fault.
func retryFaults(ctx context.Context, f func() error) error {
	for range maxFaultRetries {
		err := tensor.CatchFault(f)
		addr, ok := tensor.FaultAddr(err)
		if !ok {
			return err
		}
		w, off, ok := remote.WindowAt(addr)
		if !ok {
			return err
		}
		if ferr := w.FetchFault(ctx, off); ferr != nil {
			return ferr
		}
	}
	return fmt.Errorf("reading the remote file faulted more than %d times", maxFaultRetries)
}

// loadRemote is TensorEntry.Load for a remote document: the loader runs
// under retryFaults (a compressed member inflates from fetched bytes),
// and the loaded view's bytes are then fetched in parallel ranges, with
// progress in bytes through ctx (WithProgress), and pinned in the cache
// until ctx is done (the holder's release cancels it).
func (e *TensorEntry) loadRemote(ctx context.Context) (*tensor.Tensor, error) {
	d := e.remote
	t := e.cached
	// streaming: the tensor does not fit in the cache, and the caller reads
	// it through passes that page it in (Streamed).
	streaming := false
	fetch := func(st *tensor.Storage, off, n int64) error {
		if streaming {
			return nil
		}
		// A streamed tensor is fetched but not held: its passes pin each
		// chunk they read, and once done with it the caller moves on to
		// the next tensor, which may need the room.
		err := ensureRange(ctx, st, off, n, !isStreamed(ctx))
		if errors.Is(err, remote.ErrCacheFull) {
			if isStreamed(ctx) {
				streaming = true
				return nil
			}
			return fmt.Errorf("%w: this view needs all %s of the tensor in memory at once; the cache for remote files holds %s, %s of it in use (set its size with --remote-cache or %s); statistics read a tensor in pieces",
				remote.ErrCacheFull, byteSize(n), byteSize(remote.CacheLimit()), byteSize(remote.InUse()), remote.CacheEnv)
		}
		return err
	}
	if t == nil {
		if e.Offset >= 0 && e.NBytes > 0 && len(d.Shards()) == 0 && e.Offset+e.NBytes <= d.Size {
			// One file: the stored bytes are known before the loader runs.
			if err := fetch(d.storage, e.Offset, e.NBytes); err != nil {
				return nil, fmt.Errorf("tensor %q: %w", e.Name, err)
			}
		}
		err := retryFaults(ctx, func() (err error) {
			t, err = e.load(ctx)
			return err
		})
		if err != nil {
			return nil, fmt.Errorf("tensor %q: %w", e.Name, err)
		}
	}
	if st := t.Storage(); st != nil {
		lo, hi := t.ByteExtent()
		if err := fetch(st, int64(lo), int64(hi-lo)); err != nil {
			return nil, fmt.Errorf("tensor %q: %w", e.Name, err)
		}
	}
	e.cached = t
	return t, nil
}

// byteSize writes n bytes for a message: "1.0 GiB", "512 MiB".
func byteSize(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

// ensureRange fetches bytes [off, off+n) of st if st is a remote window,
// pinned until ctx is done when hold is set.
func ensureRange(ctx context.Context, st *tensor.Storage, off, n int64, hold bool) error {
	w := windowOf(st)
	if w == nil {
		return nil
	}
	off = max(off, 0)
	n = min(n, w.Size()-off)
	if n <= 0 {
		return nil
	}
	unpin, err := w.Ensure(ctx, off, n, func(done, total int64) { ReportProgress(ctx, done, total) })
	if err != nil {
		return err
	}
	if !hold {
		unpin()
		return nil
	}
	if ctx.Done() == nil {
		return nil // never released: stays pinned until the document closes
	}
	context.AfterFunc(ctx, unpin)
	return nil
}

// readRemoteHeader is ReadHeader of a remote file: growing range reads,
// the first of at least 64 KiB (a safetensors shard's header then costs
// one request, rarely two).
func readRemoteHeader(path string, first int64, parse func(prefix []byte, size int64) (need int64, err error)) (int64, error) {
	ctx := context.Background()
	t, err := remote.Resolve(path)
	if err != nil {
		return 0, err
	}
	f, buf, err := remote.Open(ctx, t, max(first, remote.BlockSize), nil)
	if err != nil {
		return 0, err
	}
	size := f.Size()
	for {
		need, err := parse(buf, size)
		switch {
		case err != nil:
			return 0, err
		case need <= int64(len(buf)):
			return size, nil
		case need > size:
			return 0, Errorf(-1, "the header needs %d bytes; the file has only %d", need, size)
		}
		more := make([]byte, need)
		copy(more, buf)
		if err := f.ReadAt(ctx, more[len(buf):], int64(len(buf)), nil); err != nil {
			return 0, err
		}
		buf = more
	}
}

// remoteInfo is the fs.FileInfo of a remote file.
type remoteInfo struct {
	name string
	size int64
}

func (r remoteInfo) Name() string       { return r.name }
func (r remoteInfo) Size() int64        { return r.size }
func (r remoteInfo) Mode() fs.FileMode  { return 0o444 }
func (r remoteInfo) ModTime() time.Time { return time.Time{} }
func (r remoteInfo) IsDir() bool        { return false }
func (r remoteInfo) Sys() any           { return nil }

// statRemote asks the server for the file's size (a one-byte range).
func statRemote(path string) (fs.FileInfo, error) {
	t, err := remote.Resolve(path)
	if err != nil {
		return nil, err
	}
	f, _, err := remote.Open(context.Background(), t, 1, nil)
	if err != nil {
		return nil, err
	}
	return remoteInfo{name: path, size: f.Size()}, nil
}

// windowOf is the window under a remote storage's bytes, nil for any
// other storage.
func windowOf(st *tensor.Storage) *remote.Window {
	if st == nil {
		return nil
	}
	if p, ok := st.Pager().(windowPager); ok {
		return p.w
	}
	return nil
}

// HeaderReaders is how many further files' headers (shards of an index)
// a codec reads at once: one per core for local files, more for remote
// ones, whose reads wait on the network.
func HeaderReaders(docPath string) int {
	if IsRemote(docPath) {
		return 16
	}
	return runtime.GOMAXPROCS(0)
}

// MapFile maps a local file (tensor.MapFile) or opens a remote one, whose
// bytes past the first block fault until fetched: for a codec that peeks
// at a further file (the format of an index's shards).
func MapFile(path string) (*tensor.Storage, error) {
	if IsRemote(path) {
		st, _, err := openRemoteStorage(context.Background(), path)
		return st, err
	}
	return tensor.MapFile(path)
}

// SetRemoteCache sets the budget of remote files' fetched bytes held at
// once, from a size such as "1073741824", "512M" or "2G" (the default is
// 1 GiB, or the environment's TENSORSCOPE_REMOTE_CACHE).
func SetRemoteCache(size string) error {
	n, err := remote.ParseSize(size)
	if err != nil {
		return err
	}
	if n < remote.BlockSize {
		return fmt.Errorf("%s is less than one %d-byte block", size, remote.BlockSize)
	}
	remote.SetCacheLimit(n)
	return nil
}

// RemoteNoteMin is the size from which showing a remote tensor (or
// summarising a remote document) says that it reads all of it from the
// server first.
const RemoteNoteMin = 16 << 20

// RemoteReadNote says, for a tensor of a remote document of at least 16
// MiB whose bytes are not fetched yet, that showing it reads all of it
// from the server ("Reading all 1.0 GiB of tensor "w" from the server"):
// a heatmap, a histogram and the statistics need every value. It is ""
// otherwise.
func (e *TensorEntry) RemoteReadNote() string {
	d := e.remote
	if d == nil || e.NBytes < RemoteNoteMin {
		return ""
	}
	if w := windowOf(d.storage); w != nil && len(d.Shards()) == 0 && e.Offset >= 0 && e.Offset+e.NBytes <= w.Size() && w.Present(e.Offset, e.NBytes) {
		return ""
	}
	return fmt.Sprintf("Reading all %s of tensor %q from the server", byteSize(e.NBytes), e.Name)
}

// RemoteReadNote is the RemoteReadNote of tensor i, or when i < 0 of the
// first tensor with numeric data (the one a view shows by default).
func (d *Document) RemoteReadNote(i int) string {
	if i >= 0 && i < len(d.Tensors) {
		return d.Tensors[i].RemoteReadNote()
	}
	for _, e := range d.Tensors {
		if e.HasData() && e.DType.Numeric() {
			return e.RemoteReadNote()
		}
	}
	return ""
}
