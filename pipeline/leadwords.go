package pipeline

import "math/bits"

// leadWords maps the labels' leading words (their runs of letters and
// digits from the start, folded) to the trie nodes they reach: an
// open-addressing table by the word's hash (wordHashStep), each slot the
// word's node and where its runes are, so a lookup costs a probe or two
// and a comparison of the word.
type leadWords struct {
	// slots index words (0: empty, else 1 + the word's index): the table
	// is kept at most half full of a list with each label's leading word,
	// repeats and all, so its slots are small.
	slots []int32
	words []leadSlot
	runes []rune // the words, one after another
	shift uint   // a hash's top 32-shift bits are its first slot
}

// leadSlot is one leading word.
type leadSlot struct {
	h         uint32
	node      int32
	off, size int32 // the word is runes[off:off+size]
}

// newLeadWords indexes the leading words of idx's labels, which idx's trie
// must already hold.
func newLeadWords(idx *labelIndex) leadWords {
	var words [][]rune
	for _, l := range idx.labels {
		if len(l.folded) == 0 || !isAlnum(l.folded[0]) {
			continue
		}
		n := 1
		for n < len(l.folded) && isAlnum(l.folded[n]) {
			n++
		}
		words = append(words, l.folded[:n])
	}
	size := 16
	for size < 2*len(words) {
		size <<= 1
	}
	lw := leadWords{slots: make([]int32, size), shift: 32 - uint(bits.Len(uint(size-1)))}
	for _, w := range words {
		h := uint32(wordHashSeed)
		for _, r := range w {
			h = wordHashStep(h, r)
		}
		if lw.node(h, w) != 0 {
			continue // another label's leading word too
		}
		node := int32(0)
		for _, r := range w {
			node = idx.child(node, r)
		}
		i := int(h >> lw.shift)
		for lw.slots[i] != 0 {
			i = (i + 1) & (size - 1)
		}
		lw.words = append(lw.words, leadSlot{h: h, node: node, off: int32(len(lw.runes)), size: int32(len(w))})
		lw.slots[i] = int32(len(lw.words))
		lw.runes = append(lw.runes, w...)
	}
	return lw
}

// node is the trie node word (of hash h) reaches when it is a label's
// leading word, else 0.
func (lw *leadWords) node(h uint32, word []rune) int32 {
	if len(lw.slots) == 0 {
		return 0
	}
	mask := len(lw.slots) - 1
	for i := int(h >> lw.shift); ; i = (i + 1) & mask {
		at := lw.slots[i]
		if at == 0 {
			return 0
		}
		if s := &lw.words[at-1]; s.h == h && int(s.size) == len(word) && runesEqual(lw.runes[s.off:s.off+s.size], word) {
			return s.node
		}
	}
}
