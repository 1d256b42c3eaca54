package pipeline

import "testing"

// Income tax the buyer withholds and pays the tax office itself, printed
// between the invoice's total and the net it pays ("Retenue à la source",
// "Retención IRPF", "Retenção na fonte", "Ritenuta d'acconto",
// "Παρακράτηση"): the net after it is what changes hands, not the
// invoice's total, which is printed before it.
func TestNetAfterWithholdingIsNotTheTotal(t *testing.T) {
	const fr = "Cabinet Conseil Benali SARL\nFacture n° 2026-114\nHonoraires de conseil   10 000,00\nTVA 19%   1 900,00\n" +
		"Total TTC   11 900,00\nRetenue à la source 15%   1 500,00\nNet à payer   10 400,00"
	const frPlain = "Atelier Moreau SARL\nFacture n° F-2210\nPrestation   500,00 €\nTVA 20%   100,00 €\nNet à payer   600,00 €"
	const es = "Estudio Jurídico Navarro\nFactura 2026/087\nHonorarios   2.000,00 €\nIVA 21%   420,00 €\nTotal factura   2.420,00 €\n" +
		"Retención IRPF 15%   -300,00 €\nTotal a pagar   2.120,00 €"
	const pt = "Silva & Costa Consultoria Lda\nFatura FT 2026/331\nServiços   1.000,00 €\nIVA 23%   230,00 €\nTotal   1.230,00 €\n" +
		"Retenção na fonte 25%   250,00 €\nValor a pagar   980,00 €"
	const it = "Studio Rossi\nFattura n. 45/2026\nCompenso professionale   1.000,00\nCassa 4%   40,00\nIVA 22%   228,80\n" +
		"Totale fattura   1.268,80\nRitenuta d'acconto 20%   -200,00\nNetto a pagare   1.068,80"
	const gr = "Παπαδόπουλος Σύμβουλοι\nΤιμολόγιο 118\nΑμοιβή   1.000,00\nΦΠΑ 24%   240,00\nΣύνολο   1.240,00\n" +
		"Παρακράτηση φόρου 20%   200,00\nΠληρωτέο   1.040,00"
	tot := func(x float64) map[string]any { return map[string]any{"total": x} }
	runClassCases(t, []classCase{
		{"fr total ttc", fr, tot(11900), "", ""},
		{"fr net after retenue", fr, tot(10400), "total", "11900.00"},
		{"fr net à payer without withholding", frPlain, tot(600), "", ""},
		{"es total factura", es, tot(2420), "", ""},
		{"es net after retención", es, tot(2120), "total", "2420.00"},
		{"pt total", pt, tot(1230), "", ""},
		{"pt net after retenção", pt, tot(980), "total", "1230.00"},
		{"it totale fattura", it, tot(1268.80), "", ""},
		{"it net after ritenuta", it, tot(1068.80), "total", "1268.80"},
		{"gr total", gr, tot(1240), "", ""},
		{"gr net after παρακράτηση", gr, tot(1040), "total", "1.240,00"},
	})
}

// The French label comes in many forms on West African and Maghreb
// invoices ("Retenue BNC", "Retenue 5%", "Précompte AIRSI"): each is a
// withholding, and the net after it is not the total.
func TestNetAfterFrenchWithholdingForms(t *testing.T) {
	doc := func(label string) string {
		return "Cabinet Ndiaye Conseil SARL\nFacture 2026-071\nHonoraires HT   2000,00\nTVA 18%   360,00\nTotal TTC   2360,00\n" +
			label + "   100,00\nNet à payer   2260,00"
	}
	tot := func(x float64) map[string]any { return map[string]any{"total": x} }
	var cases []classCase
	for _, l := range []string{"Retenue à la source sur honoraires 5%", "Moins retenue à la source 5%", "Retenue BNC 5%",
		"Retenue 5%", "RAS 5%", "Précompte AIRSI 5%"} {
		cases = append(cases, classCase{l + ": net", doc(l), tot(2260), "total", "2360.00"},
			classCase{l + ": total", doc(l), tot(2360), "", ""})
	}
	runClassCases(t, cases)
}
