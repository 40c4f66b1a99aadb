package formats

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"testing"
	"testing/iotest"
)

// The lazy-list encoder must write what encoding/json writes for the same
// values.
func TestLazyListJSONMatchesEncodingJSON(t *testing.T) {
	vals := []any{"plain", "quote\" back\\ nl\n tab\t ctl\x01", "héllo ✓", "bad\xffutf8", true, int8(-8),
		int16(-300), int32(-70000), int64(math.MinInt64), uint8(255), uint16(65535), uint32(1 << 31),
		uint64(math.MaxUint64), float32(0.1), float32(-1.5e-7), float64(1e300), 0.0, float32(3e21),
		float32(math.NaN()), math.Inf(-1), []any{int32(1), []any{"x", false}}}
	l := &LazyList{Len: len(vals), Elem: "value", At: func(i int) any { return vals[i] }}
	got, err := NewLazyList("l", l).MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	var plain []any
	for _, v := range vals {
		plain = append(plain, jsonLazyValue(v))
	}
	want, err := json.Marshal(plain)
	if err != nil {
		t.Fatal(err)
	}
	// encoding/json escapes <, > and & too; none occur above.
	if string(got) != string(want) {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func jsonLazyValue(v any) any {
	if xs, ok := v.([]any); ok {
		out := make([]any, len(xs))
		for i, x := range xs {
			out[i] = jsonLazyValue(x)
		}
		return out
	}
	return jsonValue(v)
}

// A list of strings read through Raw writes what json.Marshal writes for
// the strings.
func TestLazyListRawStringsMatchEncodingJSON(t *testing.T) {
	strs := []string{"", "Ġtok", "quote\" <tag> & \u2028", "bad\xffutf8", "\x00\x1f"}
	l := &LazyList{Len: len(strs), Elem: "string", Raw: func(i int) []byte { return []byte(strs[i]) }}
	got, err := NewLazyList("l", l).MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(strs)
	if string(got) != string(want) {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// WriteJSON hands its output over in pieces; the pieces make exactly what
// MarshalJSON returns, and a failing writer's error comes back.
func TestWriteJSONInPiecesMatchesMarshalJSON(t *testing.T) {
	tokens := make([]string, 200000)
	for i := range tokens {
		tokens[i] = fmt.Sprintf("Ġtok%d", i)
	}
	doc := &Document{Path: "x", Format: "test", Metadata: NewObject("")}
	doc.Metadata.Add(NewLazyList("tokens", &LazyList{Len: len(tokens), Elem: "string", At: func(i int) any { return tokens[i] }}))
	doc.Metadata.Add(Leaf("after", int64(7)))
	want, err := doc.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	var pieces int
	var buf bytes.Buffer
	w := writerFunc(func(p []byte) (int, error) { pieces++; return buf.Write(p) })
	if err := doc.WriteJSON(w); err != nil {
		t.Fatal(err)
	}
	if buf.String() != string(want) {
		t.Fatalf("WriteJSON differs from MarshalJSON (%d vs %d bytes)", buf.Len(), len(want))
	}
	if pieces < len(want)/(4*jsonFlushAt) {
		t.Errorf("%d bytes in %d pieces: the output was gathered whole", len(want), pieces)
	}
	if !json.Valid(want) {
		t.Error("not valid JSON")
	}
	failing := writerFunc(func([]byte) (int, error) { return 0, iotest.ErrTimeout })
	if err := doc.WriteJSON(failing); err != iotest.ErrTimeout {
		t.Errorf("a failing writer gave %v", err)
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }
