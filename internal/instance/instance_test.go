//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly || illumos

package instance

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// recorder collects what a listener hands on, and what it logs.
type recorder struct {
	mu    sync.Mutex
	calls [][]string
	logs  []string
	got   chan struct{}
}

func newRecorder() *recorder { return &recorder{got: make(chan struct{}, 100)} }

func (r *recorder) onOpen(paths []string) {
	r.mu.Lock()
	r.calls = append(r.calls, paths)
	r.mu.Unlock()
	r.got <- struct{}{}
}

func (r *recorder) logf(format string, args ...any) {
	r.mu.Lock()
	r.logs = append(r.logs, fmt.Sprintf(format, args...))
	r.mu.Unlock()
}

func (r *recorder) snapshot() (calls [][]string, logs []string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.calls), slices.Clone(r.logs)
}

// privateDir is a temporary directory with the 0700 mode Endpoint.Dir
// must have (t.TempDir honours the umask).
func privateDir(t *testing.T) string {
	t.Helper()
	d := t.TempDir()
	if err := os.Chmod(d, 0o700); err != nil {
		t.Fatal(err)
	}
	return d
}

func newEndpoint(t *testing.T, r *recorder) *Endpoint {
	t.Helper()
	return &Endpoint{AppID: "t", Dir: privateDir(t), Timeout: time.Second, Logf: r.logf}
}

func listen(t *testing.T, e *Endpoint, r *recorder) io.Closer {
	t.Helper()
	l, err := e.Listen(r.onOpen)
	if err != nil {
		t.Fatalf("Listen: %v", err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

func touch(t *testing.T, path string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("TSR!"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestSendDeliversPaths(t *testing.T) {
	r := newRecorder()
	e := newEndpoint(t, r)
	listen(t, e, r)
	files := t.TempDir()
	a := touch(t, filepath.Join(files, "a.tsr"))
	b := touch(t, filepath.Join(files, "name with spaces\nand a newline.tmfile"))
	ok, err := e.Send([]string{a, b})
	if err != nil || !ok {
		t.Fatalf("Send = %v, %v; want delivered", ok, err)
	}
	calls, _ := r.snapshot()
	if want := [][]string{{a, b}}; !reflect.DeepEqual(calls, want) {
		t.Fatalf("onOpen got %q, want %q", calls, want)
	}
}

func TestSendResolvesRelativePaths(t *testing.T) {
	r := newRecorder()
	e := newEndpoint(t, r)
	listen(t, e, r)
	work := t.TempDir()
	touch(t, filepath.Join(work, "x.tsr"))
	touch(t, filepath.Join(work, "sub", "y.nn"))
	t.Chdir(work)
	ok, err := e.Send([]string{"x.tsr", "sub/../sub/./y.nn"})
	if err != nil || !ok {
		t.Fatalf("Send = %v, %v; want delivered", ok, err)
	}
	calls, _ := r.snapshot()
	want := [][]string{{filepath.Join(work, "x.tsr"), filepath.Join(work, "sub", "y.nn")}}
	if !reflect.DeepEqual(calls, want) {
		t.Fatalf("onOpen got %q, want %q", calls, want)
	}
}

func TestSendWithoutInstance(t *testing.T) {
	r := newRecorder()
	e := newEndpoint(t, r)
	f := touch(t, filepath.Join(t.TempDir(), "a.tsr"))
	ok, err := e.Send([]string{f})
	if ok || err != nil {
		t.Fatalf("Send with no instance = %v, %v; want false, nil", ok, err)
	}
}

func TestSendRefusesInvalidPathsItself(t *testing.T) {
	r := newRecorder()
	e := newEndpoint(t, r)
	listen(t, e, r)
	dir := t.TempDir()
	good := touch(t, filepath.Join(dir, "a.tsr"))
	for _, bad := range []string{filepath.Join(dir, "missing.tsr"), dir, "/dev/null"} {
		ok, err := e.Send([]string{good, bad})
		if ok || !errors.Is(err, ErrInvalidPath) {
			t.Errorf("Send(%q) = %v, %v; want ErrInvalidPath", bad, ok, err)
		}
	}
	if _, err := e.Send(nil); err == nil {
		t.Error("Send(nil) succeeded")
	}
	if calls, _ := r.snapshot(); len(calls) != 0 {
		t.Fatalf("onOpen called with %q", calls)
	}
}

// rawRequest talks to the listener without Send's own checks, as a hostile
// or broken client would.
func rawRequest(t *testing.T, e *Endpoint, msg []byte) string {
	t.Helper()
	sock, err := e.SocketPath()
	if err != nil {
		t.Fatal(err)
	}
	c, err := net.Dial("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(5 * time.Second))
	go func() {
		// The listener may stop reading (too large) and close; the write
		// error is then expected.
		c.Write(msg)
		c.(*net.UnixConn).CloseWrite()
	}()
	reply, _ := io.ReadAll(c)
	return string(reply)
}

func TestListenerRejectsAnythingButFilePaths(t *testing.T) {
	r := newRecorder()
	e := newEndpoint(t, r)
	listen(t, e, r)
	dir := t.TempDir()
	good := touch(t, filepath.Join(dir, "a.tsr"))
	link := filepath.Join(dir, "dirlink")
	if err := os.Symlink(dir, link); err != nil {
		t.Fatal(err)
	}
	req := func(paths ...string) []byte { return []byte(requestMagic + strings.Join(paths, "\x00") + "\x00") }
	// Too large though well-formed: few paths, but long ones.
	deep := dir
	for i := range 4 {
		deep = filepath.Join(deep, strings.Repeat(string(rune('a'+i)), 250))
	}
	long := touch(t, filepath.Join(deep, "a.tsr"))
	huge := req(slices.Repeat([]string{long}, MaxMessage/len(long)+1)...)
	cases := map[string][]byte{
		"no header":           []byte(good + "\x00"),
		"other header":        []byte("tensorscope-open/2\x00" + good + "\x00"),
		"shell command":       []byte("rm -rf ~\n"),
		"no paths":            []byte(requestMagic),
		"unterminated":        []byte(requestMagic + good),
		"empty path":          req(good, ""),
		"relative":            req("a.tsr"),
		"unclean":             req(dir + "/../" + filepath.Base(dir) + "/a.tsr"),
		"missing file":        req(good, filepath.Join(dir, "missing.tsr")),
		"directory":           req(dir),
		"symlink to dir":      req(link),
		"device":              req("/dev/null"),
		"too many paths":      req(slices.Repeat([]string{good}, MaxPaths+1)...),
		"larger than allowed": huge,
	}
	for name, msg := range cases {
		t.Run(name, func(t *testing.T) {
			reply := rawRequest(t, e, msg)
			if reply == replyOK {
				t.Fatalf("accepted")
			}
			if name == "larger than allowed" && !strings.Contains(reply, "larger than") {
				t.Fatalf("reply %q does not name the size limit", reply)
			}
		})
	}
	calls, logs := r.snapshot()
	if len(calls) != 0 {
		t.Fatalf("onOpen called with %q", calls)
	}
	if len(logs) != len(cases) {
		t.Errorf("%d rejections logged for %d bad requests: %q", len(logs), len(cases), logs)
	}
	// A symbolic link to a regular file is a file the user can open.
	flink := filepath.Join(dir, "flink")
	if err := os.Symlink(good, flink); err != nil {
		t.Fatal(err)
	}
	if reply := rawRequest(t, e, req(good, flink)); reply != replyOK {
		t.Fatalf("valid request after the bad ones: reply %q", reply)
	}
}

func TestListenerTimesOutSilentClients(t *testing.T) {
	r := newRecorder()
	e := newEndpoint(t, r)
	e.Timeout = 200 * time.Millisecond
	listen(t, e, r)
	sock, _ := e.SocketPath()
	var stuck []net.Conn
	for range maxHandlers + 2 { // more than can be served at once
		c, err := net.Dial("unix", sock)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		c.Write([]byte(requestMagic)) // and never finish
		stuck = append(stuck, c)
	}
	start := time.Now()
	for _, c := range stuck {
		c.SetReadDeadline(time.Now().Add(5 * time.Second))
		if _, err := io.ReadAll(c); err != nil {
			t.Fatalf("listener did not drop a silent client: %v", err)
		}
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("silent clients held the listener for %v", d)
	}
	f := touch(t, filepath.Join(t.TempDir(), "a.tsr"))
	if ok, err := e.Send([]string{f}); !ok || err != nil {
		t.Fatalf("Send after silent clients = %v, %v", ok, err)
	}
	if _, logs := r.snapshot(); len(logs) < len(stuck) {
		t.Errorf("timeouts not logged: %q", logs)
	}
}

func TestListenerRejectsOtherUsers(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the peer's uid is checked on Linux only")
	}
	r := newRecorder()
	e := newEndpoint(t, r)
	saved := ownerUID
	ownerUID = saved + 1 // the listener serves another user, so we are a stranger
	listen(t, e, r)
	ownerUID = saved
	f := touch(t, filepath.Join(t.TempDir(), "a.tsr"))
	ok, err := e.Send([]string{f})
	if ok || !errors.Is(err, ErrRejected) {
		t.Fatalf("Send as another uid = %v, %v; want ErrRejected", ok, err)
	}
	calls, logs := r.snapshot()
	if len(calls) != 0 {
		t.Fatalf("onOpen called with %q", calls)
	}
	if len(logs) != 1 || !strings.Contains(logs[0], "uid") {
		t.Fatalf("logs %q; want one rejection naming the uid", logs)
	}
}

func TestSocketAndDirectoryArePrivate(t *testing.T) {
	r := newRecorder()
	e := newEndpoint(t, r)
	listen(t, e, r)
	sock, _ := e.SocketPath()
	st, err := os.Lstat(sock)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Type() != os.ModeSocket || st.Mode().Perm() != 0o600 {
		t.Errorf("socket mode %v; want a socket with 0600", st.Mode())
	}

	open := t.TempDir()
	os.Chmod(open, 0o755)
	if _, err := (&Endpoint{AppID: "t", Dir: open}).Listen(r.onOpen); err == nil || errors.Is(err, ErrRunning) {
		t.Errorf("Listen in a 0755 directory: %v; want a refusal", err)
	}
	link := filepath.Join(t.TempDir(), "link")
	os.Symlink(privateDir(t), link)
	if _, err := (&Endpoint{AppID: "t", Dir: link}).Listen(r.onOpen); err == nil {
		t.Error("Listen through a symbolic link succeeded")
	}
	if _, err := (&Endpoint{AppID: "t", Dir: privateDir(t)}).Listen(nil); err == nil {
		t.Error("Listen without a function to call succeeded")
	}
	if _, err := (&Endpoint{AppID: "../t", Dir: privateDir(t)}).SocketPath(); err == nil {
		t.Error("an app id with a slash was accepted")
	}
	long := filepath.Join(privateDir(t), strings.Repeat("d", 100))
	if _, err := (&Endpoint{AppID: "t", Dir: long}).SocketPath(); err == nil {
		t.Error("a socket path longer than sun_path was accepted")
	}
}

func TestRuntimeDirFallsBackToPrivateTemp(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	shared := t.TempDir()
	os.Chmod(shared, 0o777)
	want := filepath.Join(tmp, fmt.Sprintf("t-%d", os.Getuid()))
	for _, xdg := range []string{"", "relative/dir", shared} {
		t.Setenv("XDG_RUNTIME_DIR", xdg)
		sock, err := (&Endpoint{AppID: "t"}).SocketPath()
		if err != nil {
			t.Fatal(err)
		}
		if sock != filepath.Join(want, "t.sock") {
			t.Errorf("XDG_RUNTIME_DIR=%q: socket %s; want it in %s", xdg, sock, want)
		}
	}
	if st, err := os.Stat(want); err != nil || st.Mode().Perm() != 0o700 {
		t.Fatalf("fallback directory: %v, %v; want mode 0700", st, err)
	}
	private := privateDir(t)
	t.Setenv("XDG_RUNTIME_DIR", private)
	if sock, _ := (&Endpoint{AppID: "t"}).SocketPath(); sock != filepath.Join(private, "t.sock") {
		t.Errorf("socket %s; want it in XDG_RUNTIME_DIR %s", sock, private)
	}
	// Another user's directory in /tmp under our name must not be used.
	if os.Getuid() == 0 {
		t.Setenv("XDG_RUNTIME_DIR", "")
		os.Chown(want, 65534, 65534)
		if _, err := (&Endpoint{AppID: "t"}).SocketPath(); err == nil {
			t.Error("a directory owned by another user was accepted")
		}
	}
}

func TestStaleSocketIsReplaced(t *testing.T) {
	r := newRecorder()
	e := newEndpoint(t, r)
	sock, _ := e.SocketPath()
	l, err := net.ListenUnix("unix", &net.UnixAddr{Name: sock, Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	l.SetUnlinkOnClose(false)
	l.Close() // the file stays, as after a crash; connecting is refused
	f := touch(t, filepath.Join(t.TempDir(), "a.tsr"))
	if ok, err := e.Send([]string{f}); ok || err != nil {
		t.Fatalf("Send to a stale socket = %v, %v; want false, nil", ok, err)
	}
	listen(t, e, r)
	if ok, err := e.Send([]string{f}); !ok || err != nil {
		t.Fatalf("Send after replacing the stale socket = %v, %v", ok, err)
	}
}

func TestNonSocketFileIsLeftAlone(t *testing.T) {
	r := newRecorder()
	e := newEndpoint(t, r)
	sock, _ := e.SocketPath()
	touch(t, sock)
	if _, err := e.Listen(r.onOpen); err == nil || errors.Is(err, ErrRunning) {
		t.Fatalf("Listen over a regular file: %v; want a refusal", err)
	}
	if b, err := os.ReadFile(sock); err != nil || string(b) != "TSR!" {
		t.Fatalf("the file in the socket's place was changed: %q, %v", b, err)
	}
}

func TestCloseRemovesSocketAndReleasesLock(t *testing.T) {
	r := newRecorder()
	e := newEndpoint(t, r)
	l, err := e.Listen(r.onOpen)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Listen(r.onOpen); !errors.Is(err, ErrRunning) {
		t.Fatalf("second Listen: %v; want ErrRunning", err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if err := l.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	sock, _ := e.SocketPath()
	if _, err := os.Lstat(sock); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("socket still there after Close: %v", err)
	}
	l2, err := e.Listen(r.onOpen)
	if err != nil {
		t.Fatalf("Listen after Close: %v", err)
	}
	l2.Close()
}

// A request already handed on is answered even when Close comes while
// onOpen runs; otherwise the sender would open the files a second time.
func TestCloseAnswersRequestsHandedOn(t *testing.T) {
	entered, release := make(chan struct{}), make(chan struct{})
	e := &Endpoint{AppID: "t", Dir: privateDir(t), Timeout: 5 * time.Second, Logf: t.Logf}
	l, err := e.Listen(func([]string) {
		close(entered)
		<-release
	})
	if err != nil {
		t.Fatal(err)
	}
	f := touch(t, filepath.Join(t.TempDir(), "a.tsr"))
	type result struct {
		ok  bool
		err error
	}
	sent := make(chan result, 1)
	go func() {
		ok, err := e.Send([]string{f})
		sent <- result{ok, err}
	}()
	<-entered
	closed := make(chan error, 1)
	go func() { closed <- l.Close() }()
	time.Sleep(100 * time.Millisecond) // let Close reach its wait
	close(release)
	if r := <-sent; !r.ok || r.err != nil {
		t.Fatalf("Send during Close = %v, %v; want delivered", r.ok, r.err)
	}
	if err := <-closed; err != nil {
		t.Fatal(err)
	}
}

func TestConcurrentListenOneWins(t *testing.T) {
	r := newRecorder()
	e := newEndpoint(t, r)
	const n = 16
	var wg sync.WaitGroup
	results := make(chan error, n)
	closers := make(chan io.Closer, n)
	start := make(chan struct{})
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			l, err := e.Listen(r.onOpen)
			if err == nil {
				closers <- l
			}
			results <- err
		}()
	}
	close(start)
	wg.Wait()
	close(results)
	close(closers)
	won := 0
	for err := range results {
		switch {
		case err == nil:
			won++
		case !errors.Is(err, ErrRunning):
			t.Errorf("Listen: %v", err)
		}
	}
	for l := range closers {
		defer l.Close()
	}
	if won != 1 {
		t.Fatalf("%d listeners won; want exactly 1", won)
	}
}

func TestStartHandsOverOrBecomesPrimary(t *testing.T) {
	r := newRecorder()
	e := newEndpoint(t, r)
	f := touch(t, filepath.Join(t.TempDir(), "a.tsr"))
	l, delivered, err := e.Start([]string{f}, r.onOpen)
	if l == nil || delivered || err != nil {
		t.Fatalf("first Start = %v, %v, %v; want primary", l, delivered, err)
	}
	defer l.Close()
	second := &Endpoint{AppID: e.AppID, Dir: e.Dir, Logf: t.Logf}
	notPrimary := func([]string) { t.Error("the second instance was handed paths") }
	if l2, delivered, err := second.Start([]string{f}, notPrimary); l2 != nil || !delivered || err != nil {
		t.Fatalf("second Start = %v, %v, %v; want delivered", l2, delivered, err)
	}
	if l2, delivered, err := second.Start(nil, notPrimary); l2 != nil || delivered || !errors.Is(err, ErrRunning) {
		t.Fatalf("Start without paths = %v, %v, %v; want ErrRunning", l2, delivered, err)
	}
	if calls, _ := r.snapshot(); !reflect.DeepEqual(calls, [][]string{{f}}) {
		t.Fatalf("primary got %q", calls)
	}
}

// The child processes of the tests below run TestHelperProcess with
// INSTANCE_HELPER set; it is not a test of its own.
func TestHelperProcess(t *testing.T) {
	mode := os.Getenv("INSTANCE_HELPER")
	if mode == "" {
		t.Skip("helper for tests that start processes")
	}
	dir, file := os.Getenv("INSTANCE_DIR"), os.Getenv("INSTANCE_FILE")
	e := &Endpoint{AppID: "t", Dir: dir, Timeout: 5 * time.Second, Logf: func(f string, a ...any) { fmt.Printf("log: "+f+"\n", a...) }}
	got := make(chan []string, 64)
	switch mode {
	case "listen-forever":
		if _, err := e.Listen(func(p []string) {}); err != nil {
			fmt.Println("error", err)
			os.Exit(1)
		}
		fmt.Println("ready")
		select {}
	case "start":
		// Start together with the siblings: wait for the go signal.
		for {
			if _, err := os.Stat(filepath.Join(dir, "go")); err == nil {
				break
			}
			time.Sleep(time.Millisecond)
		}
		l, delivered, err := e.Start([]string{file}, func(p []string) { got <- p })
		switch {
		case err != nil:
			fmt.Println("error", err)
			os.Exit(1)
		case delivered:
			fmt.Println("delivered")
		default:
			fmt.Println("primary")
			// Stay primary until the others have handed over their files.
			var n int
			fmt.Sscan(os.Getenv("INSTANCE_EXPECT"), &n)
			timeout := time.After(20 * time.Second)
			for range n {
				select {
				case p := <-got:
					fmt.Println("got", p[0])
				case <-timeout:
					fmt.Println("timeout")
					os.Exit(1)
				}
			}
			l.Close()
		}
	}
	os.Exit(0)
}

func helper(t *testing.T, mode, dir, file string, extra ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$")
	cmd.Env = append(os.Environ(), "INSTANCE_HELPER="+mode, "INSTANCE_DIR="+dir, "INSTANCE_FILE="+file)
	cmd.Env = append(cmd.Env, extra...)
	return cmd
}

func TestConcurrentStartsAcrossProcesses(t *testing.T) {
	dir := privateDir(t)
	files := t.TempDir()
	const n = 4
	outs := make([]bytes.Buffer, n)
	cmds := make([]*exec.Cmd, n)
	want := map[string]bool{}
	for i := range n {
		f := touch(t, filepath.Join(files, fmt.Sprintf("f%d.tsr", i)))
		want[f] = true
		cmds[i] = helper(t, "start", dir, f, fmt.Sprintf("INSTANCE_EXPECT=%d", n-1))
		cmds[i].Stdout = &outs[i]
		cmds[i].Stderr = &outs[i]
		if err := cmds[i].Start(); err != nil {
			t.Fatal(err)
		}
	}
	touch(t, filepath.Join(dir, "go"))
	primaries, delivered := 0, 0
	received := map[string]bool{}
	for i, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Errorf("child %d: %v\n%s", i, err, outs[i].String())
			continue
		}
		t.Logf("child %d:\n%s", i, outs[i].String())
		sc := bufio.NewScanner(bytes.NewReader(outs[i].Bytes()))
		for sc.Scan() {
			switch line := sc.Text(); {
			case line == "primary":
				primaries++
				// The primary opens its own file itself.
				received[cmds[i].Env[len(cmds[i].Env)-2][len("INSTANCE_FILE="):]] = true
			case line == "delivered":
				delivered++
			case strings.HasPrefix(line, "got "):
				received[strings.TrimPrefix(line, "got ")] = true
			}
		}
	}
	if primaries != 1 || delivered != n-1 {
		t.Fatalf("%d primaries and %d deliveries; want 1 and %d", primaries, delivered, n-1)
	}
	if !reflect.DeepEqual(received, want) {
		t.Fatalf("files opened %v; want %v", received, want)
	}
}

func TestSocketOfKilledPrimaryIsReplaced(t *testing.T) {
	dir := privateDir(t)
	cmd := helper(t, "listen-forever", dir, "")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, _ := bufio.NewReader(out).ReadString('\n')
	if line != "ready\n" {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("child said %q", line)
	}
	r := newRecorder()
	e := &Endpoint{AppID: "t", Dir: dir, Logf: r.logf}
	if _, err := e.Listen(r.onOpen); !errors.Is(err, ErrRunning) {
		t.Fatalf("Listen while the child is primary: %v; want ErrRunning", err)
	}
	cmd.Process.Kill()
	cmd.Wait()
	sock, _ := e.SocketPath()
	if _, err := os.Lstat(sock); err != nil {
		t.Fatalf("the killed child's socket should still be there: %v", err)
	}
	f := touch(t, filepath.Join(t.TempDir(), "a.tsr"))
	if ok, err := e.Send([]string{f}); ok || err != nil {
		t.Fatalf("Send to the dead child = %v, %v; want false, nil", ok, err)
	}
	l, delivered, err := e.Start([]string{f}, r.onOpen)
	if l == nil || delivered || err != nil {
		t.Fatalf("Start after the child died = %v, %v, %v; want primary", l, delivered, err)
	}
	l.Close()
}

func FuzzDecodeRequest(f *testing.F) {
	dir := f.TempDir()
	good := filepath.Join(dir, "a.tsr")
	os.WriteFile(good, nil, 0o644)
	f.Add([]byte(requestMagic + good + "\x00"))
	f.Add([]byte(requestMagic + good + "\x00" + dir + "\x00"))
	f.Add([]byte(requestMagic + "/dev/null\x00"))
	f.Add([]byte(requestMagic + "\x00\x00"))
	f.Add([]byte("junk"))
	f.Fuzz(func(t *testing.T, msg []byte) {
		paths, err := decodeRequest(msg)
		if err != nil {
			return
		}
		if len(paths) == 0 {
			t.Fatal("accepted a request without paths")
		}
		for _, p := range paths {
			if err := checkPath(p); err != nil {
				t.Fatalf("accepted %q: %v", p, err)
			}
		}
	})
}
