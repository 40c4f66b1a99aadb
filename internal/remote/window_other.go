//go:build !linux

package remote

import "errors"

type region struct{ mem []byte }

func newRegion(size int64) (*region, error) {
	return nil, errors.New("remote files are read on Linux only")
}

func (r *region) fill(off int64, data []byte) error { return errors.New("unsupported") }
func (r *region) drop(off, n int64)                 {}
func (r *region) close() error                      { return nil }

func (r *region) WriteAt(b []byte, off int64) (int, error) { return 0, errors.New("unsupported") }
func (r *region) publish(off, n int64) error               { return errors.New("unsupported") }
func (r *region) discard(off, n int64)                     {}
