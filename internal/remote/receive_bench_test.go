//go:build linux

package remote

import (
	"io"
	"net"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// How fetched bytes reach the block file (docs/PERFORMANCE.md, "Remote
// files, round two"): 64 MiB sent over loopback TCP with sendfile, as the
// test server sends, and received
//   - Buffered: through a reused 1 MiB buffer, written into a memfd with
//     pwrite (what fetchPiece does);
//   - IntoNewMapping: straight into a new writable, populated mapping of
//     the memfd (what it did before).
func BenchmarkReceiveBuffered(b *testing.B)       { benchReceive(b, false) }
func BenchmarkReceiveIntoNewMapping(b *testing.B) { benchReceive(b, true) }

func benchReceive(b *testing.B, mapped bool) {
	const size = 64 << 20
	path := filepath.Join(b.TempDir(), "data")
	data := make([]byte, size)
	for i := range data {
		data[i] = byte(i * 7)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		b.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				f, err := os.Open(path)
				if err == nil {
					io.Copy(c, f) // sendfile
					f.Close()
				}
			}()
		}
	}()
	buf := make([]byte, bufferSize)
	b.SetBytes(size)
	b.ResetTimer()
	for range b.N {
		f, err := blockFile()
		if err != nil {
			b.Fatal(err)
		}
		f.Truncate(size)
		c, err := net.Dial("tcp", l.Addr().String())
		if err != nil {
			b.Fatal(err)
		}
		if mapped {
			m, err := unix.Mmap(int(f.Fd()), 0, size, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED|unix.MAP_POPULATE)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := io.ReadFull(c, m); err != nil {
				b.Fatal(err)
			}
			unix.Munmap(m)
		} else {
			for off := int64(0); off < size; off += bufferSize {
				if _, err := io.ReadFull(c, buf); err != nil {
					b.Fatal(err)
				}
				if _, err := f.WriteAt(buf, off); err != nil {
					b.Fatal(err)
				}
			}
		}
		c.Close()
		f.Close()
	}
}
