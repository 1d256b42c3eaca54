package pipeline

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// customerLabelIn names the first customer label, in customerLabels' order,
// that occurs anywhere in the words, else an address word standing alone
// (honorifics after it aside): the index by first word changes only how
// fast it is found.
func TestCustomerLabelInIsTheFirstLabelInListOrder(t *testing.T) {
	byList := func(toks []string) string {
		for i, l := range customerLabelToks {
			if tokenRun(toks, l) >= 0 {
				return customerLabels[i]
			}
		}
		return addressWordInByList(toks)
	}
	lines := []string{"", "Bill To: ACME", "customer copy ship to", "Sold To:   Ship To:", "guest customer", "Dear Mr",
		"Sehr geehrte Frau", "to", "Welcome to Tesco", "Rechnung an Kunde", "TOMADOR DE SERVIÇOS", "datos del cliente",
		"remit payment only to us", "pay only", "accounts payable dept", "请求先 お客様", "passenger name list"}
	for _, l := range append(lines, customerLabels...) {
		toks := LabelTokens(l)
		if got, want := customerLabelIn(toks), byList(toks); got != want {
			t.Errorf("%q: %q, the first label in list order is %q", l, got, want)
		}
	}
	for _, a := range addressWords {
		toks := LabelTokens(a + " mr")
		if got, want := customerLabelIn(toks), byList(toks); got != want {
			t.Errorf("%q: %q, want %q", a, got, want)
		}
		// An address word that is itself an honorific (Herr, Frau) is
		// stripped with the one after it.
		if got := addressWordIn(toks); got != a && !honorifics[a] {
			t.Errorf("%q followed by an honorific is the address word %q, got %q", a, a, got)
		}
	}
}

// customerLabelOf and labelLine read an ASCII text's own words without case
// and answer exactly as customerLabelIn and the whole-line comparison do
// from LabelTokens; a text of other scripts takes that path itself.
func TestCustomerLabelOfReadsAsLabelTokens(t *testing.T) {
	for _, ls := range [][][]string{customerLabelToks, addressWordToks} {
		for _, l := range ls {
			for _, w := range l {
				if isASCII(w) && len(w) > maxLookupWord {
					t.Errorf("label word %q is longer than maxLookupWord", w)
				}
			}
		}
	}
	for h := range honorifics {
		if isASCII(h) && len(h) > maxLookupWord {
			t.Errorf("honorific %q is longer than maxLookupWord", h)
		}
	}
	lines := []string{"", "  ", "Bill To: ACME", "BILL TO:", "bill-to", "Customer Copy   SHIP TO", "Sold To:   Ship To:",
		"DEAR MR.", "Sehr geehrte Frau", "TO", "Welcome to Tesco", "ATTN: J. Smith", "Remit Payment Only To", "Dear Mrs Dr",
		"Herr", "HERRN DR", "to mr", "Customers", "customer1", "x&y customer", strings.Repeat("A", 40) + " CUSTOMER",
		"TOMADOR DE SERVIÇOS", "Rechnung an", "Empfänger:"}
	words := []string{"bill", "to", "customer", "mr", "dear", "ship", "ACME", "Sdn", "attn", "&", "1", "pay", "only",
		"Remit", "PAYMENT", "Guest", "mrs", "hi", "an", "Frau", "x"}
	seps := []string{" ", "  ", ": ", "-", ". ", "/", "   "}
	r := rand.New(rand.NewPCG(1, 2))
	for range 3000 {
		lines = append(lines, randomPhrase(r, words, seps, 5, 2))
	}
	lines = append(lines, customerLabels...)
	lines = append(lines, addressWords...)
	for _, l := range customerLabels {
		lines = append(lines, strings.ToUpper(l), "Mr "+l+":", l+" Mr")
	}
	found := 0
	for _, l := range lines {
		want := customerLabelIn(LabelTokens(l))
		if got := customerLabelOf(l); got != want {
			t.Errorf("%q: customerLabelOf %q, customerLabelIn %q", l, got, want)
		}
		if want != "" {
			found++
		}
		// The list scan, not labelLineByTokens: labelLine itself takes the
		// token path on a line beyond ASCII, so that would compare it with itself.
		wl, wok := labelLineByList(l)
		if gl, gok := labelLine(l); gl != wl || gok != wok {
			t.Errorf("%q: labelLine %q %v, the list scan %q %v", l, gl, gok, wl, wok)
		}
	}
	if found < len(lines)/4 {
		t.Errorf("only %d of %d lines hold a label: the comparison says little", found, len(lines))
	}
}

// indexColon finds the first colon, ASCII or full-width, where IndexAny does.
func TestIndexColonIsIndexAny(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 8))
	pieces := []string{"a", ":", "：", "é", " ", "\xef", "\xbc", "\x9a", "名称"}
	for range 3000 {
		var b strings.Builder
		for range r.IntN(8) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		s := b.String()
		if got, want := indexColon(s), strings.IndexAny(s, ":："); got != want {
			t.Errorf("%q: indexColon %d, IndexAny %d", s, got, want)
		}
	}
}

// A stem set finds a stem wherever searching the line for each stem in turn
// does, ASCII letters in any case and other lines lowercased.
func TestStemSetFindsEachStem(t *testing.T) {
	each := func(stems []string, line string) bool {
		if !isASCII(line) {
			line = strings.ToLower(line)
		}
		for _, st := range stems {
			for i := 0; i+len(st) <= len(line); i++ {
				k := 0
				for k < len(st) && asciiLower(line[i+k]) == st[k] {
					k++
				}
				if k == len(st) {
					return true
				}
			}
		}
		return false
	}
	r := rand.New(rand.NewPCG(2, 9))
	pieces := []string{"V.D", "vd", "Self", "-", " ", "ΔΟΥ", "δ.ο.", "Tax", "OFFICE", "Impôts", "IMPÔTS", "x", "gutSchrift", "S"}
	found := 0
	for _, set := range []*stemSet{taxOfficeStems, selfBillingStems} {
		for range 3000 {
			var b strings.Builder
			for range r.IntN(6) {
				b.WriteString(pieces[r.IntN(len(pieces))])
			}
			line := b.String()
			want := each(set.stems, line)
			if got := set.in(line); got != want {
				t.Errorf("%q: stem set %v, each stem %v", line, got, want)
			}
			if want {
				found++
			}
		}
	}
	if found < 1000 {
		t.Errorf("only %d lines hold a stem: the comparison says little", found)
	}
}

// isTitle and leadWord read an ASCII name's own words and answer as their
// LabelTokens forms do.
func TestIsTitleAndLeadWordReadAsLabelTokens(t *testing.T) {
	for w := range nameContinuations {
		if isASCII(w) && len(w) > maxLookupWord {
			t.Errorf("name continuation %q is longer than maxLookupWord", w)
		}
	}
	r := rand.New(rand.NewPCG(4, 4))
	words := []string{"TAX", "invoice", "Sdn", "BHD", "&", "and", "Receipt", "ACME", "co", "Trading", "x1", "Rechnung", "Straße"}
	seps := []string{" ", ". ", "  ", "-", ", "}
	lines := []string{"", " ", "TAX INVOICE", " Tax  Invoice ", "SDN BHD", "&", "ACME SDN BHD", "Official Receipt & Tax Invoice"}
	for range 3000 {
		var b strings.Builder
		for k := range r.IntN(6) {
			if k > 0 {
				b.WriteString(seps[r.IntN(len(seps))])
			}
			b.WriteString(words[r.IntN(len(words))])
		}
		lines = append(lines, b.String())
	}
	titles, conts := 0, 0
	for _, l := range lines {
		toks := LabelTokens(l)
		wantTitle := titleWords[strings.ToLower(strings.TrimSpace(l))] ||
			len(toks) > 0 && !slices.ContainsFunc(toks, func(w string) bool { return !titleWords[w] })
		if got := isTitle(l); got != wantTitle {
			t.Errorf("%q: isTitle %v, from its tokens %v", l, got, wantTitle)
		}
		wantCont := len(toks) > 0 && nameContinuations[toks[0]]
		if n, cont := leadWord(l); n != len(toks) || cont != wantCont {
			t.Errorf("%q: leadWord %d %v, from its tokens %d %v", l, n, cont, len(toks), wantCont)
		}
		if wantTitle {
			titles++
		}
		if wantCont {
			conts++
		}
	}
	if titles < 100 || conts < 300 {
		t.Errorf("%d titles and %d continuations among %d lines: the comparison says little", titles, conts, len(lines))
	}
}

// sameName builds an ASCII name's key on the stack exactly as LabelKey
// builds it, and answers as the keys do.
func TestSameNameKeysAreLabelKeys(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 1))
	pieces := []string{"TRI", " ", "Shaas", "SDN.", "BHD", "(728515-N)", "&", "  ", "-", "x", "Co", "."}
	var names []string
	for range 1500 {
		var b strings.Builder
		for range r.IntN(6) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		names = append(names, b.String())
	}
	same := 0
	for i, a := range names {
		if got, want := string(appendASCIIKey(nil, a)), LabelKey(a); got != want {
			t.Errorf("%q: key %q, LabelKey %q", a, got, want)
		}
		b := names[(i*7+3)%len(names)]
		x, y := LabelKey(a), LabelKey(b)
		want := x != "" && y != "" && (strings.Contains(x, y) || strings.Contains(y, x))
		if got := sameName(a, b); got != want {
			t.Errorf("%q, %q: sameName %v, by LabelKey %v", a, b, got, want)
		}
		if want {
			same++
		}
	}
	if same < 50 {
		t.Errorf("only %d pairs are the same name: the comparison says little", same)
	}
}
