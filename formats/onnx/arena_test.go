package onnx

import (
	"strings"
	"testing"
)

// TestArenasKeepEverySliceApart: slices and strings handed out across
// chunk boundaries, of sizes up to and past the chunk limit, keep their
// contents, and appending to a slice never writes into its neighbour.
func TestArenasKeepEverySliceApart(t *testing.T) {
	var a arena[int]
	var got [][]int
	for n := 0; n < 3000; n += 7 {
		s := a.take(n)
		if len(s) != 0 || cap(s) != n {
			t.Fatalf("take(%d): len %d cap %d", n, len(s), cap(s))
		}
		for i := 0; i < n; i++ {
			s = append(s, n)
		}
		got = append(got, s)
	}
	_ = append(got[1], -1) // copies: capacity is the length
	for _, s := range got {
		for _, v := range s {
			if v != len(s) {
				t.Fatalf("a slice of %d holds %d", len(s), v)
			}
		}
	}
	var text textArena
	var strs []string
	for n := 0; n < 9000; n += 13 {
		strs = append(strs, text.str([]byte(strings.Repeat(string(rune('a'+n%26)), n))))
	}
	for i, s := range strs {
		n := 13 * i
		if s != strings.Repeat(string(rune('a'+n%26)), n) {
			t.Fatalf("string %d of %d bytes changed", i, n)
		}
	}
}
