package viewmodel

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"tensorscope/formats/npy"
)

// npyBytes is a float32 vector of n elements as a .npy file.
func npyBytes(t *testing.T, n int) []byte {
	t.Helper()
	h, err := npy.Header("<f4", []int{n})
	if err != nil {
		t.Fatal(err)
	}
	return append(h, make([]byte, 4*n)...)
}

// A folder followed while a writer adds checkpoints: the newest complete
// one is reported first, a checkpoint still being written is not, and it
// is once it is whole.
func TestFollowFolderReportsEachCompleteCheckpoint(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "ckpt-1000.npy"), npyBytes(t, 10), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("not a model"), 0o644); err != nil {
		t.Fatal(err)
	}
	q := NewQueue()
	var got []string
	f, err := FollowFolder(dir, q.Post, func(p string) { got = append(got, filepath.Base(p)) })
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	wait := func(n int) {
		t.Helper()
		if !q.Drain(func() bool { return len(got) < n }, 10*time.Second) || len(got) < n {
			t.Fatalf("reported %v, want %d files", got, n)
		}
	}
	wait(1)

	// ckpt-2000 is being written: half its data is there.
	full := npyBytes(t, 1000)
	second := filepath.Join(dir, "ckpt-2000.npy")
	if err := os.WriteFile(second, full[:len(full)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	time.Sleep(3 * followSettle)
	q.Drain(func() bool { return false }, time.Millisecond)
	if len(got) != 1 {
		t.Fatalf("a half-written checkpoint was reported: %v", got)
	}
	if err := os.WriteFile(second, full, 0o644); err != nil {
		t.Fatal(err)
	}
	wait(2)

	third := filepath.Join(dir, "ckpt-3000.npy")
	if err := os.WriteFile(third+".tmp", full, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(third+".tmp", third); err != nil {
		t.Fatal(err)
	}
	wait(3)
	if want := []string{"ckpt-1000.npy", "ckpt-2000.npy", "ckpt-3000.npy"}; len(got) != 3 || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Errorf("reported %v, want %v", got, want)
	}
}

func TestFollowFolderRefusesAFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.npy")
	if err := os.WriteFile(path, npyBytes(t, 1), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := FollowFolder(path, NewQueue().Post, func(string) {}); err == nil {
		t.Error("following a file, not a folder, was accepted")
	}
}
