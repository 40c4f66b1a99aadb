//go:build unix

package formats

import (
	"io"
	"io/fs"
	"syscall"
)

// readLocalHeader is ReadHeaderInto of a local file that passed
// CheckRegular, with raw system calls.
func readLocalHeader(buf *[]byte, path string, first int64, parse func(prefix []byte, size int64) (need int64, err error)) (int64, error) {
	fd, err := openRead(path)
	if err != nil {
		return 0, err
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := fstat(fd, &st); err != nil {
		return 0, &fs.PathError{Op: "fstat", Path: path, Err: err}
	}
	if mode := uint32(st.Mode); mode&syscall.S_IFMT != syscall.S_IFREG { // uint16 on macOS and the BSDs
		// The name was replaced between the stat and the open.
		return 0, &NotRegularError{Path: path, Mode: fileMode(mode)}
	}
	return parseLoop(buf, st.Size, first, func(b []byte) error { return preadFull(fd, b, path) }, parse)
}

// fileMode is the fs.FileMode of a stat's st_mode type bits.
func fileMode(m uint32) fs.FileMode {
	switch m & syscall.S_IFMT {
	case syscall.S_IFIFO:
		return fs.ModeNamedPipe
	case syscall.S_IFDIR:
		return fs.ModeDir
	case syscall.S_IFSOCK:
		return fs.ModeSocket
	case syscall.S_IFCHR:
		return fs.ModeDevice | fs.ModeCharDevice
	case syscall.S_IFBLK:
		return fs.ModeDevice
	case syscall.S_IFLNK:
		return fs.ModeSymlink
	}
	return fs.ModeIrregular
}

// openRead opens path for reading, without blocking (a FIFO put in place
// after the stat opens at once, and the fstat after it refuses it).
func openRead(path string) (int, error) {
	for {
		fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NONBLOCK, 0)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return -1, &fs.PathError{Op: "open", Path: path, Err: err}
		}
		return fd, nil
	}
}

func fstat(fd int, st *syscall.Stat_t) error {
	for {
		if err := syscall.Fstat(fd, st); err != syscall.EINTR {
			return err
		}
	}
}

// preadFull fills b from the start of the file; a file shorter than b
// (truncated since its fstat) is io.ErrUnexpectedEOF.
func preadFull(fd int, b []byte, path string) error {
	for done := 0; done < len(b); {
		n, err := syscall.Pread(fd, b[done:], int64(done))
		switch {
		case err == syscall.EINTR || err == syscall.EAGAIN:
			continue
		case err != nil:
			return &fs.PathError{Op: "read", Path: path, Err: err}
		case n == 0:
			return &fs.PathError{Op: "read", Path: path, Err: io.ErrUnexpectedEOF}
		}
		done += n
	}
	return nil
}
