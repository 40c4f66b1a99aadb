package formats

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"tensorscope/tensor"
)

// mappedDoc is a document over a mapped file with one mapped shard.
func mappedDoc(t *testing.T) (*Document, *Shard) {
	d, s, _ := mappedDocAt(t)
	return d, s
}

// mappedDocAt is mappedDoc that also returns the main file's path.
func mappedDocAt(t *testing.T) (*Document, *Shard, string) {
	t.Helper()
	dir := t.TempDir()
	for _, name := range []string{"main.bin", "shard.bin"} {
		if err := os.WriteFile(filepath.Join(dir, name), make([]byte, 1<<16), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	st, err := tensor.MapFile(filepath.Join(dir, "main.bin"))
	if err != nil {
		t.Fatal(err)
	}
	d := &Document{data: st.Bytes(), storage: st}
	s := d.AddShard(filepath.Join(dir, "shard.bin"))
	if _, err := s.Storage(); err != nil {
		t.Fatal(err)
	}
	return d, s, filepath.Join(dir, "main.bin")
}

// sink keeps reads of mapped bytes from being optimised away.
var sink byte

func unmapped(d *Document) bool {
	select {
	case <-d.Unmapped():
		return true
	default:
		return false
	}
}

// Close with users running cancels them, refuses new work, and unmaps the
// file and its shards only when the last user returns.
func TestCloseWaitsForLastUser(t *testing.T) {
	d, shard := mappedDoc(t)
	started := make(chan struct{})
	finish := make(chan struct{})
	var sawCancel error
	done := make(chan error, 1)
	if err := d.Go(context.Background(), func(ctx context.Context) error {
		close(started)
		<-ctx.Done()
		sawCancel = ctx.Err()
		<-finish
		sink = d.Bytes()[len(d.Bytes())-1] // still mapped
		return nil
	}, func(err error) { done <- err }); err != nil {
		t.Fatal(err)
	}
	<-started
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	if unmapped(d) || !shard.Mapped() {
		t.Fatal("unmapped while a user runs")
	}
	if err := d.Run(context.Background(), func(context.Context) error { return nil }); !errors.Is(err, ErrClosed) {
		t.Errorf("work after Close: %v, want ErrClosed", err)
	}
	close(finish)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	select {
	case <-d.Unmapped():
	case <-time.After(5 * time.Second):
		t.Fatal("not unmapped after the last user returned")
	}
	if !errors.Is(sawCancel, context.Canceled) {
		t.Errorf("the user's context: %v, want cancelled by Close", sawCancel)
	}
	if shard.Mapped() {
		t.Error("the shard is still mapped")
	}
	if d.Users() != 0 || d.Close() != nil {
		t.Error("a second Close must do nothing")
	}
}

// Run turns a fault on a truncated file into ErrFault; Close without
// users unmaps at once.
func TestRunCatchesFaultsAndIdleCloseUnmaps(t *testing.T) {
	d, _, path := mappedDocAt(t)
	if err := os.Truncate(path, 0); err != nil {
		t.Fatal(err)
	}
	err := d.Run(context.Background(), func(context.Context) error {
		sink = d.Bytes()[len(d.Bytes())-1]
		return nil
	})
	if !errors.Is(err, tensor.ErrFault) {
		t.Errorf("reading a truncated mapping: %v, want ErrFault", err)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	if !unmapped(d) {
		t.Fatal("an idle document was not unmapped by Close")
	}
}
