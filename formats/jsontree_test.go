package formats

import (
	"errors"
	"strings"
	"testing"
)

func TestJSONTreeKeepsKeyOrderAndTypes(t *testing.T) {
	m, err := JSONTree("meta", []byte(`{"z":1,"a":[2.5,"x",null,true],"m":{}}`), 100)
	if err != nil {
		t.Fatal(err)
	}
	if m.Name != "meta" || len(m.Children) != 3 || m.Children[0].Name != "z" || m.Children[1].Name != "a" {
		t.Fatalf("tree %+v", m)
	}
	if v, ok := m.Children[0].Value.(int64); !ok || v != 1 {
		t.Errorf("z = %#v, want int64 1", m.Children[0].Value)
	}
	list := m.Children[1]
	if !list.List || list.Children[0].Value != 2.5 || list.Children[1].Value != "x" || list.Children[3].Value != true {
		t.Errorf("a = %+v", list.Children)
	}
}

// Errors name the byte in the file: the text's base plus its place.
func TestJSONTreeErrorsSayWhere(t *testing.T) {
	for _, c := range []struct {
		text string
		at   int64
		want string
	}{
		{`{"a":`, 104, "ends in the middle"},
		{`{"a":1}x`, 107, "expected the end"},
		{strings.Repeat("[", 300) + strings.Repeat("]", 300), 100 + 257, "nested more than"},
	} {
		_, err := JSONTree("", []byte(c.text), 100)
		var fe *Error
		if !errors.As(err, &fe) || fe.Offset != c.at || !strings.Contains(fe.Msg, c.want) {
			t.Errorf("%.20q: %v; want at byte %d, %q", c.text, err, c.at, c.want)
		}
	}
}
