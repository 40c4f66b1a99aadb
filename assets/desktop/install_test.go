package desktop

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"image/png"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// The tools an install and its checks need, with their Debian packages.
// mimetype is what xdg-mime asks for a file's type outside GNOME and KDE.
var installTools = []struct{ cmd, pkg string }{
	{"update-mime-database", "shared-mime-info"},
	{"update-desktop-database", "desktop-file-utils"},
	{"desktop-file-validate", "desktop-file-utils"},
	{"xdg-mime", "xdg-utils"},
	{"xdg-open", "xdg-utils"},
	{"mimetype", "libfile-mimeinfo-perl"},
	{"gio", "libglib2.0-bin"},
}

func requireInstallTools(t *testing.T) {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("the desktop install is for Linux")
	}
	var missing, pkgs []string
	for _, tool := range installTools {
		if _, err := exec.LookPath(tool.cmd); err != nil {
			missing = append(missing, tool.cmd)
			if !slices.Contains(pkgs, tool.pkg) {
				pkgs = append(pkgs, tool.pkg)
			}
		}
	}
	if len(missing) == 0 {
		return
	}
	msg := fmt.Sprintf("missing %s; install the Debian packages %s (make test does)",
		strings.Join(missing, ", "), strings.Join(pkgs, " "))
	if os.Getenv("CI") == "true" {
		t.Fatal(msg + ", and CI=true requires them")
	}
	t.Skip(msg + "; skipping (CI=true makes this a failure)")
}

// session is a user with a temporary home and no desktop environment, so
// that xdg-mime uses its generic, file-based implementation.
type session struct {
	t    *testing.T
	home string
	env  []string
}

func newSession(t *testing.T) *session {
	home := t.TempDir()
	drop := map[string]bool{}
	for _, k := range strings.Fields(`HOME XDG_DATA_HOME XDG_CONFIG_HOME XDG_BIN_HOME XDG_DATA_DIRS
		XDG_CONFIG_DIRS XDG_CURRENT_DESKTOP XDG_SESSION_DESKTOP DESKTOP_SESSION XDG_MENU_PREFIX
		KDE_FULL_SESSION KDE_SESSION_VERSION GNOME_DESKTOP_SESSION_ID MATE_DESKTOP_SESSION_ID
		LXQT_SESSION_CONFIG DESKTOP BROWSER DISPLAY WAYLAND_DISPLAY DBUS_SESSION_BUS_ADDRESS`) {
		drop[k] = true
	}
	var env []string
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); !drop[k] {
			env = append(env, kv)
		}
	}
	display := os.Getenv("DISPLAY")
	if display == "" {
		// xdg-open only looks for a desktop entry when it thinks there is a
		// display; the stand-in it starts never connects to one.
		display = ":9999"
	}
	emptyConfigDirs := t.TempDir() // keep /etc/xdg/mimeapps.list out of the picture
	env = append(env, "HOME="+home, "XDG_DATA_DIRS=/usr/local/share:/usr/share",
		"XDG_CONFIG_DIRS="+emptyConfigDirs, "DISPLAY="+display, "GIO_USE_VFS=local")
	return &session{t: t, home: home, env: env}
}

func (s *session) run(name string, args ...string) string {
	s.t.Helper()
	out, err := s.try(name, args...)
	if err != nil {
		s.t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return out
}

func (s *session) try(name string, args ...string) (string, error) {
	cmd := exec.Command(name, args...)
	cmd.Env = s.env
	cmd.Dir = s.home
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err
}

func (s *session) path(rel string) string { return filepath.Join(s.home, filepath.FromSlash(rel)) }

// snapshot maps every file under home (but the caches programs make) to a
// hash of its content and its mode.
func (s *session) snapshot() map[string]string {
	s.t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(s.home, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(s.home, p)
		if d.IsDir() {
			if rel == ".cache" {
				return filepath.SkipDir
			}
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		info, _ := d.Info()
		files[rel] = fmt.Sprintf("%x %v", sha256.Sum256(b), info.Mode())
		return nil
	})
	if err != nil {
		s.t.Fatal(err)
	}
	return files
}

func diffSnapshots(before, after map[string]string) []string {
	var d []string
	for k, v := range after {
		switch w, ok := before[k]; {
		case !ok:
			d = append(d, "left behind: "+k)
		case w != v:
			d = append(d, "changed: "+k)
		}
	}
	for k := range before {
		if _, ok := after[k]; !ok {
			d = append(d, "removed: "+k)
		}
	}
	return d
}

var installedTypes = []string{
	"application/x-tsr-tensor", "application/x-tsr3-tensor", "application/x-tsr4-tensor",
	"application/x-tengine-tmfile", "application/x-tennis-tsm", "application/x-seetaface-csta",
	"application/x-datacode-nn", "application/x-gguf", "application/x-onnx",
	"application/x-npy", "application/x-npz", "application/x-safetensors", "application/x-safetensors-index",
	"application/x-tflite",
	"application/x-pytorch",
}

func isOurs(mime string) bool {
	for _, t := range installedTypes {
		if mime == t {
			return true
		}
	}
	return false
}

// typeCases are the real samples, generated files, and copies of the
// smallest sample of each type under a name without an extension, where
// magic alone decides (and a tmfile is nobody's). Copies, not links: the
// tools type a link by its target's name.
func typeCases(t *testing.T, dir string) []sampleCase {
	real := realSamples(t)
	cases := append(real, generatedFiles(t, dir)...)
	smallest := map[string]sampleCase{}
	size := map[string]int64{}
	for _, c := range real {
		st, err := os.Stat(c.path)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := smallest[c.want]; !ok || st.Size() < size[c.want] {
			smallest[c.want], size[c.want] = c, st.Size()
		}
	}
	for want, c := range smallest {
		b, err := os.ReadFile(c.path)
		if err != nil {
			t.Fatal(err)
		}
		copyPath := filepath.Join(dir, "renamed-"+strings.TrimPrefix(want, "application/"))
		if err := os.WriteFile(copyPath, b, 0o644); err != nil {
			t.Fatal(err)
		}
		if globOnly[want] {
			want = ""
		}
		cases = append(cases, sampleCase{copyPath, want})
	}
	return cases
}

// checkTypes asks both implementations of the MIME database: Perl's
// File::MimeInfo (mimetype, what xdg-mime runs) and GLib's (gio, what GTK
// file managers use).
func (s *session) checkTypes(cases []sampleCase, installed bool) {
	s.t.Helper()
	paths := make([]string, len(cases))
	for i, c := range cases {
		paths[i] = c.path
	}
	perl := map[string]string{}
	for _, line := range strings.Split(s.run("mimetype", append([]string{"--dereference"}, paths...)...), "\n") {
		if i := strings.LastIndex(line, ":"); i > 0 {
			perl[line[:i]] = strings.TrimSpace(line[i+1:])
		}
	}
	glib := map[string]string{}
	var at string
	for _, line := range strings.Split(s.run("gio", append([]string{"info", "-a", "standard::content-type"}, paths...)...), "\n") {
		if p, ok := strings.CutPrefix(line, "local path: "); ok {
			at = p
		} else if ct, ok := strings.CutPrefix(strings.TrimSpace(line), "standard::content-type: "); ok {
			glib[at] = ct
		}
	}
	for _, c := range cases {
		for tool, got := range map[string]string{"mimetype": perl[c.path], "gio": glib[c.path]} {
			switch {
			case got == "":
				s.t.Errorf("%s gave no type for %s", tool, c.path)
			case installed && c.want != "" && got != c.want:
				s.t.Errorf("%s: %s says %s; want %s", filepath.Base(c.path), tool, got, c.want)
			case (!installed || c.want == "") && isOurs(got):
				s.t.Errorf("%s: %s says %s; want none of Tensorscope's types", filepath.Base(c.path), tool, got)
			}
		}
	}
}

func waitForLine(t *testing.T, path, want string) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		b, _ := os.ReadFile(path)
		for _, line := range strings.Split(string(b), "\n") {
			if line == want {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the stand-in was not started with %s; it logged %q", want, b)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func pngSize(t *testing.T, path string) int {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cfg, err := png.DecodeConfig(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if cfg.Width != cfg.Height {
		t.Errorf("%s is %d×%d, not square", path, cfg.Width, cfg.Height)
	}
	return cfg.Width
}

// installCycle installs with a stand-in binary, checks the result as a
// file manager would see it, uninstalls, and requires the home to be as it
// was before.
func installCycle(t *testing.T, s *session) {
	script, err := filepath.Abs(filepath.Join("..", "..", "scripts", "install-desktop"))
	if err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	opened := filepath.Join(work, "opened")
	standIn := filepath.Join(work, "stand-in")
	if err := os.WriteFile(standIn, []byte("#!/bin/sh\nprintf '%s\\n' \"$@\" >> '"+opened+"'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	cases := typeCases(t, t.TempDir())
	before := s.snapshot()

	s.run("sh", script, "install", standIn)

	bin := s.path(".local/bin/tensorscope")
	if b, err := os.ReadFile(bin); err != nil || !strings.Contains(string(b), opened) {
		t.Fatalf("installed binary: %v", err)
	}
	if st, _ := os.Stat(bin); st.Mode().Perm() != 0o755 {
		t.Errorf("binary mode %v", st.Mode())
	}
	entry := s.path(".local/share/applications/" + appID + ".desktop")
	if e := desktopEntry(t, entry); e["Exec"] != bin+" %F" || e["TryExec"] != bin {
		t.Errorf("installed entry runs Exec=%q TryExec=%q; want %s", e["Exec"], e["TryExec"], bin)
	}
	s.run("desktop-file-validate", entry)
	if _, err := os.Stat(s.path(".local/share/mime/packages/" + appID + ".xml")); err != nil {
		t.Error(err)
	}
	for _, size := range []int{512, 256, 128, 48} {
		icon := s.path(fmt.Sprintf(".local/share/icons/hicolor/%dx%d/apps/%s.png", size, size, appID))
		if got := pngSize(t, icon); got != size {
			t.Errorf("%s is %d pixels wide", icon, got)
		}
	}

	s.checkTypes(cases, true)
	// xdg-mime itself, once per type, and the default application.
	checked := map[string]bool{}
	for _, c := range cases {
		if c.want == "" || checked[c.want] {
			continue
		}
		checked[c.want] = true
		if got := strings.TrimSpace(s.run("xdg-mime", "query", "filetype", c.path)); got != c.want {
			t.Errorf("xdg-mime query filetype %s = %s; want %s", c.path, got, c.want)
		}
	}
	for _, mt := range installedTypes {
		if got := strings.TrimSpace(s.run("xdg-mime", "query", "default", mt)); got != appID+".desktop" {
			t.Errorf("xdg-mime query default %s = %q", mt, got)
		}
		if out := s.run("gio", "mime", mt); !strings.Contains(out, ": "+appID+".desktop\n") {
			t.Errorf("gio mime %s:\n%s", mt, out)
		}
	}
	// Explicit defaults, so that another application claiming a type does
	// not take the double-click.
	list, _ := os.ReadFile(s.path(".config/mimeapps.list"))
	for _, mt := range installedTypes {
		if !strings.Contains(string(list), "\n"+mt+"="+appID+".desktop\n") {
			t.Errorf("mimeapps.list has no default for %s:\n%s", mt, list)
		}
	}
	if len(checked) != len(installedTypes) {
		t.Errorf("types covered by files: %d of %d", len(checked), len(installedTypes))
	}

	// Double-clicking: what xdg-open and gio open start.
	var csta, tsr4 string
	for _, c := range cases {
		switch {
		case csta == "" && c.want == "application/x-seetaface-csta":
			csta = c.path
		case tsr4 == "" && c.want == "application/x-tsr4-tensor":
			tsr4 = c.path
		}
	}
	s.run("xdg-open", csta)
	waitForLine(t, opened, csta)
	s.run("gio", "open", tsr4)
	waitForLine(t, opened, tsr4)

	s.run("sh", script, "uninstall")
	for _, d := range diffSnapshots(before, s.snapshot()) {
		t.Error("after uninstall, " + d)
	}
	s.checkTypes(cases[:1], false)
	if got := strings.TrimSpace(s.run("xdg-mime", "query", "default", installedTypes[0])); got == appID+".desktop" {
		t.Errorf("after uninstall the default for %s is still %s", installedTypes[0], got)
	}
}

func TestInstallIntoFreshHome(t *testing.T) {
	requireInstallTools(t)
	t.Parallel()
	s := newSession(t)
	installCycle(t, s)
	if files := s.snapshot(); len(files) != 0 {
		t.Errorf("files left in a home that was empty: %v", files)
	}
}

// Another application's desktop entry, MIME package and defaults must come
// through an install and uninstall untouched.
func TestInstallBesideOtherApplications(t *testing.T) {
	requireInstallTools(t)
	t.Parallel()
	s := newSession(t)
	write := func(rel, text string) {
		p := s.path(rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(".local/share/applications/other-viewer.desktop", "[Desktop Entry]\nType=Application\nName=Other\nExec=other %f\nMimeType=text/plain;application/x-other-thing;application/x-tsr-tensor;\n")
	write(".local/share/mime/packages/other.xml", `<?xml version="1.0"?>
<mime-info xmlns="http://www.freedesktop.org/standards/shared-mime-info">
  <mime-type type="application/x-other-thing"><comment>Other</comment><glob pattern="*.other"/></mime-type>
</mime-info>
`)
	write(".config/mimeapps.list", "[Default Applications]\ntext/plain=other-viewer.desktop\n\n[Added Associations]\napplication/x-tsr-tensor=other-viewer.desktop;\n")
	s.run("update-mime-database", s.path(".local/share/mime"))
	s.run("update-desktop-database", s.path(".local/share/applications"))
	installCycle(t, s)
	if got := strings.TrimSpace(s.run("xdg-mime", "query", "default", "text/plain")); got != "other-viewer.desktop" {
		t.Errorf("text/plain now opens with %q", got)
	}
}
