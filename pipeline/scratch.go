package pipeline

import "sync"

// scratchPool lends analyze the arrays it fills for a document (the text's
// runes and their folded copy, the amounts), a Pipeline's documents one
// after another: they were most of the bytes analyze allocated, and most of
// its garbage. They go back only once the checks are done with the doc, and
// nothing a check returns points into them (a report holds factors, reasons
// and spans).
type scratchPool struct{ pool sync.Pool }

// scratch is one document's lent arrays.
type scratch struct {
	runes   []rune
	amounts []labelledAmount
	hits    []labelHit
	lines   []int
	// starts and offsets are the fold's origins (folded.start) and the
	// text's byte offsets (doc.str), when the document needs them.
	starts, offsets []int32
	// foldBytes is an ASCII text's fold as bytes (folded.b).
	foldBytes []byte
	// found gathers the amounts before amounts holds them.
	found []AmountMatch
	// dates are the document's date-shaped tokens (scanDates), and digits
	// where its digit runs start (scanDatesRuns).
	dates  []DateMatch
	digits []int32
	// headings are the lines' headings (doc.lineHeading); the first
	// usedHeadings are emptied when s goes back: they may hold the text.
	headings     []memo[string]
	usedHeadings int
	// tri is the trigram set's array (trigramSet.seen), and triMark the
	// mark its last document set.
	tri     [1 << triBits]byte
	triMark byte
	// d is the doc itself, emptied when s goes back.
	d doc
}

// doc is s's doc, or a new one when s is nil; its fields are to be set.
func (s *scratch) doc() *doc {
	if s == nil {
		return new(doc)
	}
	return &s.d
}

// A megabyte document's arrays are not worth keeping: a receipt needs a few
// thousand runes, lines and a few dozen amounts and labels.
const (
	maxPooledRunes   = 1 << 15
	maxPooledAmounts = 1 << 10
)

// get is a scratch to fill, or nil when p is nil (allocate instead).
func (p *scratchPool) get() *scratch {
	if p == nil {
		return nil
	}
	if s, ok := p.pool.Get().(*scratch); ok {
		return s
	}
	return new(scratch)
}

// put takes s back; nothing may read its arrays after.
func (p *scratchPool) put(s *scratch) {
	if p != nil && s != nil {
		s.d = doc{} // a pooled doc keeps no context, text or map alive
		clear(s.headings[:min(s.usedHeadings, len(s.headings))])
		s.usedHeadings = 0
		p.pool.Put(s)
	}
}

// runeBuf is a buffer of n runes, its contents undefined: s's when s is
// not nil and n is small.
func (s *scratch) runeBuf(n int) []rune {
	if s == nil {
		return make([]rune, n)
	}
	return lend(&s.runes, n, maxPooledRunes)
}

// headingBuf is a list of n headings, none computed yet: s's when s is not
// nil and n is small.
func (s *scratch) headingBuf(n int) []memo[string] {
	if s == nil {
		return make([]memo[string], n)
	}
	// A list that went back was emptied as far as it was used.
	s.usedHeadings = n
	return lend(&s.headings, n, maxPooledRunes)
}

// amountBuf is a list of n amounts, its contents undefined, like runeBuf.
func (s *scratch) amountBuf(n int) []labelledAmount {
	if s == nil {
		return make([]labelledAmount, n)
	}
	return lend(&s.amounts, n, maxPooledAmounts)
}

// hitBuf is a list of n label hits, its contents undefined, like runeBuf.
func (s *scratch) hitBuf(n int) []labelHit {
	if s == nil {
		return make([]labelHit, n)
	}
	return lend(&s.hits, n, maxPooledAmounts)
}

// lineBuf is a list of n line starts, its contents undefined, like runeBuf.
func (s *scratch) lineBuf(n int) []int {
	if s == nil {
		return make([]int, n)
	}
	return lend(&s.lines, n, maxPooledRunes)
}

// startBuf is a list of n fold origins, its contents undefined, like
// runeBuf.
func (s *scratch) startBuf(n int) []int32 {
	if s == nil {
		return make([]int32, n)
	}
	return lend(&s.starts, n, maxPooledRunes)
}

// foldByteBuf is a list of n bytes, its contents undefined, like runeBuf.
func (s *scratch) foldByteBuf(n int) []byte {
	if s == nil {
		return make([]byte, n)
	}
	return lend(&s.foldBytes, n, maxPooledRunes)
}

// offsetBuf is a list of n byte offsets, its contents undefined, like
// runeBuf.
func (s *scratch) offsetBuf(n int) []int32 {
	if s == nil {
		return make([]int32, n)
	}
	return lend(&s.offsets, n, maxPooledRunes)
}

// trigramBuf is a trigram array and a mark none of its bytes holds: s's
// array and a new mark when s is not nil, cleared when the marks run out.
func (s *scratch) trigramBuf() (*[1 << triBits]byte, byte) {
	if s == nil {
		return new([1 << triBits]byte), 1
	}
	if s.triMark++; s.triMark == 0 {
		clear(s.tri[:])
		s.triMark = 1
	}
	return &s.tri, s.triMark
}

// lend is (*buf)[:n], grown when short, or a new list when n is over
// limit. Its cap is n, so an append to it copies rather than writing past
// it into the pooled array.
func lend[T any](buf *[]T, n, limit int) []T {
	if n > limit {
		return make([]T, n)
	}
	if cap(*buf) < n {
		*buf = make([]T, n)
	}
	return (*buf)[:n:n]
}
