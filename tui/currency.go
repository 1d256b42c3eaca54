package tui

import (
	"fmt"
	"strings"

	"golang.org/x/text/currency"
)

// currencySigns are the printed signs that name one currency, as money
// parsing reads them next to an amount ("RM 12.50", "12,50 €"). Signs several
// currencies share ($, ¥, kr) are refused: the reviewer types the code.
var currencySigns = map[string]string{
	"€": "EUR", "£": "GBP", "RM": "MYR", "₹": "INR", "RS": "INR", "RS.": "INR", "RP": "IDR", "₩": "KRW",
	"₱": "PHP", "฿": "THB", "R$": "BRL", "₽": "RUB", "ZŁ": "PLN", "US$": "USD", "S$": "SGD", "SG$": "SGD",
	"A$": "AUD", "AU$": "AUD", "C$": "CAD", "CA$": "CAD", "HK$": "HKD", "NZ$": "NZD", "MX$": "MXN",
	"円": "JPY", "元": "CNY", "RMB": "CNY",
}

var sharedSigns = map[string]string{"$": "USD, SGD, AUD, CAD…", "¥": "JPY or CNY", "￥": "JPY or CNY", "KR": "SEK, NOK or DKK"}

// parseCurrency reads an ISO 4217 code (any case) or an unambiguous sign and
// returns the code; an unknown code is refused, not stored.
func parseCurrency(s string) (any, error) {
	up := strings.ToUpper(strings.TrimSpace(s))
	if code, ok := currencySigns[up]; ok {
		return code, nil
	}
	if which, ok := sharedSigns[up]; ok {
		return nil, fmt.Errorf("%q could be %s: type the 3-letter code", s, which)
	}
	u, err := currency.ParseISO(up)
	if err != nil || len(up) != 3 {
		return nil, fmt.Errorf("%q is not a currency code or sign (e.g. EUR, €, RM)", s)
	}
	return u.String(), nil
}
