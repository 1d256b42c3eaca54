package pipeline

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"
)

// ValidISODate accepts exactly what time.Parse("2006-01-02", …) accepts:
// every month and day from 00 to 99 in leap, century and ordinary years,
// and random bytes in the shape.
func TestValidISODateIsTimeParse(t *testing.T) {
	byParse := func(s string) bool {
		if len(s) != 10 || s[4] != '-' || s[7] != '-' {
			return false
		}
		_, err := time.Parse("2006-01-02", s)
		return err == nil
	}
	check := func(s string) {
		if got, want := ValidISODate(s), byParse(s); got != want {
			t.Errorf("ValidISODate(%q) = %v, time.Parse says %v", s, got, want)
		}
	}
	for _, y := range []int{0, 1, 4, 100, 1900, 1999, 2000, 2023, 2024, 2026, 2100, 2400, 9999} {
		for m := range 100 {
			for d := range 100 {
				check(fmt.Sprintf("%04d-%02d-%02d", y, m, d))
			}
		}
	}
	bytes := "0123456789-+ a\x00\xff/."
	r := rand.New(rand.NewPCG(10, 10))
	for range 100000 {
		b := []byte("2026-01-01")
		for range 1 + r.IntN(3) {
			b[r.IntN(len(b))] = bytes[r.IntN(len(bytes))]
		}
		check(string(b))
	}
	for _, s := range []string{"", "2026-1-01", "2026-01-1", "+026-01-01", "-026-01-01", "2026-01-011", "２０２６-01-01"} {
		check(s)
	}
}
