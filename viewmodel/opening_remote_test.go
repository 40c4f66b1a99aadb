package viewmodel

import (
	"encoding/binary"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"tensorscope/formats"
	"tensorscope/internal/remote/remotetest"
)

// writeSafetensors writes a safetensors file of zeros with the tensors
// named in order, each of the given float32 shape.
func writeSafetensors(t *testing.T, path string, names []string, shapes [][]int) {
	t.Helper()
	hdr := map[string]any{}
	off := 0
	for i, name := range names {
		n := 4
		for _, d := range shapes[i] {
			n *= d
		}
		hdr[name] = map[string]any{"dtype": "F32", "shape": shapes[i], "data_offsets": []int{off, off + n}}
		off += n
	}
	h, _ := json.Marshal(hdr)
	file := binary.LittleEndian.AppendUint64(nil, uint64(len(h)))
	if err := os.WriteFile(path, append(append(file, h...), make([]byte, off)...), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A remote file opens on a tensor only when showing it reads little from
// the server: the Tensors tab of a Hub checkpoint inspected its largest
// weight at once, which began downloading it.
func TestRemoteOpensOnNothingLarge(t *testing.T) {
	dir := t.TempDir()
	writeSafetensors(t, filepath.Join(dir, "two.safetensors"), []string{"big.weight", "norm.weight"}, [][]int{{2048, 2048}, {64}})
	writeSafetensors(t, filepath.Join(dir, "one.safetensors"), []string{"big.weight"}, [][]int{{2048, 2048}})
	s := remotetest.New(dir)
	defer s.Close()
	open := func(name string) *Doc {
		fd, err := formats.Open(s.URLOf(name))
		if err != nil {
			t.Fatal(err)
		}
		d := newDoc(NewQueue().Post, fd, Source{Path: s.URLOf(name)})
		t.Cleanup(d.close)
		return d
	}

	s.ResetTraffic()
	one := open("one.safetensors")
	if i := one.Inspector.Index(); i >= 0 {
		t.Errorf("a remote file of one 16 MiB tensor inspects tensor %d at once", i)
	}
	two := open("two.safetensors")
	two.ShowOpening()
	if i := two.Inspector.Index(); i < 0 || two.Doc.Tensors[i].Name != "norm.weight" {
		t.Errorf("the remote file opens on tensor %d, want norm.weight (the large one reads 16 MiB)", i)
	}
	time.Sleep(50 * time.Millisecond)
	if _, sent := s.Traffic(); sent >= 16<<20 {
		t.Errorf("opening the two remote files read %d bytes", sent)
	}

	// A local file still opens on its largest weight.
	fd, err := formats.Open(filepath.Join(dir, "two.safetensors"))
	if err != nil {
		t.Fatal(err)
	}
	local := newDoc(NewQueue().Post, fd, Source{Path: fd.Path})
	t.Cleanup(local.close)
	local.ShowOpening()
	if i := local.Inspector.Index(); i < 0 || local.Doc.Tensors[i].Name != "big.weight" {
		t.Errorf("the local file opens on tensor %d, want big.weight", i)
	}
}
