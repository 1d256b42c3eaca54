package pipeline

import "testing"

// Many documents date themselves after the place they were written, in
// words: French "Dakar, le 20 novembre 2026", Latvian "Rīgā, 2026. gada
// 20. novembrī" (the month declined). The issue date is read there, its span
// covers the printed date, and a due date or another day is flagged.
func TestIssueDateAfterAPlaceInWords(t *testing.T) {
	fr := "Société Sahel Services SARL\nFacture N° 2026-118\nDakar, le 20 novembre 2026\n" +
		"Prestation de conseil 500 000\nÉchéance : 20 décembre 2026\nTotal TTC : 590 000 FCFA"
	lv := "SIA Baltijas Serviss\nRēķins Nr. 2026/118\nRīgā, 2026. gada 20. novembrī\n" +
		"Apmaksāt līdz 2026. gada 4. decembrim\nKopā apmaksai: 121,00 EUR"
	lvMarch := "SIA Daugava\nRēķins Nr. 77\nLiepājā, 2026. gada 3. martā\nKopā: 60,50 EUR"
	runDateCases(t, []classCase{
		{"FR true date", fr, map[string]any{"invoice_date": "2026-11-20"}, "", ""},
		{"FR due date", fr, map[string]any{"invoice_date": "2026-12-20"}, "invoice_date", "Échéance"},
		{"FR another day", fr, map[string]any{"invoice_date": "2026-11-21"}, "invoice_date", "not found"},
		{"LV true date", lv, map[string]any{"invoice_date": "2026-11-20"}, "", ""},
		{"LV due date", lv, map[string]any{"invoice_date": "2026-12-04"}, "invoice_date", "Apmaksāt līdz"},
		{"LV another day", lv, map[string]any{"invoice_date": "2026-11-21"}, "invoice_date", "not found"},
		{"LV March true date", lvMarch, map[string]any{"invoice_date": "2026-03-03"}, "", ""},
		{"LV March as May", lvMarch, map[string]any{"invoice_date": "2026-05-03"}, "invoice_date", "not found"},
	})
	for _, c := range []struct{ text, iso, printed string }{
		{fr, "2026-11-20", "20 novembre 2026"},
		{lv, "2026-11-20", "2026. gada 20. novembrī"},
		{lvMarch, "2026-03-03", "2026. gada 3. martā"},
	} {
		spans := validateHO(t, c.text, map[string]any{"invoice_date": c.iso}).FieldProvenance["invoice_date"]
		if len(spans) == 0 {
			t.Errorf("%s: no span", c.printed)
			continue
		}
		if got := string([]rune(c.text)[spans[0].Start:spans[0].End]); got != c.printed {
			t.Errorf("span reads %q, want %q", got, c.printed)
		}
	}
}
