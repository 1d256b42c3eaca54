package pipeline

import "testing"

// Class "an amount the checks do not read": naira written with a plain N
// ("N29,240.00"), a space grouping thousands after a currency prefix
// ("CHF 1 297.20", "R 5 154.80"), whole forint amounts ("HUF 51 800").
// The right figures pass; a wrong one (a subtotal or a piece of the
// number taken as the total) is flagged.
func TestAmountShapesAfterACurrencyPrefix(t *testing.T) {
	ng := "Lagos Office Hub Ltd\nInvoice No: LOH-2026-118\nSubtotal: N27,200.00\nVAT (7.5%): N2,040.00\nTotal: N29,240.00"
	ch := "Müller Treuhand AG\nRechnung Nr. 2026-0412\nNettobetrag CHF 1 200.00\nMWST 8.1% CHF 97.20\nTotal CHF 1 297.20"
	za := "Cape Hardware (Pty) Ltd\nTax Invoice 88213\nSubtotal R 4 482.43\nVAT 15% R 672.37\nTotal R 5 154.80"
	hu := "Kovács és Társa Kft.\nSzámla sorszáma: KT-2026-118\nNettó: HUF 40 787\nÁFA 27%: HUF 11 013\nFizetendő: HUF 51 800"
	m := func(kv ...any) map[string]any {
		r := map[string]any{}
		for i := 0; i < len(kv); i += 2 {
			r[kv[i].(string)] = kv[i+1]
		}
		return r
	}
	runClassCases(t, []classCase{
		{"naira with N right", ng, m("subtotal", 27200.0, "tax", 2040.0, "total", 29240.0, "currency", "NGN"), "", ""},
		{"naira with N, subtotal as total", ng, m("total", 27200.0), "total", ""},
		{"naira with N, tax as total", ng, m("tax", 2040.0, "total", 2040.0), "total", ""},
		{"swiss right", ch, m("subtotal", 1200.0, "tax", 97.2, "total", 1297.2, "currency", "CHF"), "", ""},
		{"swiss, the last group as total", ch, m("total", 297.2), "total", ""},
		{"swiss, net as total", ch, m("total", 1200.0), "total", ""},
		{"rand right", za, m("subtotal", 4482.43, "tax", 672.37, "total", 5154.8, "currency", "ZAR"), "", ""},
		{"rand, the last group as total", za, m("total", 154.8), "total", ""},
		{"rand, subtotal as total", za, m("total", 4482.43), "total", ""},
		{"forint right", hu, m("subtotal", 40787.0, "tax", 11013.0, "total", 51800.0, "currency", "HUF"), "", ""},
		{"forint, the last group as total", hu, m("total", 800.0), "total", ""},
	})
}

// Class "a rate read as an amount": Turkish writes the percent sign before
// the rate ("KDV %20", "(%20)"); 20 is the rate, never a tax of 20.00. A
// zero rate on a tax line ("(%0)", "VAT 0%") is what grounds a zero tax.
func TestPercentSignBeforeTheRate(t *testing.T) {
	tr := "ANADOLU ELEKTRONİK A.Ş.\nFatura No: ANE2026000000412\nMal Hizmet Toplamı 1.000,00 TL\n" +
		"Hesaplanan KDV (%20) 200,00 TL\nÖdenecek Tutar 1.200,00 TL"
	tr2 := "ÖZDEMİR GIDA LTD. ŞTİ.\nFiş No: 0412\nARA TOPLAM 100,00\nKDV %10 10,00\nTOPLAM 110,00"
	m := func(kv ...any) map[string]any {
		r := map[string]any{}
		for i := 0; i < len(kv); i += 2 {
			r[kv[i].(string)] = kv[i+1]
		}
		return r
	}
	export := "EGE MAKİNE SAN. A.Ş.\nFatura No: EGM2026000000091\nToplam 12.000,00 EUR\nKDV: ihracat istisnası (%0)"
	uk := "Harbour Books Ltd\nInvoice 2026-118\nChildren's books   £84.00\nVAT 0%\nTotal £84.00"
	runClassCases(t, []classCase{
		{"a zero rate grounds a zero tax", export, m("tax", 0.0, "total", 12000.0), "", ""},
		{"a zero rate is no tax of 12.00", export, m("tax", 12.0), "tax", ""},
		{"vat 0% grounds a zero tax", uk, m("tax", 0.0, "total", 84.0), "", ""},
		{"kdv right", tr, m("subtotal", 1000.0, "tax", 200.0, "total", 1200.0, "currency", "TRY"), "", ""},
		{"kdv (%20) read as 20.00", tr, m("tax", 20.0), "tax", ""},
		{"fiş kdv right", tr2, m("subtotal", 100.0, "tax", 10.0, "total", 110.0), "", ""},
		{"fiş kdv %10 read as the tax", tr2, m("tax", 10.0, "total", 110.0, "subtotal", 10.0), "subtotal", ""},
	})
}

// Class "kr of another country": Swedish, Norwegian and Danish all print
// "kr"; the document's own country (its organisation number with MVA, a
// CVR number, the words it uses) says which krone or krona it is, and a
// record naming another is flagged.
func TestKronaByTheDocumentsCountry(t *testing.T) {
	c := func(code string) map[string]any { return map[string]any{"currency": code} }
	no := "Bergen Kaffebar AS\nOrg.nr 912 345 678 MVA\nKvittering 0412\nTotalt kr 245,00\nHerav mva 15% kr 31,96"
	dk := "Café Nørrebro ApS\nCVR-nr. 12345678\nKvittering nr. 118\nI alt kr. 189,00\nHeraf moms kr. 37,80"
	se := "Kaffebaren i Lund AB\nOrg.nr 556123-4567\nKvitto 2026-11-20\nSumma kr 189,00\nvarav moms 12% 20,25"
	runClassCases(t, []classCase{
		{"norwegian kr right", no, c("NOK"), "", ""},
		{"norwegian kr as sek", no, c("SEK"), "currency", "NOK"},
		{"danish kr right", dk, c("DKK"), "", ""},
		{"danish kr as sek", dk, c("SEK"), "currency", "DKK"},
		{"swedish kr right", se, c("SEK"), "", ""},
		{"swedish kr as nok", se, c("NOK"), "currency", "SEK"},
	})
}

// The same shapes with the currency after the amount or as a local
// abbreviation: "1 297.20 CHF", "Fr. 1 297.20", "kr 1 250", "N 29,376.00".
func TestAmountShapesAroundTheCurrency(t *testing.T) {
	tot := func(v float64) map[string]any { return map[string]any{"total": v} }
	chf := "Treuhand AG\nRechnung 2026-0412\nTotal 1 297.20 CHF"
	fr := "Treuhand AG\nRechnung 2026-0412\nTotal Fr. 1 297.20"
	kr := "Kaffebaren AB\nKvitto 118\nTotalt kr 1 250"
	ng := "Lagos Hub\nInvoice 118\nTotal: N 29,376.00"
	runClassCases(t, []classCase{
		{"chf after", chf, tot(1297.2), "", ""},
		{"chf after, last group", chf, tot(297.2), "total", ""},
		{"fr. before", fr, tot(1297.2), "", ""},
		{"fr. before, last group", fr, tot(297.2), "total", ""},
		{"kr before a whole amount", kr, tot(1250.0), "", ""},
		{"kr before, last group", kr, tot(250.0), "total", ""},
		{"naira N and a space", ng, tot(29376.0), "", ""},
		{"naira N and a space, a piece", ng, tot(376.0), "total", ""},
	})
}

// The Philippine peso written "P 493.00" on every amount line is the
// document's currency: a null currency is an omission, USD a contradiction.
func TestPesoWrittenP(t *testing.T) {
	ph := "JOLLIBEE-STYLE EATERY CORP.\nVAT REG TIN 123-456-789-000\nOFFICIAL RECEIPT No. 0045512\n" +
		"1 Burger meal        P 159.00\n1 Iced tea           P  45.00\nVAT 12%              P  21.86\nTOTAL                P 204.00"
	runClassCases(t, []classCase{
		{"php right", ph, map[string]any{"currency": "PHP", "total": 204.0}, "", ""},
		{"null currency", ph, map[string]any{"currency": nil, "total": 204.0}, "currency", `"P"`},
		{"usd", ph, map[string]any{"currency": "USD", "total": 204.0}, "currency", "PHP"},
	})
}
