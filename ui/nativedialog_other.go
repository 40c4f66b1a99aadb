//go:build !linux

package ui

import (
	"errors"

	sqdialog "github.com/sqweek/dialog"
)

// nativeOpen shows the system's file chooser (GTK on Linux). ok is false when
// the native dialog cannot run — no GTK, no display — and the caller falls
// back to Fyne's own dialog; a cancelled dialog gives ok with path "".
func nativeOpen(title, startDir string, filters []fileFilter) (path string, ok bool) {
	return runNative(func() (string, error) { return fileBuilder(title, startDir, filters).Load() })
}

// nativeSave shows the system's save dialog; ok is false when it cannot run.
func nativeSave(title, startDir, startFile string, filters []fileFilter) (path string, ok bool) {
	return runNative(func() (string, error) {
		return fileBuilder(title, startDir, filters).SetStartFile(startFile).Save()
	})
}

// nativeFolder shows the system's folder chooser; ok is false when it
// cannot run.
func nativeFolder(title string) (dir string, ok bool) {
	return runNative(func() (string, error) { return sqdialog.Directory().Title(title).Browse() })
}

func fileBuilder(title, startDir string, filters []fileFilter) *sqdialog.FileBuilder {
	b := sqdialog.File().Title(title)
	if startDir != "" {
		b = b.SetStartDir(startDir)
	}
	for _, f := range filters {
		b = b.Filter(f.Name, f.Extensions...)
	}
	return b
}

// runNative runs a native dialog: ok is false when it cannot run (no GTK,
// no display: sqweek/dialog panics when GTK failed to initialise), and a
// cancelled dialog gives ok with "".
func runNative(show func() (string, error)) (path string, ok bool) {
	defer func() {
		if recover() != nil {
			path, ok = "", false
		}
	}()
	p, err := show()
	if errors.Is(err, sqdialog.ErrCancelled) {
		return "", true
	}
	if err != nil {
		return "", false
	}
	return p, true
}
