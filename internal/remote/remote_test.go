package remote_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tensorscope/internal/remote"
	"tensorscope/internal/remote/remotetest"
)

func init() {
	remote.DefaultOptions = remote.Options{Backoff: time.Millisecond, StallTimeout: 5 * time.Second}
}

func randomBytes(n int) []byte {
	b := make([]byte, n)
	rand.New(rand.NewSource(int64(n))).Read(b)
	return b
}

func serve(t *testing.T, name string, data []byte) *remotetest.Server {
	t.Helper()
	s := remotetest.New("")
	s.Files[name] = data
	t.Cleanup(s.Close)
	return s
}

func open(t *testing.T, url string) (*remote.Window, error) {
	t.Helper()
	tg, err := remote.Resolve(url)
	if err != nil {
		t.Fatal(err)
	}
	w, err := remote.OpenWindow(context.Background(), tg, nil)
	if err == nil {
		t.Cleanup(func() { w.Close() })
	}
	return w, err
}

func ensure(t *testing.T, w *remote.Window, off, n int64) error {
	t.Helper()
	unpin, err := w.Ensure(context.Background(), off, n, nil)
	if err == nil {
		unpin()
	}
	return err
}

func TestWindowReadsWhatItFetched(t *testing.T) {
	data, s, w := servedWindow(t, 3<<20+12345)
	if w.Size() != int64(len(data)) {
		t.Fatalf("size %d, want %d", w.Size(), len(data))
	}
	if !bytes.Equal(w.Bytes()[:remote.BlockSize], data[:remote.BlockSize]) {
		t.Fatal("first block differs")
	}
	if w.Present(remote.BlockSize, 1) {
		t.Fatal("the second block is present before any fetch")
	}
	s.ResetTraffic()
	off, n := int64(1<<20+100), int64(len(data)-(1<<20+100))
	if err := ensure(t, w, off, n); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(w.Bytes()[off:], data[off:]) {
		t.Fatal("fetched bytes differ")
	}
	_, sent := s.Traffic()
	// The range from its block's start, and the opening block, which the
	// server may count after the client has it (after ResetTraffic).
	if sent > n+2*remote.BlockSize {
		t.Fatalf("sent %d bytes for a range of %d", sent, n)
	}
}

func TestServerIgnoringRange(t *testing.T) {
	data := randomBytes(1 << 20)
	s := serve(t, "small.bin", data)
	s.Faults.IgnoreRange = true
	w, err := open(t, s.URLOf("small.bin"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(w.Bytes(), data) {
		t.Fatal("a small file read whole differs")
	}

	dir := t.TempDir()
	big := filepath.Join(dir, "big.bin")
	if err := os.WriteFile(big, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(big, remote.MaxWholeBody+1); err != nil {
		t.Fatal(err)
	}
	s2 := remotetest.New(dir)
	defer s2.Close()
	s2.Faults.IgnoreRange = true
	_, err = open(t, s2.URLOf("big.bin"))
	if !errors.Is(err, remote.ErrNoRange) || !strings.Contains(err.Error(), "64 MiB") {
		t.Fatalf("a large file without ranges: %v", err)
	}
}

func TestStatusErrors(t *testing.T) {
	s := serve(t, "f.bin", randomBytes(1000))
	if _, err := open(t, s.URLOf("missing.bin")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("404: %v", err)
	}
	s.Faults.Status = 401
	_, err := open(t, s.URLOf("f.bin"))
	if !errors.Is(err, remote.ErrAuth) || !strings.Contains(err.Error(), "HF_TOKEN") {
		t.Fatalf("401: %v", err)
	}
	s.Faults.Status = 403
	if _, err := open(t, s.URLOf("f.bin")); !errors.Is(err, remote.ErrAuth) {
		t.Fatalf("403: %v", err)
	}
	s.Faults.Status = 0
	s.Files["empty.bin"] = nil
	if w, err := open(t, s.URLOf("empty.bin")); err != nil || w.Size() != 0 {
		t.Fatalf("an empty file: %v", err)
	}
	s.Faults.Status = 416
	if _, err := open(t, s.URLOf("f.bin")); err == nil || !strings.Contains(err.Error(), "416") {
		t.Fatalf("416 on the first request: %v", err)
	}
	s.Faults.Status = 0
	// A file that became shorter after opening: 416 on a later range.
	s.Files["g.bin"] = randomBytes(1 << 20)
	w, err := open(t, s.URLOf("g.bin"))
	if err != nil {
		t.Fatal(err)
	}
	s.Faults.Status = 416
	if err := ensure(t, w, 1<<19, 1000); !errors.Is(err, remote.ErrChanged) {
		t.Fatalf("416 later: %v", err)
	}
}

func TestRetriesAfterServerErrors(t *testing.T) {
	data := randomBytes(1 << 20)
	s := serve(t, "f.bin", data)
	s.Faults.FailFirst = 3
	w, err := open(t, s.URLOf("f.bin"))
	if err != nil {
		t.Fatal(err)
	}
	s.Faults.FailFirst = 2
	if err := ensure(t, w, 0, int64(len(data))); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(w.Bytes(), data) {
		t.Fatal("bytes differ after retries")
	}
	s.Faults.FailFirst = 100
	if err := ensure(t, w, 0, 1); err != nil { // fetched already: no request
		t.Fatal(err)
	}
	w2, err := open(t, s.URLOf("f.bin"))
	if err == nil {
		w2.Close()
		t.Fatal("a server failing every time was accepted")
	}
	if !strings.Contains(err.Error(), "503") || !strings.Contains(err.Error(), "attempts") {
		t.Fatalf("persistent 503: %v", err)
	}
}

func TestDroppedConnectionsResume(t *testing.T) {
	data, s, w := servedWindow(t, 4<<20)
	s.Mu.Lock()
	s.Faults.DropAfter, s.Faults.DropCount = 300_000, 3
	s.Mu.Unlock()
	s.ResetTraffic()
	off := int64(remote.BlockSize)
	if err := ensure(t, w, off, int64(len(data))-off); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(w.Bytes(), data) {
		t.Fatal("bytes differ after dropped connections")
	}
	// Resumed, not restarted: about the range once, not again per drop.
	if _, sent := s.Traffic(); sent > int64(len(data))+64<<10 {
		t.Fatalf("sent %d bytes for %d: drops restarted the transfer", sent, len(data)-int(off))
	}
}

func TestChangedFileIsAnError(t *testing.T) {
	data := randomBytes(1 << 20)
	s := serve(t, "f.bin", data)
	s.Faults.ChangeAfter = 2
	w, err := open(t, s.URLOf("f.bin"))
	if err != nil {
		t.Fatal(err)
	}
	err = ensure(t, w, 1<<19, 1000)
	if !errors.Is(err, remote.ErrChanged) {
		t.Fatalf("a changed ETag: %v", err)
	}
	if w.Present(1<<19, 1) {
		t.Fatal("bytes of the changed file were kept")
	}
}

func TestStalledServerTimesOut(t *testing.T) {
	data := randomBytes(1 << 20)
	s := serve(t, "f.bin", data)
	tg, _ := remote.Resolve(s.URLOf("f.bin"))
	opts := remote.Options{Backoff: time.Millisecond, StallTimeout: 200 * time.Millisecond, Retries: 1}
	w, err := remote.OpenWindow(context.Background(), tg, &opts)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	s.Mu.Lock()
	s.Faults.Stall, s.Faults.StallAfter = true, 5000
	s.Mu.Unlock()
	var progress int64
	start := time.Now()
	_, err = w.Ensure(context.Background(), 1<<19, 1<<19, func(done, total int64) { progress = done })
	if !errors.Is(err, remote.ErrStalled) {
		t.Fatalf("a stalled server: %v", err)
	}
	if progress == 0 || !strings.Contains(err.Error(), "received") {
		t.Fatalf("no progress reported before the timeout (%d): %v", progress, err)
	}
	if time.Since(start) > 10*time.Second {
		t.Fatalf("the timeout took %v", time.Since(start))
	}
}

func TestTokenStaysWithItsHost(t *testing.T) {
	data := randomBytes(200_000)
	cdn := serve(t, "org/repo/resolve/main/model.bin", data)
	hub := serve(t, "unused", nil)
	hub.Faults.RedirectTo = cdn.URL
	hub.Faults.NeedToken = "sekrit"
	t.Setenv("HF_ENDPOINT", hub.URL)
	t.Setenv("HF_TOKEN", "sekrit")
	w, err := open(t, "hf://org/repo/model.bin")
	if err != nil {
		t.Fatal(err)
	}
	if err := ensure(t, w, 0, int64(len(data))); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(w.Bytes(), data) {
		t.Fatal("bytes differ through the redirect")
	}
	for _, a := range hub.Auth {
		if a != "Bearer sekrit" {
			t.Fatalf("the hub got Authorization %q", a)
		}
	}
	for _, a := range cdn.Auth {
		if a != "" {
			t.Fatalf("the token followed the redirect to another host: %q", a)
		}
	}
	// Never to another host given directly either, and never in errors.
	hub.Faults.NeedToken = "other"
	_, err = open(t, "hf://org/repo/model.bin")
	if !errors.Is(err, remote.ErrAuth) || strings.Contains(err.Error(), "sekrit") || !strings.Contains(err.Error(), "refused") {
		t.Fatalf("a refused token: %v", err)
	}
	cdn.Auth = nil
	if _, err := open(t, cdn.URLOf("org/repo/resolve/main/model.bin")); err != nil {
		t.Fatal(err)
	}
	if cdn.Auth[0] != "" {
		t.Fatal("the token went to a host that is not the hub")
	}
}

func TestResolve(t *testing.T) {
	t.Setenv("HF_ENDPOINT", "https://mirror.example/")
	t.Setenv("HF_TOKEN", "")
	t.Setenv("HF_HOME", t.TempDir())
	for in, want := range map[string]string{
		"hf://org/repo/model.safetensors":         "https://mirror.example/org/repo/resolve/main/model.safetensors",
		"hf://org/repo@v1.0/sub/dir/x.gguf":       "https://mirror.example/org/repo/resolve/v1.0/sub/dir/x.gguf",
		"hf://org/repo@abc123/a b.npy":            "https://mirror.example/org/repo/resolve/abc123/a%20b.npy",
		"https://host.example/path/m.safetensors": "https://host.example/path/m.safetensors",
	} {
		tg, err := remote.Resolve(in)
		if err != nil || tg.URL != want {
			t.Errorf("%s → %v, %v; want %s", in, tg, err, want)
		}
	}
	for _, bad := range []string{"hf://org/repo", "hf://org/../x/y", "hf://org/repo@/x", "https://user:pw@host/x"} {
		if tg, err := remote.Resolve(bad); err == nil {
			t.Errorf("%s accepted as %s", bad, tg.URL)
		}
	}
	os.WriteFile(filepath.Join(os.Getenv("HF_HOME"), "token"), []byte("filetoken\n"), 0o600)
	tg, _ := remote.Resolve("hf://org/repo/m.bin")
	if !tg.HasToken() {
		t.Error("the token file was not read")
	}
	tg, _ = remote.Resolve("https://elsewhere.example/m.bin")
	if tg.HasToken() {
		t.Error("a token for a host that is not the hub")
	}
}

func TestResolveRelative(t *testing.T) {
	base := "https://h.example/org/repo/resolve/main/model.safetensors.index.json?x=1"
	for ref, want := range map[string]string{
		"model-00001-of-00002.safetensors": "https://h.example/org/repo/resolve/main/model-00001-of-00002.safetensors",
		"sub/w.bin":                        "https://h.example/org/repo/resolve/main/sub/w.bin",
		"./a b.bin":                        "https://h.example/org/repo/resolve/main/a%20b.bin",
	} {
		got, err := remote.ResolveRelative(base, ref)
		if err != nil || got != want {
			t.Errorf("%s → %s, %v; want %s", ref, got, err, want)
		}
	}
	if got, _ := remote.ResolveRelative("hf://o/r@v/dir/idx.json", "s1.safetensors"); got != "hf://o/r@v/dir/s1.safetensors" {
		t.Errorf("hf: %s", got)
	}
	for _, bad := range []string{"../x", "a/../../x", "/etc/passwd", "https://evil.example/x", "%2e%2e/x", "", "a?b", `..\x`, "c:x"} {
		if got, err := remote.ResolveRelative(base, bad); err == nil {
			t.Errorf("%q accepted as %s", bad, got)
		}
	}
}

func TestCacheEvictsLeastRecentlyUsedButNotPinned(t *testing.T) {
	data := randomBytes(2 << 20)
	s := serve(t, "f.bin", data)
	old := remote.CacheLimit()
	defer remote.SetCacheLimit(old)
	w, err := open(t, s.URLOf("f.bin"))
	if err != nil {
		t.Fatal(err)
	}
	remote.SetCacheLimit(remote.CachedBytes() + 512<<10)
	ctx := context.Background()
	unpinA, err := w.Ensure(ctx, 1<<20, 256<<10, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := ensure(t, w, 1<<19, 256<<10); err != nil {
		t.Fatal(err)
	}
	// A third range must evict the unpinned second one, not the pinned first.
	if err := ensure(t, w, 1536<<10, 256<<10); err != nil {
		t.Fatal(err)
	}
	if !w.Present(1<<20, 256<<10) {
		t.Fatal("a pinned range was evicted")
	}
	if w.Present(1<<19, 256<<10) {
		t.Fatal("the least recently used range was kept over the budget")
	}
	if !bytes.Equal(w.Bytes()[1<<20:1<<20+256<<10], data[1<<20:1<<20+256<<10]) {
		t.Fatal("pinned bytes differ")
	}
	// More than fits beside the pinned range: refused, with the setting named.
	_, err = w.Ensure(ctx, 0, 1<<20, nil)
	if !errors.Is(err, remote.ErrCacheFull) || !strings.Contains(err.Error(), remote.CacheEnv) {
		t.Fatalf("over the budget: %v", err)
	}
	unpinA()
	if err := ensure(t, w, 0, 512<<10); err != nil {
		t.Fatalf("after unpinning: %v", err)
	}
}

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{"1073741824": 1 << 30, "512M": 512 << 20, "2G": 2 << 30, "64k": 64 << 10, "1GiB": 1 << 30} {
		if got, err := remote.ParseSize(in); err != nil || got != want {
			t.Errorf("%s → %d, %v", in, got, err)
		}
	}
	if _, err := remote.ParseSize("lots"); err == nil {
		t.Error("lots accepted")
	}
}

// Cancelling a fetch stops it: nothing of the range is kept, and the
// error is the context's.
func TestEnsureCancels(t *testing.T) {
	_, s, w := servedWindow(t, 4<<20)
	s.Faults.Latency = 300 * time.Millisecond
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	start := time.Now()
	_, err := w.Ensure(ctx, 1<<20, 2<<20, nil)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled fetch: %v", err)
	}
	if time.Since(start) > 5*time.Second {
		t.Fatalf("the cancel took %v", time.Since(start))
	}
	if w.Present(1<<20, 1) {
		t.Fatal("bytes of a cancelled fetch were kept")
	}
}

func TestTargetNeverPrintsTheToken(t *testing.T) {
	t.Setenv("HF_ENDPOINT", "https://hub.example")
	t.Setenv("HF_TOKEN", "hf_sekrit")
	tg, err := remote.Resolve("hf://o/r/m.gguf")
	if err != nil || !tg.HasToken() {
		t.Fatal(err)
	}
	for _, s := range []string{fmt.Sprint(tg), fmt.Sprintf("%v %+v %#v %s", tg, tg, tg, tg), fmt.Sprintf("%v %+v %#v", *tg, *tg, *tg)} {
		if strings.Contains(s, "sekrit") {
			t.Fatalf("the token printed: %s", s)
		}
	}
}

// Readers of one file fetch at once: two ranges asked for together are
// two requests in flight together (the statistics' workers, a view).
func TestEnsuresOfOneFileRunInParallel(t *testing.T) {
	data, s, w := servedWindow(t, 4<<20)
	s.Faults.Latency = 200 * time.Millisecond
	s.ResetTraffic()
	errs := make(chan error, 2)
	for _, off := range []int64{1 << 20, 3 << 20} {
		go func() { errs <- ensure(t, w, off, 512<<10) }()
	}
	for range 2 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	if p := s.Peak(); p < 2 {
		t.Fatalf("at most %d request in flight for two ranges asked for at once", p)
	}
	if !bytes.Equal(w.Bytes()[3<<20:3<<20+512<<10], data[3<<20:3<<20+512<<10]) {
		t.Fatal("fetched bytes differ")
	}
}

// A range two readers ask for at once is fetched once: the second waits
// for the first's pieces; both see the right bytes, and the progress of
// each reaches its total.
func TestSameRangeIsFetchedOnce(t *testing.T) {
	data, s, w := servedWindow(t, 6<<20)
	s.Faults.Latency = 100 * time.Millisecond
	s.ResetTraffic()
	off, n := int64(1<<20), int64(4<<20)
	type result struct {
		err         error
		done, total int64
	}
	res := make(chan result, 3)
	for range 3 {
		go func() {
			var r result
			var unpin func()
			unpin, r.err = w.Ensure(context.Background(), off, n, func(done, total int64) { r.done, r.total = done, total })
			if r.err == nil {
				unpin()
			}
			res <- r
		}()
	}
	for range 3 {
		r := <-res
		if r.err != nil {
			t.Fatal(r.err)
		}
		if r.total > 0 && r.done != r.total {
			t.Errorf("progress ended at %d of %d", r.done, r.total)
		}
	}
	if _, sent := s.Traffic(); sent > n+remote.BlockSize {
		t.Fatalf("three readers of a %d-byte range made the server send %d bytes", n, sent)
	}
	if !bytes.Equal(w.Bytes()[off:off+n], data[off:off+n]) {
		t.Fatal("fetched bytes differ")
	}
}

// A reader waiting for another's fetch can give up (Cancel) without
// disturbing it.
func TestCancelWhileWaitingForAnotherFetch(t *testing.T) {
	data, s, w := servedWindow(t, 4<<20)
	s.Faults.Latency = 500 * time.Millisecond
	first := make(chan error, 1)
	go func() { first <- ensure(t, w, 1<<20, 1<<20) }()
	time.Sleep(100 * time.Millisecond) // the first is in flight
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	if _, err := w.Ensure(ctx, 1<<20, 1<<20, nil); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("the waiting reader: %v", err)
	}
	if d := time.Since(start); d > 400*time.Millisecond {
		t.Fatalf("the waiting reader gave up after %v", d)
	}
	if err := <-first; err != nil {
		t.Fatalf("the first reader: %v", err)
	}
	if !bytes.Equal(w.Bytes()[1<<20:2<<20], data[1<<20:2<<20]) {
		t.Fatal("fetched bytes differ")
	}
}

// Prefetch fetches what lies ahead of a reader in the background, in
// batches: nothing while less than half of the range is missing, and
// never what is already fetched.
func TestPrefetchFetchesAheadInBatches(t *testing.T) {
	data, s, w := servedWindow(t, 8<<20)
	if err := ensure(t, w, 1<<20, 3<<20); err != nil {
		t.Fatal(err)
	}
	s.Settle()
	s.ResetTraffic()
	w.Prefetch(context.Background(), 1<<20, 4<<20) // 1 of 4 MiB missing: not yet
	time.Sleep(50 * time.Millisecond)
	if reqs, _ := s.Traffic(); reqs != 0 || w.Present(4<<20, 1) {
		t.Fatalf("a prefetch with a quarter of its range missing made %d requests", reqs)
	}
	w.Prefetch(context.Background(), 3<<20, 4<<20) // 3 of 4 MiB missing
	for deadline := time.Now().Add(5 * time.Second); !w.Present(3<<20, 4<<20); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the prefetched range never arrived")
		}
	}
	s.Settle()
	if _, sent := s.Traffic(); sent != 3<<20 {
		t.Fatalf("prefetching 3 missing MiB transferred %d bytes", sent)
	}
	if !bytes.Equal(w.Bytes()[4<<20:7<<20], data[4<<20:7<<20]) {
		t.Fatal("prefetched bytes differ")
	}
	if remote.InUse() != 0 {
		t.Fatalf("%d bytes pinned after a prefetch", remote.InUse())
	}
}

// A reader short of room while a prefetch is in flight waits for it to
// land (prefetched bytes can then be dropped) instead of failing.
func TestEnsureWaitsForRoomHeldByAFetchInFlight(t *testing.T) {
	data := randomBytes(8 << 20)
	s := serve(t, "f.bin", data)
	old := remote.CacheLimit()
	defer remote.SetCacheLimit(old)
	w, err := open(t, s.URLOf("f.bin"))
	if err != nil {
		t.Fatal(err)
	}
	remote.SetCacheLimit(remote.CachedBytes() + 2<<20)
	s.Faults.Latency = 300 * time.Millisecond
	w.Prefetch(context.Background(), 1<<20, 2<<20) // reserves the whole budget
	time.Sleep(50 * time.Millisecond)
	if err := ensure(t, w, 5<<20, 1<<20); err != nil {
		t.Fatalf("a range needing room held by a prefetch in flight: %v", err)
	}
	if !bytes.Equal(w.Bytes()[5<<20:6<<20], data[5<<20:6<<20]) {
		t.Fatal("fetched bytes differ")
	}
}

// servedWindow serves n random bytes as f.bin and opens a window on them.
func servedWindow(t *testing.T, n int) ([]byte, *remotetest.Server, *remote.Window) {
	t.Helper()
	data := randomBytes(n)
	s := serve(t, "f.bin", data)
	w, err := open(t, s.URLOf("f.bin"))
	if err != nil {
		t.Fatal(err)
	}
	return data, s, w
}
