package layout

import "unicode/utf8"

// EstimateTextWidth approximates the width of s set in a proportional sans
// serif font at the given size, for sizing boxes where no font is at hand
// (tests, headless tools). Front ends with real font metrics should measure
// instead; this errs slightly wide so text measured this way still fits.
func EstimateTextWidth(s string, size float64) float64 {
	em := 0.0
	for _, r := range s {
		em += runeEm(r)
	}
	return em * size
}

// runeEm is a rune's advance in ems, by rough class (based on the advances of
// common sans serif fonts such as Noto Sans and DejaVu Sans).
func runeEm(r rune) float64 {
	switch {
	case r == 'i' || r == 'j' || r == 'l' || r == '.' || r == ',' || r == ':' || r == ';' || r == '\'' || r == '|' || r == '!':
		return 0.28
	case r == ' ' || r == 'f' || r == 't' || r == 'r' || r == 'I' || r == '(' || r == ')' || r == '[' || r == ']' || r == '/':
		return 0.36
	case r == 'm' || r == 'w' || r == 'M' || r == 'W' || r == '@' || r == '%':
		return 0.88
	case r >= 'A' && r <= 'Z':
		return 0.68
	case r < utf8.RuneSelf:
		return 0.57
	case r >= 0x2E80: // CJK and other wide scripts
		return 1.0
	default:
		return 0.62
	}
}
