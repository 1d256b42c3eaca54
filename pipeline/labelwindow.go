package pipeline

// screenedWords is a word set with the shapes of its words (first rune and
// length): chooseLabel asks a set of the words around every label it reads,
// and most of those words are no member, which the shapes tell before the
// word is lowered into a key.
type screenedWords struct {
	shapes *wordShapes
	words  map[string]bool
}

func screenWords(words map[string]bool) screenedWords {
	return screenedWords{shapesOf(words), words}
}

var (
	modifierSet  = screenWords(modifierWords)
	exclusionSet = screenWords(exclusionWords)
	inclusionSet = screenWords(inclusionWords)
	grossSet     = screenWords(grossNouns)
	inWordSet    = screenWords(inWords)
)

// has is inSet(rs, w, s.words): lowering keeps a word's runes one for one.
func (s screenedWords) has(rs []rune, w wordSpan) bool {
	if w.b <= w.a || !s.shapes.mayHold(toLower(rs[w.a]), w.b-w.a) {
		return false
	}
	return inSet(rs, w, s.words)
}

// any is anyInSpans(rs, ws, s.words).
func (s screenedWords) any(rs []rune, ws []wordSpan) bool {
	for _, w := range ws {
		if s.has(rs, w) {
			return true
		}
	}
	return false
}

// segmentHits is chooseLabel over the hits inside a segment.
type segmentHits struct {
	rs   []rune
	hits []labelHit
	at   int // the last segment's first hit
}

// choose is chooseLabel over the hits inside [a, b).
func (s *segmentHits) choose(a, b int) (labelHit, bool) {
	k := s.at
	if k < len(s.hits) && s.hits[k].start < a || k > 0 && s.hits[k-1].start >= a {
		k = hitFrom(s.hits, a, k) // else the last segment's first hit is this one's
	}
	s.at = k
	if k == len(s.hits) || s.hits[k].start >= b {
		return labelHit{}, false // most segments
	}
	var buf [8]labelHit // a segment holds a label or two
	hs := buf[:0]
	for ; k < len(s.hits) && s.hits[k].start < b; k++ {
		if s.hits[k].end <= b {
			hs = append(hs, s.hits[k])
		}
	}
	return chooseLabel(s.rs, hs, a, b)
}

// hitFrom is firstHitFrom(hits, p) looked for from at, the answer for a
// position near p: labelInPlace's segments mostly move on a hit or two at a
// time, and a binary search over all the hits per segment was a tenth of
// its time. The search gallops from at (1, 2, 4 … hits away) to bracket the
// answer, then halves the bracket, so a far jump costs a logarithm too.
func hitFrom(hits []labelHit, p, at int) int {
	at = min(max(at, 0), len(hits))
	var lo, hi int // the answer is in [lo, hi]
	if at < len(hits) && hits[at].start < p {
		lo, hi = at+1, len(hits)
		for step := 1; ; step <<= 1 {
			probe := at + step
			if probe >= len(hits) {
				break
			}
			if hits[probe].start >= p {
				hi = probe
				break
			}
			lo = probe + 1
		}
	} else {
		lo, hi = 0, at
		for step := 1; ; step <<= 1 {
			probe := at - step
			if probe < 0 {
				break
			}
			if hits[probe].start < p {
				lo = probe + 1
				break
			}
			hi = probe
		}
	}
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if hits[m].start < p {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}
