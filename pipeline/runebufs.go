package pipeline

import "sync"

// runeBufs lends analyze the two rune arrays of an all-ASCII text (the text
// and its folded copy), a Pipeline's documents one after another: they were
// half the bytes analyze allocated, and most of its garbage. A buffer goes
// back only once the checks are done with the doc, and nothing a check
// returns points into it (a report holds factors, reasons and spans).
type runeBufs struct{ pool sync.Pool }

// maxPooledRunes bounds a pooled buffer: a receipt needs a few thousand
// runes, and a megabyte document's 8 MB are not worth keeping.
const maxPooledRunes = 1 << 15

// get is a buffer of n runes, its contents undefined, and the handle that
// gives it back (nil when it is not lent: b is nil or n is large).
func (b *runeBufs) get(n int) ([]rune, *[]rune) {
	if b == nil || n > maxPooledRunes {
		return make([]rune, n), nil
	}
	h, _ := b.pool.Get().(*[]rune)
	if h == nil {
		h = new([]rune)
	}
	if cap(*h) < n {
		*h = make([]rune, n)
	}
	return (*h)[:n], h
}

// put takes back the buffer of h (nil: none was lent); nothing may read it
// after.
func (b *runeBufs) put(h *[]rune) {
	if b != nil && h != nil {
		b.pool.Put(h)
	}
}
