//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly || illumos

package instance

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestDisplayKeyNamesTheDisplay(t *testing.T) {
	cases := []struct{ wayland, x, want string }{
		{"", ":88", ":88"},
		{"", ":88.0", ":88"},
		{"", "localhost:10.0", "localhost:10"},
		{"", "/private/tmp/com.apple.launchd.x/org.xquartz:0", "_private_tmp_com.apple.launchd.x_org.xquartz_0"},
		{"wayland-0", ":1", "wayland-0"},
		{"/run/user/1000/wayland-1", "", "_run_user_1000_wayland-1"},
		{"", "", ""},
	}
	for _, c := range cases {
		t.Setenv("WAYLAND_DISPLAY", c.wayland)
		t.Setenv("DISPLAY", c.x)
		want := fileNamePart(c.want)
		if got := DisplayKey(); got != want {
			t.Errorf("WAYLAND_DISPLAY=%q DISPLAY=%q: key %q, want %q", c.wayland, c.x, got, want)
		}
		if strings.ContainsAny(DisplayKey(), "/:\x00") {
			t.Errorf("key %q cannot be part of a file name", DisplayKey())
		}
	}
	if got := fileNamePart(".."); got != "_.." {
		t.Errorf("fileNamePart(..) = %q", got)
	}
}

// TestOneInstancePerDisplay starts instances on displays :88 and :91: each
// becomes primary on its own display, and a file opened on :88 goes to the
// instance on :88.
func TestOneInstancePerDisplay(t *testing.T) {
	dir := privateDir(t)
	on := func(display string) *Endpoint {
		return &Endpoint{AppID: "t", Dir: dir, Display: display, Timeout: time.Second, Logf: t.Logf}
	}
	r88, r91 := newRecorder(), newRecorder()
	l88, _, err := on(":88").Start(nil, r88.onOpen)
	if err != nil {
		t.Fatalf("the instance on :88 did not start: %v", err)
	}
	defer l88.Close()
	l91, delivered, err := on(":91").Start(nil, r91.onOpen)
	if err != nil || delivered || l91 == nil {
		t.Fatalf("the instance on :91 = %v, %v, %v; want a primary of its own", l91, delivered, err)
	}
	defer l91.Close()
	f := touch(t, filepath.Join(t.TempDir(), "a.tsr"))
	notPrimary := func([]string) { t.Error("a launch on :88 was handed paths") }
	if l, delivered, err := on(":88").Start([]string{f}, notPrimary); l != nil || !delivered || err != nil {
		t.Fatalf("a launch on :88 = %v, %v, %v; want its file handed over", l, delivered, err)
	}
	<-r88.got
	if calls, _ := r88.snapshot(); len(calls) != 1 || calls[0][0] != f {
		t.Errorf("the instance on :88 got %q", calls)
	}
	if calls, _ := r91.snapshot(); len(calls) != 0 {
		t.Errorf("the instance on :91 got %q, opened on :88", calls)
	}
	sock88, _ := on(":88").SocketPath()
	sock91, _ := on(":91").SocketPath()
	if sock88 == sock91 {
		t.Errorf("both displays use socket %s", sock88)
	}
	if _, _, err := on(":91").Start(nil, notPrimary); !errors.Is(err, ErrRunning) {
		t.Errorf("a second instance on :91 without files: %v, want ErrRunning", err)
	}
}
