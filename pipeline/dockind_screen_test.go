package pipeline

import (
	"context"
	"strings"
	"testing"
)

// Screening the lines for the first word of a non-invoice title gives the
// kind that building every line's key gave, and keyWords counts the words
// of each line's key: on every stored document, and on titles in any case,
// beyond ASCII, between punctuation, below blank and punctuation lines, on
// subject lines and in sentences.
func TestNonInvoiceKindScreenMatchesKeys(t *testing.T) {
	texts := []string{
		"QUOTATION\nAcme Ltd\nQuote no. Q-17\nTotal 10.00",
		"---\n\n***\nCOTIZACIÓN Nº 5\nTaller García S.L.",
		"Tax Invoice / Delivery Order\nAcme Sdn Bhd\nNo 4",
		"Acme GmbH\nMusterstr. 1\n10115 Berlin\nDear customer,\nSubject: Pro-Forma invoice 2026/17\nAmount 5,00",
		"ORÇAMENTO\nOficina Lda\n",
		"Acme\nThis is not a purchase order but a long sentence about one\nLieferschein 17",
		"Relevé de compte\nBanque X",
		"ＰＲＯＦＯＲＭＡ\n株式会社さくら\n見積書",
		"\u212aontoauszug\nİNVOICE\nAlbarán 9",
		"Statement of Account\nInvoice 7\n",
		"x\ny\nz\nsubject\nsubject quote for works\nSUBJECT: Bon de commande n° 5 pour les travaux du mois de mars au siège",
	}
	for _, g := range goldenDocuments(t) {
		texts = append(texts, g.text)
	}
	kinds := 0
	for _, text := range texts {
		d, err := analyze(context.Background(), text, Invoice())
		if err != nil {
			t.Fatal(err)
		}
		for l := range d.lineStarts {
			ls, le := d.lineBounds(l)
			want := strings.Count(d.paddedLineKey(l), " ") - 1 // a padded key's words are between single spaces
			if d.paddedLineKey(l) == "  " {
				want = 0
			}
			if got := keyWords(d.rs[ls:le]); got != want {
				t.Fatalf("keyWords(%q) = %d; its key %q has %d words", d.str(ls, le), got, d.paddedLineKey(l), want)
			}
		}
		got, want := d.nonInvoiceKind(), d.nonInvoiceKindKeyed()
		if got != want {
			t.Fatalf("nonInvoiceKind = %q; building every key gives %q\n%s", got, want, text)
		}
		if got != "" {
			kinds++
		}
	}
	if kinds < 5 {
		t.Fatalf("only %d documents are titled with a non-invoice kind: the comparison covers too few", kinds)
	}
	t.Logf("%d non-invoice kinds found, as building every key finds them", kinds)
}
