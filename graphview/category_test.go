package graphview

import "testing"

func TestCategoryString(t *testing.T) {
	seen := map[string]bool{}
	for c := Category(0); c < numCategories; c++ {
		s := c.String()
		if s == "" || seen[s] {
			t.Fatalf("category %d has name %q", c, s)
		}
		seen[s] = true
	}
	if Category(200).String() != "other" {
		t.Fatal("out-of-range category")
	}
}

// Header colours must carry white text (WCAG contrast ≥ 4.5) and stand out
// from both palettes' backgrounds.
func TestCategoryColoursContrast(t *testing.T) {
	for c, col := range categoryColours {
		if r := contrast(col, LightPalette().HeaderText); r < 4.5 {
			t.Errorf("%v: white text contrast %.2f", Category(c), r)
		}
		for _, pal := range []Palette{LightPalette(), DarkPalette()} {
			if r := contrast(col, pal.Background); r < 1.5 {
				t.Errorf("%v: contrast with background %v only %.2f", Category(c), pal.Background, r)
			}
		}
	}
}
