package pipeline

import "testing"

// Documents written for the class "a currency code or sign the document
// prints, but not as the currency of its billed amounts": a reference or
// equivalent amount in another currency, an exchange-rate line, a customs,
// goods or insurance value in a foreign currency, the currency of a bank
// account or of a price list. The currency beside the total, the subtotal
// and the tax (or heading their column, or stated for all amounts) is the
// billed one; a code printed only aside is flagged, and the billed code
// stays silent whatever else the document converts it into.

const veRef = `Distribuidora Los Andes C.A.
RIF J-40123456-7
Av. Francisco de Miranda, Caracas
FACTURA N° 000412                    Fecha: 14/11/2026
Repuestos varios                      VES 3.950,00
IVA 16%                                 VES 632,00
TOTAL A PAGAR                         VES 4.582,00
REF. USD 125,20`

const aoContravalor = `Comercial Kwanza Lda
NIF 5417012345
Luanda, Angola
Factura FT 2026/118                  Data: 03-11-2026
Serviços de manutenção               1.250.000,00 AOA
IVA 14%                                175.000,00 AOA
Total                                1.425.000,00 AOA
Contravalor USD 1.711,90`

const roEchivalent = `Tehno Service Construct SRL
CUI RO18273645, Cluj-Napoca
FACTURA seria TSC nr. 2291           Data: 12.11.2026
Servicii mentenanta                   4.000,00 RON
TVA 19%                                 760,00 RON
Total de plata                        4.760,00 RON
Echivalent EUR 957,35 la cursul BNR 4,9723`

const chSoit = `Menuiserie Favre Sàrl
Rue du Lac 12, 1003 Lausanne
Facture 2026-044                     Date: 05.11.2026
Travaux de menuiserie                 CHF 1'111.25
TVA 8.1%                                 CHF 90.00
Total TTC                             CHF 1'201.25
Soit EUR 1'280.40`

const deRate = `Kanzlei Brandt & Partner mbB
Rechnung Nr. 2026-0413               Datum: 05.11.2026
Umrechnungskurs: 1 EUR = 1,0845 USD
Honorar                               1.000,00 EUR
USt 19%                                 190,00 EUR
Gesamtbetrag                          1.190,00 EUR`

const keCustoms = `Mombasa Clearing & Forwarding Ltd
PIN P051234567Q
INVOICE CF-2026-3391                 Date: 10/11/2026
CIF value of goods: USD 12,400.00
Import duty 25%                      KES 400,000.00
Agency fees                           KES 45,000.00
VAT 16%                               KES 71,200.00
Total due                            KES 516,200.00`

const mxInsured = `Transportes del Bajío S.A. de C.V.
RFC TBA010203XY4
Factura A-5521                       Fecha: 06/11/2026
Valor declarado de la mercancía: USD 30,000.00
Flete Querétaro - Laredo           MXN 18,500.00
IVA 16%                               MXN 2,960.00
Total                                MXN 21,460.00`

const nlBank = `Bouwbedrijf De Vries B.V.
KvK 12345678   BTW NL001234567B01
Factuur 2026-0871                    Datum: 07-11-2026
Metselwerk                             € 2.000,00
BTW 21%                                  € 420,00
Totaal                                 € 2.420,00
Bank: ING, USD account 0012 3456 78, IBAN NL91 INGB 0001 2345 67 (EUR)`

const ngNoCode = `Ikeja Office Supplies Ltd
TIN 12345678-0001, Lagos, Nigeria
INVOICE 7781                         Date: 08/11/2026
Printer cartridges                       84,000.00
VAT 7.5%                                  6,300.00
Total                                    90,300.00
All amounts in NGN
Exchange rate used: 1 USD = 1,530.00 NGN`

const inPriceList = `Sahyadri Engineering Works
GSTIN 27AABCS1234F1Z5, Pune
Tax Invoice SEW/26/772               Date: 09/11/2026
Item as per supplier price list (USD 120.00 each)
Valve assembly x 10                     ₹ 1,00,800.00
IGST 18%                                  ₹ 18,144.00
Total                                   ₹ 1,18,944.00`

// Curaçao's guilder: XCG replaced ANG in 2025, and the document says so.
const cwStatement = `Philipsburg Supplies B.V.
Sint Maarten
Invoice 2026-77                      Date: 02-11-2026
Maintenance                              Cg 900.00
Turnover tax 5%                           Cg 45.00
Total due                                Cg 945.00
Currency: XCG (replaces ANG)`

const cwTotals = `Willemstad Trading N.V.
Curaçao
Factuur 2026-78                      Datum: 03-11-2026
Onderhoud                               900.00 XCG
OB 6%                                    54.00 XCG
Totaal                                  954.00 XCG
Tegenwaarde ANG 954.00`

// A Cape Verde invoice writes escudos with the cifrão ("1.250$00"): no
// dollar, and the euro equivalent under it is an aside.
const cvCifrao = `Mercearia Praia Lda
NIF 200123456, Praia, Cabo Verde
Fatura FT 2026/55                    Data: 04/11/2026
Arroz 10 kg                               1.250$00
IVA 15%                                     187$50
Total                                     1.437$50
Contravalor EUR 13,04`

func TestCurrencyBesideTheBilledAmounts(t *testing.T) {
	c := func(code string) map[string]any { return map[string]any{"currency": code} }
	docs := []struct {
		name, text, billed, aside string
	}{
		{"reference amount", veRef, "VES", "USD"},
		{"contravalor", aoContravalor, "AOA", "USD"},
		{"echivalent", roEchivalent, "RON", "EUR"},
		{"soit", chSoit, "CHF", "EUR"},
		{"exchange rate above the amounts", deRate, "EUR", "USD"},
		{"customs value", keCustoms, "KES", "USD"},
		{"declared goods value", mxInsured, "MXN", "USD"},
		{"bank account currency", nlBank, "EUR", "USD"},
		{"all amounts statement", ngNoCode, "NGN", "USD"},
		{"price list", inPriceList, "INR", "USD"},
		{"currency label", cwStatement, "XCG", "ANG"},
		{"replaced code as an equivalent", cwTotals, "XCG", "ANG"},
	}
	var cases []classCase
	for _, d := range docs {
		cases = append(cases,
			classCase{d.name + ": billed " + d.billed, d.text, c(d.billed), "", ""},
			classCase{d.name + ": aside " + d.aside, d.text, c(d.aside), "currency", d.billed})
	}
	cases = append(cases,
		classCase{"cifrão: escudo", cvCifrao, c("CVE"), "", ""},
		classCase{"cifrão is no dollar", cvCifrao, c("USD"), "currency", "not found"},
		classCase{"cifrão: the equivalent", cvCifrao, c("EUR"), "currency", "contravalor"},
		// A code beside an item's price as well as the total's: the billed
		// lines do not decide alone, and a code beside any amount is not
		// refuted by them.
		classCase{"item price in the billed code", "Loja Azul Lda\nCadeira  EUR 120,00\nTotal  EUR 120,00", c("EUR"), "", ""},
	)
	runClassCases(t, cases)
}

// A sign several currencies share is read as the one whose code the
// document prints: a "$" beside a Jamaican invoice's amounts that states
// JMD is no USD, a "£" on an Egyptian one no GBP, a "kr" in Iceland no SEK.
func TestSharedSignReadByThePrintedCode(t *testing.T) {
	c := func(code string) map[string]any { return map[string]any{"currency": code} }
	const jm = "Blue Mountain Supplies Ltd\nKingston 10, Jamaica\nInvoice 4471\nCement 20 bags        $ 38,000.00\nGCT 15%               $ 5,700.00\nTotal                 $ 43,700.00\nAll amounts in JMD"
	const eg = "Nile Office Trading\nCairo, Egypt\nInvoice 2026/88\nPaper 10 boxes        £ 4,500.00\nVAT 14%                 £ 630.00\nTotal                 £ 5,130.00\nCurrency: EGP"
	const is = "Hraun ehf.\nReykjavík\nReikningur 311\nViðgerð             48.000 kr\nVSK 24%             11.520 kr\nSamtals             59.520 kr\nGjaldmiðill (currency): ISK"
	const us = "Lakeside Hardware Inc\nBoise, ID 83702\nInvoice 5521\nLumber            $ 380.00\nTotal             $ 380.00"
	const uk = "Thames Print Ltd\nLondon SE1 7PB\nInvoice 7781\nPrinting          £ 450.00\nVAT 20%            £ 90.00\nTotal             £ 540.00"
	runClassCases(t, []classCase{
		{"jamaican dollar as usd", jm, c("USD"), "currency", "JMD"},
		{"jamaican dollar", jm, c("JMD"), "", ""},
		{"egyptian pound as gbp", eg, c("GBP"), "currency", "EGP"},
		{"icelandic krona as sek", is, c("SEK"), "currency", "ISK"},
		{"icelandic krona", is, c("ISK"), "", ""},
		{"pound sterling stays", uk, c("GBP"), "", ""},
		{"a us dollar is not refuted", us, c("USD"), "", ""},
	})
}
