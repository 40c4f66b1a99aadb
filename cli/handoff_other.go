//go:build !unix

package cli

import (
	"errors"
	"os"
	"os/exec"
)

// replaceProcess runs path with args on this process's standard streams
// and exits with its status: without exec(2), the nearest thing to
// replacing the process. It returns only when path cannot be started.
func replaceProcess(path string, args []string) error {
	cmd := exec.Command(path, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		os.Exit(exit.ExitCode())
	}
	if err != nil {
		return err
	}
	os.Exit(0)
	return nil
}
