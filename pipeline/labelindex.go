package pipeline

import (
	"slices"
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

// child is node's child by rune r, or 0 (the root is nobody's child).
func (idx *labelIndex) child(node int32, r rune) int32 {
	n := &idx.nodes[node]
	if n.table >= 0 && uint32(r) < utf8.RuneSelf {
		return idx.tables[n.table][r]
	}
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

func newLabelIndex(labels []roleLabel) *labelIndex {
	return newLabelSets(labels, nil)
}

// newLabelSets indexes two label sets in one trie (nil when both are empty).
func newLabelSets(first, second []roleLabel) *labelIndex {
	labels := append(append(make([]roleLabel, 0, len(first)+len(second)), first...), second...)
	if len(labels) == 0 {
		return nil
	}
	// Built with maps, then laid out flat: building is once per schema.
	type edge struct {
		node int32
		r    rune
	}
	runes := 0
	for _, l := range labels {
		runes += len(l.folded)
	}
	children := make(map[edge]int32, runes)
	kids := make([][]trieEdge, 1, runes+1)
	ends := make([][]int32, 1, runes+1)
	idx := &labelIndex{labels: labels, split: len(first)}
	for i, l := range labels {
		if len(l.folded) == 0 {
			continue
		}
		idx.maxLen = max(idx.maxLen, len(l.folded))
		set := idx.setOf(int32(i))
		idx.setMax[set] = max(idx.setMax[set], len(l.folded))
		node := int32(0)
		for _, r := range l.folded {
			child, ok := children[edge{node, r}]
			if !ok {
				child = int32(len(kids))
				kids = append(kids, nil)
				ends = append(ends, nil)
				children[edge{node, r}] = child
				kids[node] = append(kids[node], trieEdge{r, child})
			}
			node = child
		}
		ends[node] = append(ends[node], int32(i))
	}
	idx.nodes = make([]trieNode, len(kids))
	for n := range kids {
		slices.SortFunc(kids[n], func(a, b trieEdge) int { return int(a.r) - int(b.r) })
		idx.nodes[n] = trieNode{kid: int32(len(idx.edges)), nkid: int32(len(kids[n])),
			end: int32(len(idx.ends)), nend: int32(len(ends[n])), table: -1}
		idx.edges = append(idx.edges, kids[n]...)
		idx.ends = append(idx.ends, ends[n]...)
		if n == 0 || len(kids[n]) > denseKids {
			idx.nodes[n].table = int32(len(idx.tables))
			var t [128]int32
			for _, e := range kids[n] {
				if uint32(e.r) < utf8.RuneSelf {
					t[e.r] = e.node
				}
			}
			idx.tables = append(idx.tables, t)
		}
	}
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
	return findLabelSets(rs, "", f, idx, st)[0]
}

// findLabelSets is findLabels for each of idx's two sets, in one pass;
// ascii is the text when it is all ASCII (asciiText), else "".
func findLabelSets(rs []rune, ascii string, f folded, idx *labelIndex, st *stopper) (out [2][]labelHit) {
	if idx == nil {
		return out
	}
	var raw [2][]rawHit
	for set := range raw {
		if idx.setMax[set] > 0 {
			raw[set] = make([]rawHit, 0, len(f.r)/32+4)
		}
	}
	// Labels start at word starts only (k == 0 or after a rune that is no
	// letter or digit); from each, one walk down the trie finds every label
	// there, so the scan is one pass over the text.
	for k := 0; k < len(f.r); k = nextWordStart(f.r, k) {
		if st.stop() {
			return [2][]labelHit{}
		}
		group := [2]int{len(raw[0]), len(raw[1])}
		node := int32(0)
		for j := k; j < len(f.r) && j-k < idx.maxLen; j++ {
			node = idx.child(node, f.r[j])
			if node == 0 {
				break
			}
			n := &idx.nodes[node]
			if n.nend == 0 {
				continue
			}
			for _, li := range idx.ends[n.end : n.end+n.nend] {
				start, end := f.origin(k), f.endOf(j)
				if end < len(rs) && isAlnum(rs[end-1]) && isAlnum(rs[end]) {
					continue
				}
				set := idx.setOf(li)
				raw[set] = append(raw[set], rawHit{int32(start), int32(end), li})
			}
		}
		// Longest first at each start, keeping list order among equal
		// spans (a schema's own label before a built-in one).
		for set, hits := range raw {
			g := group[set]
			for x := g + 1; x < len(hits); x++ {
				for y := x; y > g && hits[y].end > hits[y-1].end; y-- {
					hits[y], hits[y-1] = hits[y-1], hits[y]
				}
			}
		}
	}
	for set := range raw {
		out[set] = keepHits(rs, ascii, raw[set], idx.labels, idx.setMax[set])
	}
	return out
}

// nextWordStart is the first word start after k: the next rune when rs[k]
// is no letter or digit, else the rune after the end of k's word.
func nextWordStart(rs []rune, k int) int {
	if !isAlnum(rs[k]) {
		return k + 1
	}
	for k++; k < len(rs) && isAlnum(rs[k]); k++ {
	}
	return k + 1
}

// keepHits drops the hits a longer one covers and names the rest.
func keepHits(rs []rune, ascii string, hits []rawHit, labels []roleLabel, maxLen int) []labelHit {
	if len(hits) == 0 {
		return nil
	}
	// First which hits stay (a dropped one's li becomes -1; only the spans
	// decide), so the list is allocated once at its size.
	kept, size := 0, 0
	last := rawHit{start: -1}
	for i, h := range hits {
		covered := false
		for j := i - 1; j >= 0 && !covered && int(hits[j].start) >= int(h.start)-2*maxLen; j-- {
			o := hits[j]
			covered = o.end >= h.end && o.end-o.start > h.end-h.start
		}
		for j := i + 1; j < len(hits) && hits[j].start < h.end && !covered; j++ {
			o := hits[j]
			covered = o.start <= h.start && o.end >= h.end && o.end-o.start > h.end-h.start
		}
		if covered || h.start == last.start && h.end == last.end {
			hits[i].li = -1
			continue
		}
		last = h
		kept++
		if ascii == "" {
			for _, r := range rs[h.start:h.end] {
				size += utf8RuneLen(r)
			}
		}
	}
	if kept == 0 {
		return nil
	}
	out := make([]labelHit, 0, kept)
	for _, h := range hits {
		if h.li >= 0 {
			l := labels[h.li]
			out = append(out, labelHit{start: int(h.start), end: int(h.end), role: l.role, key: l.key})
		}
	}
	if ascii != "" {
		for i := range out {
			out[i].text = ascii[out[i].start:out[i].end]
		}
		return out
	}
	// The kept hits' texts are cut from one string: a string per hit was
	// most of findLabels' allocations.
	var b strings.Builder
	b.Grow(size)
	for _, h := range out {
		for _, r := range rs[h.start:h.end] {
			b.WriteRune(r)
		}
	}
	texts, at := b.String(), 0
	for i := range out {
		n := 0
		for _, r := range rs[out[i].start:out[i].end] {
			n += utf8RuneLen(r)
		}
		out[i].text, at = texts[at:at+n], at+n
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
