package pipeline

import "testing"

// Class "a postcode or a year read as the tax": a tax word before a
// postcode ("Tax Office Kadıköy 34710") or a year ("GST exempt (2026)")
// does not label it as the tax where the document writes its amounts with
// cents: a null tax is no omission, and the number taken for the tax is
// flagged without calling it the labelled tax.
func TestPostcodesAndYearsAreNoTax(t *testing.T) {
	tr := "Tax Office Kadıköy 34710\nAcme Ltd Şti\nFatura 412\nToplam 100,00 TL"
	us := "Acme LLC\nInvoice 412\nGST exempt (2026)\nTotal 100.00"
	runClassCases(t, []classCase{
		{"TR null tax beside a postcode", tr, map[string]any{"tax": nil, "total": 100.0}, "", ""},
		{"TR postcode as tax", tr, map[string]any{"tax": 34710.0, "total": 100.0}, "tax", "not below the total"},
		{"US null tax beside a year", us, map[string]any{"tax": nil, "total": 100.0}, "", ""},
		{"US year as tax", us, map[string]any{"tax": 2026.0, "total": 100.0}, "tax", "not below the total"},
		{"a labelled tax with cents still omitted", "ACME\nSUBTOTAL 100.00\nGST 6.00\nTOTAL 106.00",
			map[string]any{"subtotal": 100.0, "tax": nil, "total": 106.0}, "tax", "labels 6.00 as tax"},
	})
}
