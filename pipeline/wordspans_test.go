package pipeline

import (
	"math/rand/v2"
	"reflect"
	"testing"
)

// wordSpansStepping is wordSpans as one loop stepping by dir.
func wordSpansStepping(rs []rune, p, dir, n, lo, hi int, out []wordSpan) []wordSpan {
	i := p
	if dir < 0 {
		i = p - 1
	}
	for found := 0; found < n && i >= lo && i < hi; {
		if !isLetter(rs[i]) {
			i += dir
			continue
		}
		j := i
		for j >= lo && j < hi && isLetter(rs[j]) {
			j += dir
		}
		a, b := i, j
		if dir < 0 {
			a, b = j+1, i+1
		}
		out = append(out, wordSpan{a, b})
		found++
		i = j
	}
	return out
}

// The two one-way scans find the words the stepping loop finds, from any
// start inside, before or after the bounds.
func TestWordSpansEachWayIsTheSteppingLoop(t *testing.T) {
	alphabet := []rune{'a', 'B', 'é', 'Ж', ' ', '1', '.', '\n', '語'}
	rng := rand.New(rand.NewPCG(9, 4))
	for range 50000 {
		rs := make([]rune, rng.IntN(30))
		for i := range rs {
			rs[i] = alphabet[rng.IntN(len(alphabet))]
		}
		lo := rng.IntN(len(rs) + 1)
		hi := lo + rng.IntN(len(rs)-lo+1)
		p := rng.IntN(len(rs) + 1)
		n := rng.IntN(5)
		for _, dir := range []int{-1, +1} {
			got := wordSpans(rs, p, dir, n, lo, hi, nil)
			want := wordSpansStepping(rs, p, dir, n, lo, hi, nil)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("wordSpans(%q, p=%d, dir=%d, n=%d, [%d,%d)) = %v, the stepping loop gives %v", string(rs), p, dir, n, lo, hi, got, want)
			}
		}
	}
}
