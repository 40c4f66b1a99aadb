// Package desktop holds Tensorscope's Linux desktop integration: the desktop
// entry (io.github.tensorscope.desktop), the shared-mime-info types with
// their magic rules (io.github.tensorscope.xml), and the smaller hicolor
// icons made from ../icon.png. scripts/install-desktop installs them; the
// tests here check the MIME rules against the real samples and run a whole
// install and uninstall in a temporary home. README.md covers macOS and
// Windows.
package desktop

//go:generate go run ./genicons -src ../icon.png -o .
