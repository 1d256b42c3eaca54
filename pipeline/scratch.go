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
}

// A megabyte document's arrays are not worth keeping: a receipt needs a few
// thousand runes and a few dozen amounts.
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
		p.pool.Put(s)
	}
}

// runeBuf is a buffer of n runes, its contents undefined: s's when s is
// not nil and n is small.
func (s *scratch) runeBuf(n int) []rune {
	if s == nil || n > maxPooledRunes {
		return make([]rune, n)
	}
	if cap(s.runes) < n {
		s.runes = make([]rune, n)
	}
	return s.runes[:n:n]
}

// amountBuf is a list of n amounts, its contents undefined, like runeBuf.
func (s *scratch) amountBuf(n int) []labelledAmount {
	if s == nil || n > maxPooledAmounts {
		return make([]labelledAmount, n)
	}
	if cap(s.amounts) < n {
		s.amounts = make([]labelledAmount, n)
	}
	return s.amounts[:n:n]
}
