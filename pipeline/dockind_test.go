package pipeline

import (
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// A non-invoice document's own number is not an invoice number: a quote, a
// pro-forma, a purchase order, a delivery note or a statement of account
// (its title says so, in a title line or an e-mail subject) flags the number
// a record gives as invoice_number, naming the document's kind, so a
// reviewer keeps it only when quotes are extracted on purpose. A title that
// names an invoice beside another kind ("TAX INVOICE / DELIVERY ORDER") is an
// invoice, and a sentence that mentions a quote is no title.
func TestNonInvoiceDocumentNumber(t *testing.T) {
	quote := "PRESUPUESTO / QUOTATION\nReformas Hermanos Ruiz S.L.\nNº Presupuesto: P-2026-041\nTOTAL PRESUPUESTO  5.263,50"
	mail := "Subject: Quote Q-5521 for your kitchen\nHi Mr. Dlamini,\nAs discussed, our quote is below; we'll issue an invoice on completion.\nQuote total  R 69,575.00"
	pi := "PROFORMA INVOICE  (not a tax invoice)\nShenzhen Brightlite Electronics Co., Ltd\nPI No.: PI20260311-07\nTOTAL USD 4,800.00"
	dn := "DELIVERY NOTE / LIEFERSCHEIN\nAlpenholz AG, Chur\nLieferschein Nr. LS-88120\nWarenwert  CHF 372.80"
	both := "TAX INVOICE / DELIVERY ORDER\nACME TRADING SDN BHD\nInvoice No: DO-7781\nTOTAL  RM 50.00"
	prose := "ACME TRADING\nInvoice No: A-17\nThank you for accepting our quote last month\nTOTAL  50.00"
	id := func(v string) map[string]any { return map[string]any{"invoice_number": v} }
	runClassCases(t, []classCase{
		{"quote", quote, id("P-2026-041"), "invoice_number", "quotation, not an invoice"},
		{"quote by e-mail", mail, id("Q-5521"), "invoice_number", "quote, not an invoice"},
		{"pro-forma", pi, id("PI20260311-07"), "invoice_number", "proforma, not an invoice"},
		{"delivery note", dn, id("LS-88120"), "invoice_number", "delivery note"},
		{"invoice and delivery order", both, id("DO-7781"), "", ""},
		{"quote in a sentence", prose, id("A-17"), "", ""},
	})
}

func TestHasKeyPhraseIsContainsOfThePaddedPhrase(t *testing.T) {
	keys := []string{" ", "  ", " quote ", " quotation no 5 ", " re quote ", " misquote ", " quotes ", " quote quote ", " a quotequote quote ", " pro forma invoice ", " proforma "}
	phrases := []string{"quote", "quotation", "pro forma", "proforma", "forma", "invoice", "a", "q"}
	for _, k := range keys {
		for _, p := range phrases {
			if got, want := hasKeyPhrase(k, p), strings.Contains(k, " "+p+" "); got != want {
				t.Errorf("hasKeyPhrase(%q, %q) = %v, want %v", k, p, got, want)
			}
		}
	}
}

func TestMayHoldSubjectIsASupersetOfSubjectKeys(t *testing.T) {
	text := "ACME\nSubject: Quote 5\nSUBJECT Quote\nre: sub-ject\nsubjec t\nSSubject x\n件名 Subject\nnothing here\n\n sUbJeCt" +
		"\nBetreff – Subject: Angebot\nＳubject\nSubjéct\nSUBJECTÜ\nİ\u212A subject\nSub\u212Aject\nОбъект: предложение"
	d, err := analyze(context.Background(), text, Invoice())
	if err != nil {
		t.Fatal(err)
	}
	for l := range d.lineStarts {
		key := d.paddedLineKey(l)
		if strings.HasPrefix(key, " subject ") && !d.mayHoldSubject(l) {
			t.Errorf("line %d (key %q) starts with subject but mayHoldSubject says no", l, key)
		}
	}
	if d.mayHoldSubject(7) {
		t.Errorf("line 7 (%q) cannot hold subject", "nothing here")
	}
	// A line beyond ASCII is keyed only when it spells the word.
	if last := len(d.lineStarts) - 1; d.mayHoldSubject(last) {
		t.Errorf("line %d (key %q) cannot hold subject", last, d.paddedLineKey(last))
	}
	if !d.mayHoldSubject(10) {
		t.Errorf("line 10 (key %q) holds subject", d.paddedLineKey(10))
	}
}

// titlesIn finds, from each word, what comparing every title with the
// whole key finds: the first non-invoice title in list order, and whether
// an invoice title is there. The titles are keys, the invoice titles one
// word each, as its lookups need.
func TestTitlesInIsEachTitleSearched(t *testing.T) {
	for _, title := range append(slices.Clone(nonInvoiceTitles), invoiceTitles...) {
		if LabelKey(title) != title {
			t.Errorf("title %q is not in LabelKey form", title)
		}
	}
	for _, title := range invoiceTitles {
		if strings.Contains(title, " ") {
			t.Errorf("invoice title %q is more than one word", title)
		}
	}
	words := []string{"pro", "forma", "proforma", "invoice", "quote", "quotation", "purchase", "order", "de", "compte",
		"relevé", "bon", "commande", "statement", "of", "account", "bill", "x", "estado", "cuenta", "delivery", "note"}
	rng := rand.New(rand.NewPCG(9, 4))
	keys := []string{" pro forma invoice ", " purchase order ", " relevé de compte ", " bon de bon de commande "}
	for range 5000 {
		var b strings.Builder
		b.WriteByte(' ')
		for range 1 + rng.IntN(7) {
			b.WriteString(words[rng.IntN(len(words))])
			b.WriteByte(' ')
		}
		keys = append(keys, b.String())
	}
	for _, key := range keys {
		want := -1
		for i, title := range nonInvoiceTitles {
			if hasKeyPhrase(key, title) {
				want = i
				break
			}
		}
		wantInvoice := slices.ContainsFunc(invoiceTitles, func(t string) bool { return hasKeyPhrase(key, t) })
		if got, invoice := titlesIn(key); got != want || invoice != wantInvoice {
			t.Fatalf("titlesIn(%q) = %d, %v; each title searched: %d, %v", key, got, invoice, want, wantInvoice)
		}
	}
}
