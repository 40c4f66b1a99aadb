package formats

import (
	"encoding/json"
	"math"
	"testing"
)

// The lazy-list encoder must write what encoding/json writes for the same
// values.
func TestLazyListJSONMatchesEncodingJSON(t *testing.T) {
	vals := []any{"plain", "quote\" back\\ nl\n tab\t ctl\x01", "héllo ✓", "bad\xffutf8", true, int8(-8),
		int16(-300), int32(-70000), int64(math.MinInt64), uint8(255), uint16(65535), uint32(1 << 31),
		uint64(math.MaxUint64), float32(0.1), float32(-1.5e-7), float64(1e300), 0.0, float32(3e21),
		float32(math.NaN()), math.Inf(-1), []any{int32(1), []any{"x", false}}}
	l := &LazyList{Len: len(vals), Elem: "value", At: func(i int) any { return vals[i] }}
	got, err := marshalLazyList(l)
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
