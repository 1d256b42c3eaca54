package pipeline

import (
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
		return addressWordIn(toks)
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
