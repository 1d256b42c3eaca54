package pipeline

import "testing"

// Class "another reference taken as the invoice number", second round:
// documents print, beside their own number, an order they fulfil (Greek
// Παραγγελία), the driver or crew of a taxi (乗務員番号), a hospital's
// protocol or authorisation number, a kitchen order ticket (KOT), a party's
// tax number under a national label in its own script (الرقم الضريبي,
// ИНН/КПП, เลขประจำตัวผู้เสียภาษี), an Argentine electronic authorisation
// code (CAE), a contract, policy, member or student number, and on a credit
// note the invoice it credits. None of these is the document's number: each
// offered as invoice_number is flagged, the document's own number passes,
// and no reason names another of them as the number.
func TestMoreReferencesAreNotTheNumber(t *testing.T) {
	checkRefDocs(t, []refDoc{
		{"greek e-shop receipt with an order number", "ΗΛΕΚΤΡΟΝΙΚΑ ΠΑΠΑΔΟΠΟΥΛΟΣ Α.Ε.\nΑ.Φ.Μ. 094512378  Δ.Ο.Υ. ΦΑΕ ΑΘΗΝΩΝ\n" +
			"ΑΠΟΔΕΙΞΗ ΛΙΑΝΙΚΗΣ ΠΩΛΗΣΗΣ\nΑρ. Απόδειξης: ΑΛΠ-20931\nΠαραγγελία: #771204\nΗμερομηνία: 14/11/2026\n" +
			"Ακουστικά Bluetooth   1   49,90\nΣΥΝΟΛΟ   49,90 €",
			"ΑΛΠ-20931", []string{"771204", "094512378"}},
		{"japanese taxi receipt with the driver's number", "領収書\n東都交通株式会社\n登録番号 T1234567890123\n" +
			"乗務員番号 2231\nNo. 0045187\n2026年3月12日 22:41\n運賃 ¥2,340\n合計 ¥2,340",
			"0045187", []string{"2231", "T1234567890123"}},
		{"italian hospital invoice with a protocol number", "AZIENDA OSPEDALIERA SAN LUCA\nP.IVA 01234560987\n" +
			"Fattura n. 2026/FE/04412 del 09/03/2026\nN. protocollo: 88213/2026\nImpegnativa n. 0412-7781\n" +
			"Visita specialistica   36,15\nTotale da pagare € 36,15",
			"2026/FE/04412", []string{"88213/2026", "0412-7781", "01234560987"}},
		{"brazilian clinic with an authorisation protocol", "CLÍNICA SÃO PEDRO LTDA\nCNPJ 12.345.678/0001-90\n" +
			"Recibo nº 4471\nProtocolo de autorização: 2026031188\nPaciente: M. Souza\nConsulta   R$ 250,00\nTotal R$ 250,00",
			"4471", []string{"2026031188"}},
		{"indian restaurant bill with a KOT number", "SPICE ROUTE RESTAURANT\nGSTIN: 29ABCDE1234F1Z5\nBill No: 1183\n" +
			"KOT No: 47   Table: 12\nDate: 21/11/2026\nPaneer Tikka   1   320.00\nCGST 2.5%   8.00\nSGST 2.5%   8.00\nGrand Total  336.00",
			"1183", []string{"47", "29ABCDE1234F1Z5"}},
		{"saudi tax invoice with the seller's tax number", "شركة النخيل للتجارة\nفاتورة ضريبية\nرقم الفاتورة: INV-2026-114\n" +
			"الرقم الضريبي: 300123456700003\nالتاريخ: 2026-11-20\nالإجمالي 1,150.00 ر.س",
			"INV-2026-114", []string{"300123456700003"}},
		{"russian invoice with INN and KPP", "ООО «Северный ветер»\nИНН 7701234567  КПП 770101001\n" +
			"Счёт № 318 от 26.11.2026\nУслуги связи   12 000,00\nНДС 20%   2 400,00\nИтого к оплате: 14 400,00 руб.",
			"318", []string{"7701234567", "770101001"}},
		{"thai tax invoice with the seller's tax id", "บริษัท สยามเทรดดิ้ง จำกัด\nเลขประจำตัวผู้เสียภาษี 0105551234567\n" +
			"ใบกำกับภาษี เลขที่ IV6911-0042\nวันที่ 12/03/2569\nรวมเงิน 1,000.00\nภาษีมูลค่าเพิ่ม 7% 70.00\nยอดสุทธิ 1,070.00 บาท",
			"IV6911-0042", []string{"0105551234567"}},
		{"argentine factura with its CAE", "DISTRIBUIDORA DEL PLATA S.R.L.\nCUIT: 30-71234567-8\nFACTURA B\n" +
			"Comp. Nro: 0003-00001234\nFecha de Emisión: 10/11/2026\nCAE N°: 76123456789012\n" +
			"Fecha de Vto. de CAE: 20/11/2026\nTotal $ 12.100,00",
			"0003-00001234", []string{"76123456789012", "30-71234567-8"}},
		{"insurance invoice with policy and contract numbers", "Helvetia Assurances SA\nInvoice No: INS-2026-0412\n" +
			"Policy No: PL-88213-26\nContract no: K-55190\nAnnual premium   CHF 1 200.00\nTotal CHF 1 200.00",
			"INS-2026-0412", []string{"PL-88213-26", "K-55190"}},
		{"spanish insurer with a póliza", "Seguros Mediterráneo S.A.\nRecibo nº R-26-009912\nNº de póliza: 0098-771203\n" +
			"Prima total 412,30 €",
			"R-26-009912", []string{"0098-771203"}},
		{"university fee receipt with a student number", "University of Westbridge\nReceipt No: UR-26-00912\n" +
			"Student ID: S2291044\nMembership no: 88120\nTuition fee   £4,625.00\nTotal paid £4,625.00",
			"UR-26-00912", []string{"S2291044", "88120"}},
		{"credit note for an invoice", "Brightline Supplies Ltd\nCREDIT NOTE\nCredit note no: CN-2026-031\n" +
			"Credit note for invoice INV-2026-0877\nReturned goods   -120.00\nTotal credit   -120.00",
			"CN-2026-031", []string{"INV-2026-0877"}},
		{"german gutschrift citing its rechnung", "Müller Bürotechnik GmbH\nGutschrift Nr. GS-2026-0091\n" +
			"Gutschrift zur Rechnung RE-2026-1187\nRücksendung Toner   -49,00\nGesamt   -49,00 EUR",
			"GS-2026-0091", []string{"RE-2026-1187"}},
		{"french avoir citing its facture", "Imprimerie Wallonne SA\nAVOIR n° AV-2026-0031\n" +
			"Avoir sur facture n° FW-2026-0077\nRemise commerciale   -60,50\nTotal TTC   -60,50 €",
			"AV-2026-0031", []string{"FW-2026-0077"}},
		{"hotel rechnung with a reservation number", "Hotel Alpenblick GmbH\nRechnung Nr. 2026-0412\n" +
			"Reservierungsnummer 88213771\nÜbernachtung 3 Nächte   390,00\nGesamt 390,00 EUR",
			"2026-0412", []string{"88213771"}},
		{"charging receipt with the charge point", "VoltCharge GmbH\nBeleg-Nr. VC-26-0412\nEVSE ID: DEVLTE0412\n" +
			"Ladepunkt: 0412-77\nEnergie 22,4 kWh\nGesamt 11,20 EUR",
			"VC-26-0412", []string{"DEVLTE0412", "0412-77"}},
		{"card paid, last digits in words", "Book Nook\nReceipt 2026-118\nPaid with VISA ending 4471\nTotal $9.00",
			"2026-118", []string{"4471"}},
		{"storno citing its rechnung", "Müller Bürotechnik GmbH\nStornorechnung Nr. ST-2026-031\n" +
			"Storno der Rechnung RE-2026-0877\nGesamt -49,00 EUR",
			"ST-2026-031", []string{"RE-2026-0877"}},
	})
}

// A card's last digits behind X masks or named "last 4", and a bare
// "Membership:" number, are not the document's number either.
func TestCardMasksAndMembershipWords(t *testing.T) {
	n := func(v string) map[string]any { return map[string]any{"invoice_number": v} }
	runClassCases(t, []classCase{
		{"x-masked card", "Book Nook\nVISA XXXX XXXX XXXX 4471\nTotal $9.00", n("4471"), "invoice_number", "card"},
		{"card last 4", "Book Nook\nCard (last 4): 4471\nTotal $9.00", n("4471"), "invoice_number", "last 4"},
		{"membership", "FitLife Gym\nMembership: 88213\nTotal $49.00", n("88213"), "invoice_number", "Membership"},
		{"the receipt's own number beside them", "FitLife Gym\nReceipt No: FL-26-0412\nMembership: 88213\nVISA XXXX XXXX XXXX 4471\nTotal $49.00", n("FL-26-0412"), "", ""},
	})
}

// Codes of the goods, the till or the property a bill is for: an Italian
// medicine's AIC code, a till's or terminal's machine number, a property's
// valuation number. None is the document's number.
func TestGoodsTillAndPropertyCodes(t *testing.T) {
	checkRefDocs(t, []refDoc{
		{"italian pharmacy receipt with AIC codes", "FARMACIA CENTRALE SNC\nP.IVA 01234560987\nDOCUMENTO COMMERCIALE\n" +
			"Documento n. 0412-0087\nTACHIPIRINA 500MG  AIC 012745093   4,90\nTOTALE COMPLESSIVO  4,90",
			"0412-0087", []string{"012745093"}},
		{"receipt with the till's machine number", "SUPERSAVE MART\nReceipt No: 20931\nMachine No: 0412-07\n" +
			"MID: 000123456789  TID: 88213771\nTotal RM 12.50",
			"20931", []string{"0412-07", "000123456789", "88213771"}},
		{"council rates bill with a valuation number", "Riverside District Council\nRates notice 2026/27\n" +
			"Notice No: RN-26-0412\nValuation No: 4410-22910\nAmount payable $1,412.30",
			"RN-26-0412", []string{"4410-22910"}},
	})
}

// A store or branch number printed after the chain's name ("MEGA MART
// #0231") that a till's transaction number begins with ("TRANS
// 0231-04-558812") is the store's, not the document's number; a number
// part that is printed nowhere else (a composite reference's) still is.
func TestStoreNumberAtTheHeadOfTheTransaction(t *testing.T) {
	n := func(v string) map[string]any { return map[string]any{"invoice_number": v} }
	pharmacy := "CITY PHARMACY #118\n44 High Street, Leeds\nReceipt 118-02-44712   21/11/2026 10:02\nParacetamol  2.49\nTOTAL  2.49"
	runClassCases(t, []classCase{
		{"store number taken", pharmacy, n("118"), "invoice_number", "118-02-44712"},
		{"transaction number right", pharmacy, n("118-02-44712"), "", ""},
	})
}
