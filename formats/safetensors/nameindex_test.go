package safetensors

import (
	"fmt"
	"testing"
)

// nameIndex agrees with a map, growing from a small size, on names that
// repeat.
func TestNameIndex(t *testing.T) {
	var names []string
	x := newNameIndex(1)
	want := map[string]int{}
	nameAt := func(i int) string { return names[i] }
	for i := range 5000 {
		name := fmt.Sprintf("model.layers.%d.weight", i%3700)
		pos, dup := x.add(name, len(names), nameAt)
		if w, ok := want[name]; ok != dup || (ok && pos != w) {
			t.Fatalf("%q: position %d, dup %v; want %d, %v", name, pos, dup, w, ok)
		}
		if !dup {
			want[name] = len(names)
			names = append(names, name)
		}
	}
	if len(names) != 3700 || x.n != 3700 {
		t.Fatalf("%d names, index holds %d", len(names), x.n)
	}
	for name, w := range want {
		if pos, ok := x.find(name, nameAt); !ok || pos != w {
			t.Errorf("find %q: %d, %v", name, pos, ok)
		}
	}
	for _, name := range []string{"", "model.layers.3700.weight", "x"} {
		if _, ok := x.find(name, nameAt); ok {
			t.Errorf("found %q", name)
		}
	}
	var empty nameIndex
	if _, ok := empty.find("a", nameAt); ok {
		t.Error("the zero index found a name")
	}
}
