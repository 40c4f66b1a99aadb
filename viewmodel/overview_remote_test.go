package viewmodel

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tensorscope/formats"
	"tensorscope/internal/remote/remotetest"
)

// The Overview of a large remote document does not start by itself: it
// would read every tensor from the server. It says so, reads nothing, and
// runs when started.
func TestRemoteOverviewWaitsToBeStarted(t *testing.T) {
	dir := t.TempDir()
	const n = 4 << 20 // float32 elements a tensor: 16 MiB
	writeSafetensors(t, filepath.Join(dir, "m.safetensors"), []string{"a", "b"}, [][]int{{n}, {n}})
	s := remotetest.New(dir)
	defer s.Close()
	fd, err := formats.Open(s.URLOf("m.safetensors"))
	if err != nil {
		t.Fatal(err)
	}
	q := NewQueue()
	d := newDoc(q.Post, fd, Source{Path: s.URLOf("m.safetensors")})
	t.Cleanup(d.close)
	s.ResetTraffic()
	o := d.Overview()
	if o.Running || !strings.Contains(o.Deferred, "32.0 MiB") || !strings.Contains(o.Deferred, "server") {
		t.Fatalf("running %v, deferred %q", o.Running, o.Deferred)
	}
	time.Sleep(50 * time.Millisecond)
	if _, sent := s.Traffic(); sent != 0 {
		t.Fatalf("the Overview read %d bytes before it was started", sent)
	}
	o.Start()
	if !q.Drain(func() bool { return o.Running }, time.Minute) {
		t.Fatal("the summary did not finish")
	}
	if o.Err != nil || o.Done() != 2 || o.Deferred != "" {
		t.Fatalf("err %v, %d done, deferred %q", o.Err, o.Done(), o.Deferred)
	}
}
