package pipeline

import (
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Documents print many of their labels as column headings over a row of
// values ("Invoice No.   Order No.   Contract No." over "NT-0412   ORD-7712
// K-5519"), or alone on the line above their value ("POLICY NUMBER" over
// "MTR-88213-26"). A value with no label before it on its own line is named
// by the heading over it: the label on the line above whose columns overlap
// the value's.

// labelAbove is the field label printed over the value at sp: on the line
// right above, overlapping the value's columns, closer to its start than
// any other label of that line. A value that has a label before it on its
// own line is that label's; the caller asks labelBefore first.
func (d *doc) labelAbove(sp Span) (labelHit, bool) {
	li := d.lineOf(sp.Start)
	if li == 0 || d.lineOf(sp.End-1) != li {
		return labelHit{}, false
	}
	ls, le := d.lineBounds(li - 1)
	if slices.ContainsFunc(d.rs[ls:le], isDigit) {
		// A row of headings holds no values: a label with its own value
		// ("Driver no 2231") names nothing on the line below.
		return labelHit{}, false
	}
	col, colEnd := sp.Start-d.lineStarts[li], sp.End-d.lineStarts[li]
	hits := d.fieldHits
	k := sort.Search(len(hits), func(i int) bool { return hits[i].start >= ls })
	var best labelHit
	bestGap := -1
	for ; k < len(hits) && hits[k].start < le; k++ {
		h := hits[k]
		hc, he := h.start-ls, h.end-ls
		if hc > colEnd || he < col {
			continue // no column in common
		}
		gap := col - hc
		if gap < 0 {
			gap = -gap
		}
		if bestGap < 0 || gap < bestGap {
			best, bestGap = h, gap
		}
	}
	return best, bestGap >= 0
}

// tokenBelow is the value printed under heading h: the token on the next
// line that overlaps the heading's columns and holds a digit, with no label
// of its own before it on that line. Only a heading that names a number
// ("Invoice No.", "Rechnungsnummer", "Invoice #") heads a column: a title
// ("TAX INVOICE") over an address line names nothing under it.
func (d *doc) tokenBelow(h labelHit) (Span, bool) {
	if !namesANumber(h) {
		return Span{}, false
	}
	li := d.lineOf(h.start)
	if li+1 >= len(d.lineStarts) {
		return Span{}, false
	}
	ls := d.lineStarts[li]
	hc, he := h.start-ls, h.end-ls
	bs, be := d.lineBounds(li + 1)
	for p := bs; p < be; {
		for p < be && unicode.IsSpace(d.rs[p]) {
			p++
		}
		q := p
		for q < be && !unicode.IsSpace(d.rs[q]) {
			q++
		}
		if q == p {
			break
		}
		if p-bs <= he && q-bs >= hc {
			if c := strings.LastIndexAny(string(d.rs[p:q]), ":："); c >= 0 {
				p += len([]rune(string(d.rs[p:q])[:c])) + 1 // "NO.:UOA-CB18-01575"
			}
			sp := Span{Start: p, End: q}
			if _, labelled := d.labelBefore(p); labelled || !strings.ContainsFunc(string(d.rs[p:q]), unicode.IsDigit) {
				return Span{}, false
			}
			return sp, true
		}
		p = q
	}
	return Span{}, false
}

// numberHeadingWords end a label that names a number rather than titling a
// document.
var numberHeadingWords = map[string]bool{"no": true, "nr": true, "n": true, "nº": true, "n°": true, "number": true,
	"num": true, "nummer": true, "numero": true, "número": true, "numéro": true, "id": true, "nro": true, "番号": true}

// namesANumber reports a label that ends in a number word or sign
// ("Invoice No.", "Invoice #", "Rechnungsnummer", "請求書番号").
func namesANumber(h labelHit) bool {
	if strings.ContainsAny(h.text, "#№") {
		return true
	}
	toks := strings.Fields(h.key)
	if len(toks) == 0 {
		return false
	}
	last := toks[len(toks)-1]
	if numberHeadingWords[last] || strings.HasSuffix(last, "nummer") || strings.HasSuffix(last, "number") ||
		strings.HasSuffix(last, "番号") || numberFirstWords[toks[0]] && len(toks) > 1 {
		return true
	}
	// A CJK label's key is one token a character: "請 求 書 番 号".
	joined := strings.Join(toks, "")
	for _, w := range cjkNumberWords {
		if strings.HasSuffix(joined, w) {
			return true
		}
	}
	return false
}

// numberFirstWords start a label that names a number in languages that put
// the number word first ("מספר חשבונית", "رقم الفاتورة", "Số hóa đơn",
// "Nomor Faktur", "Номер счёта").
var numberFirstWords = map[string]bool{"מספר": true, "رقم": true, "số": true, "nomor": true, "номер": true,
	"numer": true, "číslo": true, "αριθμός": true, "เลขที่": true}

// cjkNumberWords end a CJK label that names a number.
var cjkNumberWords = []string{"番号", "号码", "號碼", "编号", "編號", "번호"}

// storeNumber reports a value that is the first part of the number the
// document labels ("0231" of "TRANS 0231-04-558812") and is printed after
// a name with a number sign ("MEGA MART #0231"): the store's or branch's
// number, which the transaction number begins with, not the document's.
func (d *doc) storeNumber(tok, val string) bool {
	parts := strings.FieldsFunc(strings.ToUpper(tok), func(r rune) bool { return !isAlnum(r) })
	if len(parts) < 2 || parts[0] != strings.ToUpper(val) {
		return false
	}
	text := d.text()
	for off := 0; ; {
		i := strings.Index(text[off:], "#"+val)
		if i < 0 {
			return false
		}
		at := off + i
		end := at + 1 + len(val)
		before := strings.TrimSuffix(text[:at], " ")
		r, _ := utf8.DecodeLastRuneInString(before)
		if isLetter(r) && (end == len(text) || !isAlnum(rune(text[end]))) {
			return true
		}
		off = at + 1
	}
}
