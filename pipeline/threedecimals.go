package pipeline

import (
	"fmt"
	"math"
	"strings"
)

// threeDecimalCurrencies keep three decimals in their minor unit: the fils
// of the Kuwaiti, Bahraini and Jordanian dinar, the Omani baisa, the
// Tunisian millime, the Libyan dirham. A "1.250" there is one and a
// quarter, never 1,250. The Iraqi dinar is left out: its fils are not in
// use, so "25.000 IQD" groups thousands.
var threeDecimalCurrencies = map[string]string{"KWD": "Kuwaiti dinar", "BHD": "Bahraini dinar",
	"OMR": "Omani rial", "JOD": "Jordanian dinar", "TND": "Tunisian dinar", "LYD": "Libyan dinar"}

// threeDecimals is the three-decimal currency a document's amounts are in,
// or "": the currency its signs print beside them ("KD 1.250", "1.785 DT")
// when they print one; else the first ISO code of such a currency the text
// prints as a currency ("Total KWD 1.250", "Amount (OMR)"); else the one
// the issuer's country implies. Asked only of a number that could group
// thousands ("1.250"), so most documents never ask.
func (d *doc) threeDecimals() string {
	return d.facts.threeDec.get(func() string {
		code, _, _, ok := d.amountCurrency()
		if !ok {
			code = d.threeDecimalCode()
		}
		if code == "" {
			code, _, _ = d.countryCurrency()
		}
		if _, three := threeDecimalCurrencies[code]; three {
			return code
		}
		return ""
	})
}

// threeDecimalCode is the first ISO code of a three-decimal currency the
// text prints as a whole word in a currency context, or "".
func (d *doc) threeDecimalCode() string {
	rs := d.rs
	for i := 0; i+3 <= len(rs); i++ {
		if i > 0 && isWordRune(rs[i-1]) || i+3 < len(rs) && isWordRune(rs[i+3]) {
			continue
		}
		switch rs[i] {
		case 'K', 'B', 'O', 'J', 'T', 'L':
		default:
			continue
		}
		code := string(rs[i : i+3])
		if _, three := threeDecimalCurrencies[code]; three && d.inCurrencyContext(Span{Start: i, End: i + 3}) {
			return code
		}
	}
	return ""
}

// printsAmountIn is printsAmount in this document: where its currency has
// three decimals, a dot before three digits is the decimal point, so
// "1.250" prints 1.25 alone and is not ambiguous.
func (d *doc) printsAmountIn(a *labelledAmount, x float64) (match, amb bool) {
	m, amb := printsAmount(a, x)
	if amb && d.threeDecimals() != "" {
		return math.Abs(math.Abs(a.Value)-math.Abs(x)) < amountEpsilon, false
	}
	return m, amb
}

// threeDecimalMisread is the reason for x when it is a printed amount of a
// three-decimal currency read with its dot grouping thousands ("1.250" in
// KWD read as 1250), or "".
func (d *doc) threeDecimalMisread(x float64) string {
	for i := range d.amounts {
		a := &d.amounts[i]
		if !dotThousands(a.Raw) || math.Abs(math.Abs(a.Value)*1000-math.Abs(x)) >= amountEpsilon {
			continue
		}
		code := d.threeDecimals()
		if code == "" {
			return ""
		}
		return fmt.Sprintf("%q is %s %s: amounts in the %s keep three decimals, so it is not %s", a.Raw,
			strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.3f", math.Abs(a.Value)), "0"), "."), code,
			threeDecimalCurrencies[code], FormatFloat(x))
	}
	return ""
}
