package formats

import (
	"encoding/json"
	"math/rand/v2"
	"testing"
)

// appendJSONString quotes every string exactly as json.Marshal does, so
// metadata written by appending is the bytes encoding/json would write.
func TestAppendJSONStringMatchesEncodingJSON(t *testing.T) {
	cases := []string{"", "plain", "<s>", "</s> & \"q\" \\ ", "\b\f\n\r\t\x00\x1f\x7f", "\u2028\u2029", "é漢字🙂", "bad\xff\xfeutf8", "\xed\xa0\x80"}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		b := make([]byte, rng.IntN(12))
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		cases = append(cases, string(b))
	}
	for _, s := range cases {
		want, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := appendJSONString(nil, s); string(got) != string(want) {
			t.Errorf("%q: got %s, want %s", s, got, want)
		}
	}
}
