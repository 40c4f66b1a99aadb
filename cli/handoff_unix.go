//go:build unix

package cli

import (
	"os"
	"syscall"
)

// replaceProcess executes path with args in place of this process; it
// returns only on failure.
func replaceProcess(path string, args []string) error {
	return syscall.Exec(path, append([]string{path}, args...), os.Environ())
}
