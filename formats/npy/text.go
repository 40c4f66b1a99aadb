package npy

import (
	"encoding/binary"
	"encoding/hex"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"tensorscope/tensor"
)

// maxTextLen bounds one element's text (a record of 3000 fields).
const maxTextLen = 4096

// elementText spells one element of type t, stored in b, as NumPy prints
// it: numbers, 'True', datetimes in ISO 8601, strings as they are, records
// as tuples.
func elementText(t *elemType, b []byte) string {
	var sb strings.Builder
	writeElement(&sb, t, b, false)
	s := sb.String()
	if len(s) > maxTextLen {
		cut := maxTextLen
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}

func writeElement(sb *strings.Builder, t *elemType, b []byte, quoted bool) {
	if sb.Len() > maxTextLen {
		return
	}
	var order binary.ByteOrder = binary.LittleEndian
	if t.bigEndian() {
		order = binary.BigEndian
	}
	switch t.kind {
	case 'r':
		sb.WriteByte('(')
		for i, f := range t.fields {
			if i > 0 {
				sb.WriteString(", ")
			}
			writeField(sb, f, b)
		}
		sb.WriteByte(')')
	case 'b':
		if b[0] != 0 {
			sb.WriteString("True")
		} else {
			sb.WriteString("False")
		}
	case 'i', 'u':
		v := readUint(order, b)
		if t.kind == 'i' {
			shift := 64 - 8*uint(len(b))
			sb.WriteString(strconv.FormatInt(int64(v<<shift)>>shift, 10))
		} else {
			sb.WriteString(strconv.FormatUint(v, 10))
		}
	case 'f':
		sb.WriteString(floatText(order, b))
	case 'c':
		half := len(b) / 2
		sb.WriteString("(" + floatText(order, b[:half]))
		im := floatText(order, b[half:])
		if !strings.HasPrefix(im, "-") {
			sb.WriteByte('+')
		}
		sb.WriteString(im + "j)")
	case 'M', 'm':
		sb.WriteString(datetimeText(t, int64(readUint(order, b))))
	case 'U':
		writeQuoted(sb, utf32Text(order, b), quoted)
	case 'S':
		writeQuoted(sb, bytesText(b), quoted)
	case 'V':
		sb.WriteString(hex.EncodeToString(b))
	case 'O':
		sb.WriteString("<pickled object>")
	}
}

func writeField(sb *strings.Builder, f field, b []byte) {
	if f.subshape == nil {
		writeElement(sb, f.elem, b[f.offset:f.offset+f.elem.size], true)
		return
	}
	n, err := tensor.NumElements(f.subshape) // checked when the descr was read; kept safe all the same
	if err != nil {
		sb.WriteString("[…]")
		return
	}
	sb.WriteByte('[')
	for i := 0; i < n; i++ {
		if i > 0 {
			sb.WriteString(", ")
		}
		if i == 16 || sb.Len() > maxTextLen {
			sb.WriteString("…")
			break
		}
		at := f.offset + i*f.elem.size
		writeElement(sb, f.elem, b[at:at+f.elem.size], true)
	}
	sb.WriteByte(']')
}

func writeQuoted(sb *strings.Builder, s string, quoted bool) {
	if quoted {
		sb.WriteString(strconv.Quote(s))
		return
	}
	sb.WriteString(s)
}

func readUint(order binary.ByteOrder, b []byte) uint64 {
	switch len(b) {
	case 1:
		return uint64(b[0])
	case 2:
		return uint64(order.Uint16(b))
	case 4:
		return uint64(order.Uint32(b))
	case 8:
		return order.Uint64(b)
	}
	return 0
}

func floatText(order binary.ByteOrder, b []byte) string {
	switch len(b) {
	case 2:
		return tensor.FormatFloat16(order.Uint16(b))
	case 4:
		return strconv.FormatFloat(float64(math.Float32frombits(order.Uint32(b))), 'g', -1, 32)
	case 8:
		return strconv.FormatFloat(math.Float64frombits(order.Uint64(b)), 'g', -1, 64)
	}
	return "?"
}

// utf32Text decodes NumPy's 'U' strings: UTF-32 code points, padded with
// NULs that are not part of the value.
func utf32Text(order binary.ByteOrder, b []byte) string {
	var sb strings.Builder
	for i := 0; i+4 <= len(b); i += 4 {
		r := rune(order.Uint32(b[i:]))
		if r == 0 {
			rest := true
			for _, c := range b[i:] {
				rest = rest && c == 0
			}
			if rest {
				break
			}
		}
		if !utf8.ValidRune(r) {
			r = utf8.RuneError
		}
		sb.WriteRune(r)
	}
	return sb.String()
}

// bytesText shows NumPy's 'S' bytes without their NUL padding; bytes that
// are not UTF-8 are escaped.
func bytesText(b []byte) string {
	end := len(b)
	for end > 0 && b[end-1] == 0 {
		end--
	}
	b = b[:end]
	if utf8.Valid(b) {
		return string(b)
	}
	q := strconv.QuoteToASCII(string(b))
	return q[1 : len(q)-1]
}

// natValue is NumPy's "not a time": the minimum int64.
const natValue = math.MinInt64

// datetimeText spells a datetime64 as ISO 8601 in its unit's precision and
// a timedelta64 as a count with its unit, as NumPy prints them.
func datetimeText(t *elemType, v int64) string {
	if v == natValue {
		return "NaT"
	}
	if t.kind == 'm' || t.unit == "generic" {
		return strconv.FormatInt(v, 10) + " " + t.unit
	}
	var tm time.Time
	layout := ""
	switch t.unit {
	case "Y":
		return strconv.FormatInt(1970+v, 10)
	case "M":
		y, m := 1970+floorDiv(v, 12), v-12*floorDiv(v, 12)+1
		return time.Date(int(y), time.Month(m), 1, 0, 0, 0, 0, time.UTC).Format("2006-01")
	case "W":
		tm, layout = time.Unix(0, 0).UTC().AddDate(0, 0, int(7*v)), "2006-01-02"
	case "D":
		tm, layout = time.Unix(0, 0).UTC().AddDate(0, 0, int(v)), "2006-01-02"
	case "h":
		tm, layout = time.Unix(v*3600, 0).UTC(), "2006-01-02T15"
	case "m":
		tm, layout = time.Unix(v*60, 0).UTC(), "2006-01-02T15:04"
	case "s":
		tm, layout = time.Unix(v, 0).UTC(), "2006-01-02T15:04:05"
	case "ms":
		tm, layout = time.UnixMilli(v).UTC(), "2006-01-02T15:04:05.000"
	case "us":
		tm, layout = time.UnixMicro(v).UTC(), "2006-01-02T15:04:05.000000"
	case "ns":
		tm, layout = time.Unix(0, v).UTC(), "2006-01-02T15:04:05.000000000"
	default: // ps, fs, as and multiples ("10s") as counts
		return strconv.FormatInt(v, 10) + " " + t.unit
	}
	return tm.Format(layout)
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}
