// Package textfmt is the one place shapes, byte sizes, counts and values are
// spelt for people: the GUI's panes, the inspector and the command line's
// info, stats and export notes all use it, so they say the same thing. It
// imports only formats and tensor, so the light command line can use it
// without the viewer's packages.
package textfmt

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"tensorscope/formats"
	"tensorscope/tensor"
)

// TypedShape spells a dtype and shape compactly, as the inspector's
// summary line and the tensor core's messages do: "float32[128,784]".
func TypedShape(dt tensor.DType, shape []int) string { return tensor.FormatShape(dt, shape) }

// Dims spells a shape as "[128, 784]" ("[]" for a scalar).
func Dims(shape []int) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, d := range shape {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Itoa(d))
	}
	b.WriteByte(']')
	return b.String()
}

// Bytes spells a byte count for people: "512 B", "1.5 KiB", "3.2 GiB".
func Bytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	v := float64(n)
	for _, u := range []string{"KiB", "MiB", "GiB", "TiB"} {
		v /= unit
		if v < unit || u == "TiB" {
			if v < 10 {
				return fmt.Sprintf("%.2f %s", v, u)
			}
			return fmt.Sprintf("%.1f %s", v, u)
		}
	}
	return fmt.Sprintf("%d B", n)
}

// Count groups digits: 101770 → "101,770".
func Count(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// Float prints a float compactly with up to sig significant digits,
// spelling non-finite values as NaN, +Inf, −Inf.
func Float(v float64, sig int) string {
	switch {
	case math.IsNaN(v):
		return "NaN"
	case math.IsInf(v, 1):
		return "+Inf"
	case math.IsInf(v, -1):
		return "−Inf"
	}
	return strconv.FormatFloat(v, 'g', sig, 64)
}

// MaxListItems bounds how many elements of a list value are spelt out.
const MaxListItems = 32

// Value spells an attribute or metadata value for display.
func Value(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		return strconv.Quote(x)
	case bool:
		return strconv.FormatBool(x)
	case int:
		return strconv.Itoa(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case uint64:
		return strconv.FormatUint(x, 10)
	case int32:
		return strconv.FormatInt(int64(x), 10)
	case uint32:
		return strconv.FormatUint(uint64(x), 10)
	case uint16:
		return strconv.FormatUint(uint64(x), 10)
	case uint8:
		return strconv.FormatUint(uint64(x), 10)
	case float64:
		return Float(x, -1)
	case float32:
		return Float(float64(x), 8)
	case formats.Enum:
		if x.Name == "" {
			return strconv.FormatInt(x.Value, 10)
		}
		return fmt.Sprintf("%s (%d)", x.Name, x.Value)
	case formats.Bytes:
		return formatHex(x)
	case []byte:
		return formatHex(x)
	case []int64:
		return formatList(len(x), func(i int) string { return strconv.FormatInt(x[i], 10) })
	case []int:
		return formatList(len(x), func(i int) string { return strconv.Itoa(x[i]) })
	case []float64:
		return formatList(len(x), func(i int) string { return Float(x[i], -1) })
	case []float32:
		return formatList(len(x), func(i int) string { return Float(float64(x[i]), 8) })
	case []string:
		return formatList(len(x), func(i int) string { return strconv.Quote(x[i]) })
	case []bool:
		return formatList(len(x), func(i int) string { return strconv.FormatBool(x[i]) })
	}
	return fmt.Sprint(v)
}

func formatList(n int, item func(int) string) string {
	var b strings.Builder
	b.WriteByte('[')
	for i := 0; i < n && i < MaxListItems; i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(item(i))
	}
	if n > MaxListItems {
		fmt.Fprintf(&b, ", … %d more", n-MaxListItems)
	}
	b.WriteByte(']')
	return b.String()
}

func formatHex(b []byte) string {
	const max = 48
	var s strings.Builder
	for i, c := range b {
		if i == max {
			fmt.Fprintf(&s, " … (%d bytes)", len(b))
			break
		}
		if i > 0 {
			s.WriteByte(' ')
		}
		fmt.Fprintf(&s, "%02x", c)
	}
	return s.String()
}

// CountNoun is "1 tensor", "2 tensors", "1,024 tensors".
func CountNoun(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	if strings.HasSuffix(noun, "x") || strings.HasSuffix(noun, "s") || strings.HasSuffix(noun, "ch") {
		return Count(int64(n)) + " " + noun + "es" // boxes
	}
	return Count(int64(n)) + " " + noun + "s"
}
