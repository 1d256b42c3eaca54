package pipeline

import "testing"

// currencyScreenTexts hold every shape the two screens must let through
// (a code in brackets after a label, in any case, with "ſ" or the Kelvin
// sign; "pay in GBP" across spaces and lines) and near misses.
var currencyScreenTexts = []string{
	"Amount (AED) 12.00", "BETRAG (in EUR)", "total amount (usd)", "Summe (ſek)", "Price (\u212Aes)", "Total(EUR)",
	"Amount (EU)", "Amount (EURO)", "Amount (€)", "(Std.)", "Preis (EUR )",
	"Please pay in GBP.", "payable IN usd", "zahlbar in\n\t CHF", "à payer en EUR", "Amounts in EURO", "paid in GBP_",
	"pay inGBP", "pay in GBPs", "Pay EN EUR", "pagare in EUR1", "pay in  GBP", "pay ın GBP", "GBP", "in GBP", "",
}

// The screens say no only where the regexps cannot match: on the shapes
// above, the receipts and whatever the fuzzer writes.
func TestCurrencyScreensPassEveryMatch(t *testing.T) {
	texts := currencyScreenTexts
	for _, r := range loadReceipts(t) {
		texts = append(texts, r.Text)
	}
	for _, text := range texts {
		checkCurrencyScreens(t, text)
	}
	if mayHeadCode("Amount (EU) (Std.)") || mayPayIn("pay in GBPs, in EURO") {
		t.Error("a screen lets through a text its regexp cannot match")
	}
}

func FuzzCurrencyScreens(f *testing.F) {
	for _, s := range currencyScreenTexts {
		f.Add(s)
	}
	f.Fuzz(checkCurrencyScreens)
}

func checkCurrencyScreens(t *testing.T, text string) {
	if headerCode.MatchString(text) && !mayHeadCode(text) {
		t.Errorf("headerCode matches %q, but mayHeadCode says it cannot", text)
	}
	if proseCode.MatchString(text) && !mayPayIn(text) {
		t.Errorf("proseCode matches %q, but mayPayIn says it cannot", text)
	}
}
