package pipeline

import (
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode"
)

// The ASCII fast path of labelTokens cuts, lowercases and places every
// token exactly as the general path does.
func TestASCIILabelTokensAgreeWithGeneralPath(t *testing.T) {
	texts := []string{"", "TOTAL(INCL.GST)", "total incl gst", "total  incl", " total", "total ", "a b c", "  Sub-Total & Tax: 12.50 RM\n", "A&W  NSW 2000",
		"Invoice No.: INV-1001/26", "\t\x00\x7f~[]{}|`^_@", "abc123DEF", "&&&", "x"}
	// Every ASCII byte, and random ASCII strings over them.
	all := make([]byte, 128)
	for i := range all {
		all[i] = byte(i)
	}
	texts = append(texts, string(all))
	rng := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		b := make([]byte, rng.IntN(40))
		for i := range b {
			b[i] = byte(rng.IntN(128))
		}
		texts = append(texts, string(b))
	}
	for _, s := range texts {
		if got, want := asciiLabelTokens(s), runeLabelTokens(s); !slices.Equal(got, want) {
			t.Fatalf("%q: ascii path %v, general path %v", s, got, want)
		}
		var words []string
		for _, tok := range runeLabelTokens(s) {
			words = append(words, tok.text)
		}
		if got, want := asciiLabelKey(s), strings.Join(words, " "); got != want {
			t.Fatalf("%q: ascii key %q, general key %q", s, got, want)
		}
	}
}

// tokenBefore finds the word labelTokens cuts right before each word.
func TestTokenBeforeIsLabelTokensPreviousWord(t *testing.T) {
	for _, s := range []string{"Sydney NSW 2000", "株式会社さくら商事 TEL 03-1234", "TOTAL(INCL.GST)&X", "Ünïcödé  straße 5a",
		"北京市 100000, NY 10013", "İstanbul VİC 3000", "ＡＢＣ １２３", "  ,, x"} {
		rs := []rune(s)
		toks := labelTokens(s)
		for i, tok := range toks {
			got, ok := tokenBefore(rs, tok.start)
			if i == 0 {
				if ok {
					t.Errorf("%q: a word before the first word %q: %v", s, tok.text, got)
				}
				continue
			}
			if want := (Span{Start: toks[i-1].start, End: toks[i-1].end}); !ok || got != want {
				t.Errorf("%q: before %q got %v, labelTokens has %v", s, tok.text, got, want)
			}
		}
	}
}

// A state code is read only in capitals and only before a postcode that is
// a word of its own; an Australian address anywhere outranks a US one.
func TestAddressOrder(t *testing.T) {
	cases := []struct {
		text  string
		order DateOrder
		at    string
	}{
		{"88 Campbell Parade, Bondi Beach NSW 2026", OrderDMY, "NSW 2026"},
		{"Pound Ridge, NY 10576-1234", OrderMDY, "NY 10576"},
		{"Pound Ridge, NY 10576\nShipped from VIC, 3000", OrderDMY, "VIC, 3000"},
		{"bondi nsw 2026", OrderUnknown, ""},
		{"Bondi NSW 20265", OrderUnknown, ""},
		{"Bondi NSW2026", OrderUnknown, ""},
		{"Bondi NSW 2026a", OrderUnknown, ""},
		{"Albany Ny 12207", OrderUnknown, ""},
		{"東京 NY 10013", OrderMDY, "NY 10013"},
		{"東 2026 and 10013", OrderUnknown, ""},
	}
	for _, c := range cases {
		d := &doc{rs: []rune(c.text)}
		order, why, ok := d.addressOrder()
		if order != c.order || ok != (c.order != OrderUnknown) || c.at != "" && !strings.Contains(why, c.at) {
			t.Errorf("%q: %v %q %v, want %v naming %q", c.text, order, why, ok, c.order, c.at)
		}
	}
}

// LabelTokens is the text of labelTokens' tokens, on either path.
func TestLabelTokensAreLabelTokensTexts(t *testing.T) {
	for _, s := range []string{"", "TOTAL(INCL.GST)", " a  b ", "Straße 5 & Co", "株式会社 ABC", "x&y-z"} {
		var want []string
		for _, tok := range labelTokens(s) {
			want = append(want, tok.text)
		}
		if got := LabelTokens(s); !slices.Equal(got, want) {
			t.Errorf("%q: LabelTokens %q, labelTokens %q", s, got, want)
		}
	}
}

// endsInLegalForm reads an ASCII line without allocating and decides as it
// does from LabelTokens.
func TestASCIIEndsInLegalFormAgrees(t *testing.T) {
	for w := range titleWords {
		if isASCII(w) && len(w) > maxLookupWord {
			t.Errorf("title word %q is longer than maxLookupWord", w)
		}
	}
	for _, f := range legalForms {
		for _, w := range f {
			if len(w) > maxLookupWord {
				t.Errorf("legal form word %q is longer than maxLookupWord", w)
			}
		}
	}
	lines := []string{"VIVOPAC MARKETING SDN BHD (1070687-M)", "Muller Druck GmbH", "Invoice AB/77/2026", "SDN BHD",
		"KING'S CONFECTIONERY S/B 273500-U (KSB)", "TAX INVOICE SDN BHD", "Acme Pty. Ltd.", "ACME", "",
		"a b c d e f g h i j k l m n o p q r s t u v w x y z Ltd", "Tax Invoice Receipt Ltd", "S.A. DE C.V. Foo S.A. de C.V.",
		"simplifiedsimplifiedsimplified LLC", "Cash & Carry Sp. z o.o.", "GST REG 123 Enterprise"}
	for _, l := range lines {
		ends, ok := asciiEndsInLegalForm(l)
		if !ok {
			continue // the general path decides
		}
		if want := tokensEndInLegalForm(LabelTokens(l)); ends != want {
			t.Errorf("%q: ascii path %v, general path %v", l, ends, want)
		}
	}
}

// countryName finds, in one pass, what searching the folded text for each
// country needle in list order finds: the first needle printed with no
// letter glued to it, at its first such occurrence.
func TestCountryNameIsTheFirstNeedleFound(t *testing.T) {
	texts := []string{"ACME SDN. BHD\nKuala  Lumpur, MALAYSIA\n株式会社 Ö\nTotal RM 9.00", "MALAYSIAN SDN BHDX SDN BHD",
		"Zürich ÖSTERREICH und Deutschland", "日本 有限会社", "PTY. LTD PTY LTD", "nothing here", "",
		"S.A. DE C.V.S.A. DE C.V. M.N.", "NEGERI SEMBILANEGERI SEMBILAN", "penangPENANG, PENANG"}
	r := rand.New(rand.NewPCG(3, 5))
	// Later needles and needles glued into words ("perhaps") too: the
	// trigram screen lets a needle through that a word holds.
	pieces := []string{"SDN", " ", "BHD", ".", "S/B", "PTY", "LTD", "日本", "株式会社", "X", "PENANG", "Ö", "\n", "1",
		"SELANGOR", "perhaps", "QATAR", "ÍSLAND", "Malaysian"}
	hits := 0
	for range 400 {
		var b strings.Builder
		for range r.IntN(12) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		texts = append(texts, b.String())
	}
	s := Invoice()
	for _, text := range texts {
		d, err := analyze(context.Background(), text, s)
		if err != nil {
			t.Fatal(err)
		}
		want, wantSp := -1, Span{}
		for i, n := range countryNeedles {
			if s := letterBounded(d.rs, d.fold.find(n)); len(s) > 0 {
				want, wantSp = i, s[0]
				break
			}
		}
		i, sp, ok := d.countryName()
		if !ok {
			i = -1
		}
		if ok {
			hits++
		}
		if i != want || ok && sp != wantSp {
			t.Errorf("%q: countryName %d %v, searching each needle %d %v", text, i, sp, want, wantSp)
		}
	}
	if hits < len(texts)/5 {
		t.Errorf("only %d of %d texts print a country needle: the comparison says little", hits, len(texts))
	}
}

// segmentEnd cuts where firstSegment's separators, applied one after
// another to what the ones before left, cut.
func TestSegmentEndAppliesTheSeparatorsInTurn(t *testing.T) {
	oracle := func(line string) string {
		for _, sep := range segmentSeps {
			if i := strings.Index(line, sep); i > 0 {
				line = line[:i]
			}
		}
		return line
	}
	lines := []string{"ORBITAL COMPONENTS SDN BHD      INVOICE OC-26-1190", "Mercer Contracting Ltd, 8 Canal St", ", a, b",
		"a - b   c", "x\t - y", "A ,  B", "a  -  b", " - a", "a · b | c — d", ""}
	r := rand.New(rand.NewPCG(7, 11))
	pieces := []string{"a", " ", ",", "\t", "-", "|", "·", "—", "  "}
	for range 2000 {
		var b strings.Builder
		for range r.IntN(10) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		lines = append(lines, b.String())
	}
	for _, l := range lines {
		if got, want := l[:segmentEnd(l)], oracle(l); got != want {
			t.Errorf("%q: segmentEnd keeps %q, the separators in turn %q", l, got, want)
		}
	}
}

// splitLabelTokens is labelTokens as first written, a string per word:
// each CJK rune a word, each run of letters, digits and "&" another,
// lowered.
func splitLabelTokens(s string) []token {
	var out []token
	var cur []rune
	start, pos := 0, 0
	flush := func() {
		if len(cur) > 0 {
			out = append(out, token{text: string(cur), start: start, end: pos})
			cur = cur[:0]
		}
	}
	for _, r := range s {
		switch {
		case isCJK(r):
			flush()
			out = append(out, token{text: string(unicode.ToLower(r)), start: pos, end: pos + 1})
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '&':
			if len(cur) == 0 {
				start = pos
			}
			cur = append(cur, unicode.ToLower(r))
		default:
			flush()
		}
		pos++
	}
	flush()
	return out
}

// LabelKey, LabelTokens and labelTokens split, lower and place the words
// as splitLabelTokens does, and a line's padded key is the LabelKey of its
// text padded, on texts in any script: CJK runes are words of their own,
// marks and invalid bytes dropped.
func TestLabelKeyIsTheTokensJoined(t *testing.T) {
	texts := []string{"", "株式会社さくら商事 (Sakura Shoji Co., Ltd.)", "FACTURE N° F-2026-031", "  Émetteur : Boulangerie",
		"ＩＮＶ－２０２６ No．5", "İSTANBUL \u212Aelvin ǅ ß ΣΑΣ", "請求書 / INVOICE", "bad \xff utf-8 \xc3", "Re\u0301sume\u0301 & Co",
		"١٢٣ فاتورة", "x", "—", "Subject: 見積書"}
	pieces := []string{"a", "Z", " ", "&", "-", "é", "Ü", "株", "さ", "ｶ", "１", "٣", "\u0301", "\u00a0", "\u3000", ".", "\xff", "\n", "İ"}
	rng := rand.New(rand.NewPCG(5, 8))
	for range 3000 {
		var b strings.Builder
		for range rng.IntN(14) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		texts = append(texts, b.String())
	}
	schema := Invoice()
	for _, s := range texts {
		want := splitLabelTokens(s)
		if got := labelTokens(s); !slices.Equal(got, want) {
			t.Fatalf("labelTokens(%q) = %v, want %v", s, got, want)
		}
		var words []string
		for _, tok := range want {
			words = append(words, tok.text)
		}
		if got := LabelTokens(s); !slices.Equal(got, words) {
			t.Fatalf("LabelTokens(%q) = %q, want %q", s, got, words)
		}
		if got, want := LabelKey(s), strings.Join(words, " "); got != want {
			t.Fatalf("LabelKey(%q) = %q, the tokens joined %q", s, got, want)
		}
		d, err := analyze(context.Background(), s, schema)
		if err != nil {
			t.Fatal(err)
		}
		for l := range d.lineStarts {
			ls, le := d.lineBounds(l)
			if got, want := d.paddedLineKey(l), " "+LabelKey(string(d.rs[ls:le]))+" "; got != want {
				t.Fatalf("line %d of %q: padded key %q, want %q", l, s, got, want)
			}
		}
	}
}
