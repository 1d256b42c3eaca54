package pipeline

import (
	"runtime"
	"strings"
	"unicode/utf8"
)

// labelIndex is one or two label sets ready for findLabels: a trie of the
// folded labels, so a document is scanned once, not once per label (nor
// once per set). The trie is flat arrays rather than maps: findLabels walks
// it from every word start of every document, and hashing an edge per rune
// was most of its time.
type labelIndex struct {
	labels []roleLabel
	// split divides labels into the two sets findLabelSets lists apart:
	// labels[:split] and labels[split:].
	split int
	// setMax is the longest label of each set, in runes.
	setMax [2]int
	// tables hold the child for each ASCII rune (0: none) of the nodes with
	// many children, the root first: nearly every walk starts there and
	// most end after a rune or two.
	tables [][128]int32
	nodes  []trieNode
	edges  []trieEdge // each node's children, sorted by rune
	ends   []int32    // each node's labels, in list order
	// maxLen is the longest label in runes.
	maxLen int
	// first screens the word starts: a word begins a label only when it is
	// the leading word of one, and most words of a document are no label's
	// (nil: no screen, and every word start is walked from the root). The
	// word's hash is taken while its end is found anyway.
	first *wordHashes
	// lead maps each leading word straight to its node, for the words the
	// screen lets through: walking a word down the trie cost a few nodes
	// scattered over a large trie per rune.
	lead leadWords
}

// leadingWords is the screen of labels' leading words. A label that starts
// with no letter or digit ("#", "№") has none: the word starts it can begin
// at are no letters or digits, which the screen lets through.
func leadingWords(labels []roleLabel) *wordHashes {
	hs := make([]uint32, 0, len(labels))
	for _, l := range labels {
		if len(l.folded) == 0 || !isAlnum(l.folded[0]) {
			continue
		}
		h := uint32(wordHashSeed)
		for _, r := range l.folded {
			if !isAlnum(r) {
				break
			}
			h = wordHashStep(h, r)
		}
		hs = append(hs, h)
	}
	return newWordHashes(hs)
}

// rawHit is a label occurrence before overlaps are settled; li indexes
// labels.
type rawHit struct{ start, end, li int32 }

// trieNode is a node's children edges[kid:kid+nkid] (and tables[table]
// when table >= 0) and the labels ending there ends[end:end+nend].
type trieNode struct{ kid, nkid, end, nend, table int32 }

// denseKids is how many children give a node an ASCII table.
const denseKids = 8

type trieEdge struct {
	r    rune
	node int32
}

// edgeChild is node's child by rune r from its sorted edges, or 0 (the root
// is nobody's child); findLabelSets reads a node's table itself.
func (idx *labelIndex) edgeChild(node int32, r rune) int32 {
	n := &idx.nodes[node]
	kids := idx.edges[n.kid : n.kid+n.nkid]
	if len(kids) <= denseKids {
		for _, e := range kids {
			if e.r == r {
				return e.node
			}
		}
		return 0
	}
	lo, hi := 0, len(kids)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if kids[m].r < r {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(kids) && kids[lo].r == r {
		return kids[lo].node
	}
	return 0
}

// child is node's child by rune r, or 0.
func (idx *labelIndex) child(node int32, r rune) int32 {
	if t := idx.nodes[node].table; t >= 0 && uint32(r) < utf8.RuneSelf {
		return idx.tables[t][r]
	}
	return idx.edgeChild(node, r)
}

// newLabelSets indexes two label sets in one trie (nil when both are empty).
//
// Every run pays this once for its schema before its first document, so it
// builds neither a map nor a sorted copy of the labels: each label is walked
// in from the root, adding the nodes it lacks, and a node's children are a
// list kept in rune order (the root's ASCII children also in a table), which
// the flat layout then copies.
func newLabelSets(first, second []roleLabel) *labelIndex {
	labels := append(append(make([]roleLabel, 0, len(first)+len(second)), first...), second...)
	if len(labels) == 0 {
		return nil
	}
	idx := &labelIndex{labels: labels, split: len(first)}
	total := 0
	for _, l := range labels {
		total += len(l.folded)
	}
	// Node 0 is the root, nobody's child, so 0 ends a list.
	type buildNode struct {
		r           rune
		first, next int32
	}
	bn := make([]buildNode, 1, total/3+1)
	var rootASCII [utf8.RuneSelf]int32
	term := make([]int32, len(labels)) // the node each label ends at
	for i, l := range labels {
		if i%64 == 63 {
			// Built beside a batch's first documents (Pipeline.Prepare), the
			// index must not hold a core while they send their first model
			// calls: it has until the first replies come back. Gosched
			// hands the core to any goroutine waiting for one and costs
			// next to nothing when none is.
			runtime.Gosched()
		}
		if len(l.folded) == 0 {
			continue
		}
		idx.maxLen = max(idx.maxLen, len(l.folded))
		set := idx.setOf(int32(i))
		idx.setMax[set] = max(idx.setMax[set], len(l.folded))
		node := int32(0)
		for _, r := range l.folded {
			if node == 0 && uint32(r) < utf8.RuneSelf && rootASCII[r] != 0 {
				node = rootASCII[r]
				continue
			}
			prev, c := int32(0), bn[node].first
			for c != 0 && bn[c].r < r {
				prev, c = c, bn[c].next
			}
			if c == 0 || bn[c].r != r {
				n := int32(len(bn))
				bn = append(bn, buildNode{r: r, next: c})
				if prev == 0 {
					bn[node].first = n
				} else {
					bn[prev].next = n
				}
				if node == 0 && uint32(r) < utf8.RuneSelf {
					rootASCII[r] = n
				}
				c = n
			}
			node = c
		}
		term[i] = node
	}
	nodes := make([]trieNode, len(bn))
	for n := range bn {
		for c := bn[n].first; c != 0; c = bn[c].next {
			nodes[n].nkid++
		}
	}
	for li, l := range labels {
		if len(l.folded) > 0 {
			nodes[term[li]].nend++
		}
	}
	kid, end := int32(0), int32(0)
	for n := range nodes {
		nodes[n].kid, nodes[n].end, nodes[n].table = kid, end, -1
		kid += nodes[n].nkid
		end += nodes[n].nend
		if n == 0 || nodes[n].nkid > denseKids {
			nodes[n].table = int32(len(idx.tables))
			idx.tables = append(idx.tables, [128]int32{})
		}
	}
	// The fill counts reuse nkid and nend, restored as each slot is filled.
	idx.edges = make([]trieEdge, kid)
	for n := range nodes {
		nodes[n].nkid, nodes[n].nend = 0, 0
	}
	for n := range bn {
		p := &nodes[n]
		for c := bn[n].first; c != 0; c = bn[c].next {
			r := bn[c].r
			idx.edges[p.kid+p.nkid] = trieEdge{r, c}
			p.nkid++
			if p.table >= 0 && uint32(r) < utf8.RuneSelf {
				idx.tables[p.table][r] = c
			}
		}
	}
	idx.ends = make([]int32, end)
	for li := range labels {
		if len(labels[li].folded) == 0 {
			continue
		}
		n := &nodes[term[li]]
		idx.ends[n.end+n.nend] = int32(li)
		n.nend++
	}
	idx.nodes = nodes
	idx.first = leadingWords(labels)
	idx.lead = newLeadWords(idx)
	return idx
}

// setOf is the set label li belongs to.
func (idx *labelIndex) setOf(li int32) int {
	if int(li) < idx.split {
		return 0
	}
	return 1
}

// findLabels lists label occurrences at word boundaries, dropping any that a
// longer label covers ("total" inside "total incl gst"); idx holds one set.
func findLabels(rs []rune, f folded, idx *labelIndex, st *stopper) []labelHit {
	if idx == nil {
		return nil
	}
	return findLabelSets(rs, "", f, idx, st, nil)[0]
}

// findLabelSets is findLabels for each of idx's two sets, in one pass;
// ascii is the text when it is all ASCII (asciiText), else "". The hits'
// list is sc's when sc is not nil.
func findLabelSets(rs []rune, ascii string, f folded, idx *labelIndex, st *stopper, sc *scratch) (out [2][]labelHit) {
	if idx == nil {
		return out
	}
	// The raw hits are gathered on the stack while they fit: a receipt
	// holds a few dozen.
	var rawBuf [2][64]rawHit
	raw := [2][]rawHit{rawBuf[0][:0], rawBuf[1][:0]}
	// Labels start at word starts only (k == 0 or after a rune that is no
	// letter or digit); from each, one walk down the trie finds every label
	// there, so the scan is one pass over the text.
	root := &idx.tables[0] // the root always has a table
	for k, next := 0, 0; k < len(f.r); k = next {
		if st.stop() {
			return [2][]labelHit{}
		}
		// The next word start: the next rune after one that is no letter
		// or digit, else the rune after the end of k's word.
		next = k + 1
		// The walk starts at rune j in node.
		j, node := k, int32(0)
		switch r := f.r[k]; {
		case isAlnum(r):
			var h uint32
			next, h = alnumRun(f.r, k)
			next++
			if idx.first == nil {
				node = idx.child(0, r)
				break
			}
			// A label found here would start with this whole word: a
			// label's leading word that goes on past it in the text ends
			// inside a word, which a hit may not, and one whose leading
			// word stops before a rune that is no letter or digit needs
			// the text's word to stop there too. So the walk starts at
			// the word's last rune, in the node its leading word reaches:
			// a label ending on an earlier rune of the word ends inside it
			// (folding keeps each rune a letter or digit or not, and drops
			// no rune after a letter or digit).
			if !idx.first.has(h) {
				continue
			}
			j, node = next-2, idx.lead.node(h, f.r[k:next-1])
		case uint32(r) < utf8.RuneSelf:
			// Likewise the table lookups; most word starts (spaces,
			// punctuation) begin no label.
			node = root[r]
		default:
			node = idx.edgeChild(0, r)
		}
		if node == 0 {
			continue
		}
		group := [2]int{len(raw[0]), len(raw[1])}
		for {
			n := &idx.nodes[node]
			// Most nodes end no label: the list is not sliced for them.
			if n.nend > 0 {
				for _, li := range idx.ends[n.end : n.end+n.nend : n.end+n.nend] {
					start, end := f.origin(k), f.endOf(j)
					if end < len(rs) && isAlnum(rs[end-1]) && isAlnum(rs[end]) {
						continue
					}
					set := idx.setOf(li)
					raw[set] = append(raw[set], rawHit{int32(start), int32(end), li})
				}
			}
			if j++; j >= len(f.r) || j-k >= idx.maxLen {
				break
			}
			switch r := f.r[j]; {
			case n.nkid == 1: // most nodes deep in the trie: one label's tail
				node = 0
				if e := idx.edges[n.kid]; e.r == r {
					node = e.node
				}
			case n.table >= 0 && uint32(r) < utf8.RuneSelf:
				node = idx.tables[n.table][r]
			case n.nkid <= denseKids:
				node = 0
				for _, e := range idx.edges[n.kid : n.kid+n.nkid] {
					if e.r == r {
						node = e.node
						break
					}
				}
			default:
				node = idx.edgeChild(node, r)
			}
			if node == 0 {
				break
			}
		}
		// Longest first at each start, keeping list order among equal
		// spans (a schema's own label before a built-in one).
		for set := range raw {
			hits, g := raw[set], group[set]
			if len(hits)-g < 2 {
				continue // most word starts begin one label or none
			}
			for x := g + 1; x < len(hits); x++ {
				for y := x; y > g && hits[y].end > hits[y-1].end; y-- {
					hits[y], hits[y-1] = hits[y-1], hits[y]
				}
			}
		}
	}
	// Both sets' hits share one list: it was two allocations per document.
	var keep [2]int
	for set := range raw {
		keep[set] = markCovered(raw[set], idx.setMax[set])
	}
	all := sc.hitBuf(keep[0] + keep[1])[:0]
	for set := range raw {
		if keep[set] > 0 {
			n := len(all)
			all = keptHits(all, rs, ascii, raw[set], idx.labels)
			out[set] = all[n:len(all):len(all)]
		}
	}
	return out
}

// alnumRun is the end of the run of letters and digits that starts at
// rs[k], one itself, and the run's word hash: the screen findLabelSets asks
// of every word. It is not inlined so that its loop, which reads nearly
// every rune of every document, keeps its values in registers.
//
//go:noinline
func alnumRun(rs []rune, k int) (end int, h uint32) {
	h = wordHashStep(wordHashSeed, rs[k])
	class := &asciiClass // in a register, not loaded per rune
	for end = k + 1; end < len(rs); end++ {
		// isAlnum, branching once on the ASCII class; the rune as
		// unsigned indexes the table without widening its sign.
		r := uint32(rs[end])
		if r < utf8.RuneSelf {
			if class[r]&classAlnum == 0 {
				break
			}
		} else if !wideAlnum(rune(r)) {
			break
		}
		h = (h ^ r) * 16777619 // wordHashStep
	}
	return end, h
}

// markCovered drops (li = -1) the hits a longer one covers, and repeats of
// a span, and counts the rest. hits are in findLabelSets' order: by start,
// and longest first at each start. So only a hit starting at or before a
// hit can cover it, and two running ends answer whether one does: the
// longest end at its own start, and the furthest end of the hits before
// it, where comparing each hit with all its neighbours was quadratic in the
// hits near it. A covering hit is looked for no further back than 2*maxLen
// runes (its original span may be longer than its label, over collapsed
// spaces); when the furthest end belongs to a hit beyond that, the hits in
// reach are read one by one.
func markCovered(hits []rawHit, maxLen int) int {
	kept := 0
	last := rawHit{start: -1}
	// before and beforeStart are the furthest end of the hits that start
	// before start, and the latest start among those that reach it.
	before, beforeStart := int32(-1), int32(-1)
	start, longest := int32(-1), int32(-1) // the current start and its longest end
	for i, h := range hits {
		if h.start != start {
			if start >= 0 && longest >= before {
				before, beforeStart = longest, start
			}
			start, longest = h.start, h.end
		}
		reach := int(h.start) - 2*maxLen
		covered := longest > h.end ||
			before >= h.end && (int(beforeStart) >= reach || coveredBefore(hits[:i], h, reach))
		if covered || h.start == last.start && h.end == last.end {
			hits[i].li = -1
			continue
		}
		last = h
		kept++
	}
	return kept
}

// coveredBefore reports whether a hit of earlier, starting at reach or
// after, covers h.
func coveredBefore(earlier []rawHit, h rawHit, reach int) bool {
	for j := len(earlier) - 1; j >= 0 && int(earlier[j].start) >= reach; j-- {
		if o := earlier[j]; o.end >= h.end && o.end-o.start > h.end-h.start {
			return true
		}
	}
	return false
}

// keptHits appends the hits markCovered kept to out, named.
func keptHits(out []labelHit, rs []rune, ascii string, hits []rawHit, labels []roleLabel) []labelHit {
	from := len(out)
	for _, h := range hits {
		if h.li >= 0 {
			l := labels[h.li]
			out = append(out, labelHit{start: int(h.start), end: int(h.end), role: l.role, key: l.key})
		}
	}
	mine := out[from:]
	if ascii != "" {
		for i := range mine {
			mine[i].text = ascii[mine[i].start:mine[i].end]
		}
		return out
	}
	// The kept hits' texts are cut from one string: a string per hit was
	// most of findLabels' allocations.
	size := 0
	for _, h := range mine {
		for _, r := range rs[h.start:h.end] {
			size += utf8RuneLen(r)
		}
	}
	var b strings.Builder
	b.Grow(size)
	// Each hit's end in the string is noted as it is written (on the stack
	// for the hits of most documents), not counted again rune by rune.
	var endBuf [64]int32
	ends := endBuf[:0]
	for _, h := range mine {
		for _, r := range rs[h.start:h.end] {
			b.WriteRune(r)
		}
		ends = append(ends, int32(b.Len()))
	}
	texts, at := b.String(), 0
	for i := range mine {
		mine[i].text, at = texts[at:ends[i]], int(ends[i])
	}
	return out
}

// utf8RuneLen is the length of r as string(r) writes it: an invalid rune
// takes the replacement character's three bytes.
func utf8RuneLen(r rune) int {
	if n := utf8.RuneLen(r); n > 0 {
		return n
	}
	return 3
}
