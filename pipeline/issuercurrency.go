package pipeline

import "context"

// ImpliedCurrency is the currency a document that prints none owes to its
// issuer's place, when two independent kinds of evidence agree on it: the
// legal form or a place name the issuer prints ("SDN BHD", "SELANGOR",
// "株式会社") and a number it prints about itself in that country's format
// (a Malaysian GST number, a telephone country code, a Japanese
// registration number). One kind alone is a hint, not a reading: ok is false
// then. why names both, for the evidence.
func ImpliedCurrency(ctx context.Context, text string, s *Schema) (code, why string, ok bool, err error) {
	d, err := analyze(ctx, text, s)
	if err != nil {
		return "", "", false, err
	}
	if _, _, _, printed := d.amountCurrency(); printed {
		return "", "", false, nil
	}
	i, _, named := d.countryName()
	if !named {
		return "", "", false, nil
	}
	byName := countryCurrencies[i].code
	code, why = byName, "\""+countryCurrencies[i].text+"\""
	byNumber, _, hint, _, found := d.issuerPlace(true)
	if !found || byNumber != byName {
		return "", "", false, nil
	}
	return code, why + " and " + hint, true, nil
}
