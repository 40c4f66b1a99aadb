// Package remote reads files over HTTP(S) with range requests, for
// documents that live on a server (a model on the Hugging Face Hub, say).
//
// A File is one remote file: its size and validators (ETag,
// Last-Modified) from the first response, and ReadAt with retries that
// resume where a dropped transfer stopped and refuse a file that changed
// between requests. A Window maps a remote file into memory as one
// reserved, unreadable region the size of the file; blocks are fetched
// into a temporary file and mapped over the region as they are needed,
// so code that reads a []byte (a codec decoding headers) needs no change:
// a read of a block not fetched yet faults, and the caller (formats)
// fetches the block and runs the read again. The blocks of every window
// share one budget (SetCacheLimit, 1 GiB by default); the least recently
// used blocks are dropped when it is exceeded, except those pinned by a
// reader that is using them.
//
// Readers of one window fetch at once (Ensure): each missing range is
// split into pieces of up to 8 MiB, several requests in flight, and a
// block another reader is already fetching is waited for, never fetched
// twice. A reader walking forward (the statistics of a tensor larger than
// the cache) asks for what lies ahead with Prefetch. Fetched bytes pass
// through a few reused buffers and are written into the block file by the
// kernel (pwrite), then mapped, populated, over the window: receiving
// straight into new pages of a mapping was several times slower.
//
// The package imports nothing of ours: formats glues it to the document
// model.
package remote
