package pipeline

import (
	"testing"
	"unicode"
)

// The rune helpers answer as unicode does for every rune, their fast
// paths for CJK and punctuation included.
func TestWideRunesAreUnicodes(t *testing.T) {
	for r := rune(-1); r <= unicode.MaxRune+1; r++ {
		if got, want := toLower(r), unicode.ToLower(r); got != want {
			t.Fatalf("toLower(%U) = %U, unicode.ToLower %U", r, got, want)
		}
		if got, want := isLetter(r), unicode.IsLetter(r); got != want {
			t.Fatalf("isLetter(%U) = %v, unicode.IsLetter %v", r, got, want)
		}
		if got, want := isAlnum(r), unicode.IsLetter(r) || unicode.IsDigit(r); got != want {
			t.Fatalf("isAlnum(%U) = %v, want %v", r, got, want)
		}
		if got, want := isDigitRune(r), unicode.IsDigit(r); got != want {
			t.Fatalf("isDigitRune(%U) = %v, unicode.IsDigit %v", r, got, want)
		}
		if got, want := isSpace(r), unicode.IsSpace(r); got != want {
			t.Fatalf("isSpace(%U) = %v, unicode.IsSpace %v", r, got, want)
		}
		if got, want := isCJK(r), r >= 0x2E80 && unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana); got != want {
			t.Fatalf("isCJK(%U) = %v, want %v", r, got, want)
		}
	}
}
