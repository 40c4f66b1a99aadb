package textfmt

import (
	"math"
	"strings"
	"testing"

	"tensorscope/formats"
)

func TestFormatting(t *testing.T) {
	cases := map[string]string{
		Bytes(512):             "512 B",
		Bytes(1536):            "1.50 KiB",
		Bytes(300 << 20):       "300.0 MiB",
		Count(101770):          "101,770",
		Count(-1234567):        "-1,234,567",
		Dims(nil):              "[]",
		Dims([]int{2, 3}):      "[2, 3]",
		Float(math.Inf(-1), 4): "−Inf",
		Value(formats.Enum{Value: 1, Name: "MAX"}): "MAX (1)",
		Value([]int64{1, 2}):                       "[1, 2]",
		Value(formats.Bytes{0xde, 0xad}):           "de ad",
		Value("x"):                                 `"x"`,
	}
	for got, want := range cases {
		if got != want {
			t.Errorf("got %q want %q", got, want)
		}
	}
	long := make([]int64, 40)
	if s := Value(long); !strings.HasSuffix(s, "… 8 more]") {
		t.Errorf("long list %q", s)
	}
}
