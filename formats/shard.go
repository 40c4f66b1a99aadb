package formats

import (
	"context"
	"fmt"
	"sync"

	"tensorscope/tensor"
)

// Shard is a further file of a multi-file document (a safetensors shard, a
// GGUF split, ONNX external data), mapped read-only on first use so that
// opening a document of a hundred shards maps none of them. The document
// owns its shards and unmaps them on Close.
type Shard struct {
	Path string // resolved path of the file

	mu      sync.Mutex
	storage *tensor.Storage
	err     error
	closed  bool
}

// AddShard registers a further file of the document. path must already be
// checked (see ResolveInside); nothing is opened until Storage is called.
func (d *Document) AddShard(path string) *Shard {
	s := &Shard{Path: path}
	d.shardMu.Lock()
	d.shards = append(d.shards, s)
	d.shardMu.Unlock()
	return s
}

// Shards returns the document's further files in the order they were added.
func (d *Document) Shards() []*Shard {
	d.shardMu.Lock()
	defer d.shardMu.Unlock()
	return append([]*Shard(nil), d.shards...)
}

// Storage maps the shard on first call and returns its storage; a failed
// mapping is remembered and returned again.
func (s *Shard) Storage() (*tensor.Storage, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, fmt.Errorf("%s: document closed", s.Path)
	}
	if s.storage == nil && s.err == nil && IsRemote(s.Path) {
		s.storage, _, s.err = openRemoteStorage(context.Background(), s.Path)
	}
	if s.storage == nil && s.err == nil {
		if s.err = CheckRegular(s.Path); s.err == nil {
			s.storage, s.err = tensor.MapFile(s.Path)
		}
	}
	return s.storage, s.err
}

// Mapped reports whether the shard's file has been mapped.
func (s *Shard) Mapped() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.storage != nil
}

func (s *Shard) close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	if s.storage == nil {
		return nil
	}
	err := s.storage.Close()
	s.storage = nil
	return err
}

// Own hands st to the document, which closes it with its shards, after
// the last user returns: memory a codec mapped for the document's tensors
// (an inflated member, say).
func (d *Document) Own(st *tensor.Storage) {
	d.shardMu.Lock()
	d.owned = append(d.owned, st)
	d.shardMu.Unlock()
}

// closeShards unmaps every shard and owned storage; it returns the first
// error.
func (d *Document) closeShards() error {
	var first error
	d.shardMu.Lock()
	owned := d.owned
	d.owned = nil
	d.shardMu.Unlock()
	for _, st := range owned {
		if err := st.Close(); err != nil && first == nil {
			first = err
		}
	}
	for _, s := range d.Shards() {
		if err := s.close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}
