package viewmodel

import (
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"tensorscope/formats/npy"
)

// writeNPY writes a float32 vector as a .npy file.
func writeNPY(t *testing.T, path string, values []float32) {
	t.Helper()
	h, err := npy.Header("<f4", []int{len(values)})
	if err != nil {
		t.Fatal(err)
	}
	b := append([]byte(nil), h...)
	for _, v := range values {
		u := math.Float32bits(v)
		b = append(b, byte(u), byte(u>>8), byte(u>>16), byte(u>>24))
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// The followed tensor's std and absmax are kept per checkpoint, as the tab
// moves from one checkpoint to the next.
func TestFollowHistoryAcrossCheckpoints(t *testing.T) {
	dir := t.TempDir()
	first, second := filepath.Join(dir, "ckpt-1.npy"), filepath.Join(dir, "ckpt-2.npy")
	writeNPY(t, first, []float32{1, -1, 1, -1})
	writeNPY(t, second, []float32{3, -3, 3, -5})
	q := NewQueue()
	ws := NewWorkspace(q.Post, MemPrefs{})
	d := openWait(t, q, ws, first)
	drain(t, q, d.Inspector)
	var h FollowHistory
	measured := 0
	h.Measure(q.Post, d, func(err error) {
		if err != nil {
			t.Error(err)
		}
		measured++
	})
	q.Drain(func() bool { return measured < 1 }, 10*time.Second)
	moved := false
	ws.ReloadFrom(d, Source{Path: second}, func(err error) {
		if err != nil {
			t.Error(err)
		}
		moved = true
	})
	q.Drain(func() bool { return !moved }, 10*time.Second)
	drain(t, q, d.Inspector)
	if d.Title() != "ckpt-2.npy" {
		t.Errorf("the tab shows %s after moving", d.Title())
	}
	h.Measure(q.Post, d, func(error) { measured++ })
	q.Drain(func() bool { return measured < 2 }, 10*time.Second)

	names, std, err := h.Series("#0", "std")
	if err != nil || len(std) != 2 || names[0] != "ckpt-1.npy" || names[1] != "ckpt-2.npy" || std[0] != 1 {
		t.Fatalf("std series %v %v %v", names, std, err)
	}
	if _, absmax, _ := h.Series("#0", "absmax"); absmax[0] != 1 || absmax[1] != 5 {
		t.Errorf("absmax series %v", absmax)
	}
	if _, _, err := h.Series("#0", "median"); err == nil {
		t.Error("an unknown figure was accepted")
	}
	img, err := h.Plot("#0", "std", 300, 150, PlotStyle{})
	if err != nil || img.Bounds().Dx() != 300 {
		t.Errorf("plot: %v", err)
	}
}
