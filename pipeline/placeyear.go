package pipeline

import "math"

// placeOrYear reports a plain number a money label may stand before
// without labelling it: a year (1900-2100) or a five-digit postcode
// ("Tax Office Kadıköy 34710", "GST exempt (2026)"), in a document whose
// amounts carry cents.
func placeOrYear(a labelledAmount) bool {
	n := len(a.Raw)
	if n < 4 || n > 5 || !allDigits(a.Raw) {
		return false
	}
	v := math.Abs(a.Value)
	return n == 5 || v >= 1900 && v <= 2100
}

// unlabelPlacesAndYears takes the tax role from the years and postcodes a
// tax word stands before, where the document writes its amounts with cents
// and every one of them is smaller: no tax exceeds the total, and a null
// tax is no omission for them.
func unlabelPlacesAndYears(amounts []labelledAmount) {
	largest, cents := 0.0, false
	for i := range amounts {
		if centsForm(amounts[i].Raw) {
			largest, cents = max(largest, math.Abs(amounts[i].Value)), true
		}
	}
	if !cents {
		return
	}
	for i := range amounts {
		if a := &amounts[i]; a.role == RoleTax && !a.summary && placeOrYear(*a) && math.Abs(a.Value) > largest {
			a.role = roleOther
		}
	}
}
