package pipeline

import "testing"

// Documents written for the class "the vendor is another party the document
// names under a label of its own language": a hotel guest's company, a
// donor, a buyer under Russian, Ukrainian, Finnish, Swedish, Norwegian,
// Danish or Argentinian labels, the respondent of a legal bill, the card
// issuer on a card slip, a public insurer on a pharmacy receipt (its fund
// label, its own amount line), the travel agency a guesthouse booking came
// through. Each names its issuer where a reader finds it; that name passes,
// the other party is flagged.

const folioPT = `Hotel Miradouro, Lda
Rua das Flores 12, 1200-195 Lisboa
NIF 509 123 456

FATURA-RECIBO FR 2026/1182          Data: 05/11/2026
Hóspede: Daniel Okafor
Empresa: Brightline Consulting Ltd
NIF cliente: GB 123456789
Quarto 312    Chegada 02/11/2026    Partida 05/11/2026

Alojamento 3 noites                 360,00
IVA 6%                               21,60
Total EUR                           381,60`

const folioEN = `THE HARBOUR HOTEL LTD
1 Quay Street, Bristol BS1 4QA
VAT Reg No GB 284 5521 09

GUEST FOLIO                         Folio No: 55821
Guest Name: Mr Daniel Okafor
Company: Northgate Analytics Plc
Room: 412      Arrival: 09/11/2026   Departure: 11/11/2026

Accommodation 2 nights             £240.00
VAT 20%                             £48.00
Balance due                        £288.00`

const folioES = `HOTEL LA ALAMEDA S.L.
C/ Mayor 4, 41001 Sevilla
CIF B41234567

FACTURA 2026-00871                 Fecha: 14/10/2026
Huésped: Laura Benítez
Empresa: Distribuciones Tajo S.A.
Habitación 208

Alojamiento                        200,00
IVA 10%                             20,00
Total                              220,00 €`

const invoiceRU = `ООО «Вектор-Сервис»
ИНН 7701234567
Счёт № 318 от 10.11.2026
Исполнитель: ООО «Вектор-Сервис»
Заказчик: ООО «Северная звезда»
Услуги по обслуживанию              10 000,00
НДС 20%                              2 000,00
Итого к оплате                      12 000,00 руб.`

const invoiceUA = `Рахунок на оплату № 57 від 04.11.2026
Постачальник: ТОВ «Світанок»
Покупець: ТОВ «Обрій-Трейд»
Платник: ТОВ «Обрій-Трейд»
Разом без ПДВ                       5 000,00
ПДВ 20%                             1 000,00
Всього до сплати                    6 000,00 грн`

const invoiceFIlabels = `Sähköasennus Mäkinen Oy
Y-tunnus 2345678-9
LASKU 7713                          12.11.2026
Tilaaja: Virtasen Kiinteistöt Oy
Ostaja: Virtasen Kiinteistöt Oy
Asennustyö                               500,00
ALV 25,5 %                               127,50
Yhteensä                                 627,50 €`

const invoiceSElabels = `Måleri Sjöberg AB
Org.nr 556987-6543
FAKTURA 2231                        2026-11-05
Beställare: Lindqvist Bygg AB
Köpare: Lindqvist Bygg AB
Målning                                 4 000,00
Moms 25%                                1 000,00
Summa att betala                        5 000,00 kr`

const invoiceDK = `Tømrerfirma Jensen ApS
CVR 34567812
FAKTURA 1192                        Dato 06.11.2026
Køber: Hansens Ejendomme A/S
Tømrerarbejde                           6 000,00
Moms 25%                                1 500,00
I alt DKK                               7 500,00`

const invoiceNOkunde = `Elektro Nord AS
Org.nr 912 345 678 MVA
FAKTURA 5521                        Dato 07.11.2026
Kjøper: Tromsø Boligbyggelag
Elektrikerarbeid                        2 000,00
MVA 25%                                   500,00
Sum å betale                            2 500,00 kr`

const donation = `Riverside Food Bank
Registered Charity No. 1123456
OFFICIAL DONATION RECEIPT           Receipt No: DR-2026-0917
Date: 21/11/2026
Received with thanks from: Margaret Ellis
Donation amount                           £50.00
Total                                     £50.00`

const donationDE = `Tierhilfe Sonnenhof e.V.
Zuwendungsbestätigung Nr. 2026-144           Datum: 20.11.2026
Spender: Klaus Reinhardt
Betrag der Zuwendung                            100,00 €
Gesamt                                          100,00 €`

const legalBill = `Marlow & Pike LLP
Solicitors
12 Chancery Lane, London WC2A 1LS
VAT Reg No GB 331 2244 55

FEE NOTE                          Invoice No: MP/2026/0442
Date: 03/11/2026
Respondent: Harlow Developments Ltd
Applicant: Ms Joanna Reeve
Professional fees                          £2,000.00
VAT 20%                                      £400.00
Total                                      £2,400.00`

const facturaAR = `FACTURA B                              Nº 0004-00012345
Razón Social: FERRETERÍA LOS ANDES S.R.L.
CUIT: 30-71234567-8
Fecha de Emisión: 12/11/2026
Razón social del receptor: CONSTRUCTORA DEL PLATA S.A.
CUIT receptor: 30-70987654-3
Subtotal                                 $ 10.000,00
Importe Total                            $ 10.000,00`

const facturaARsenores = `DISTRIBUIDORA PAMPA S.A.
CUIT 30-70111222-3
FACTURA A 0002-00004567                  Fecha 13/11/2026
Señor(es): AGRO SERVICIOS DEL SUR S.R.L.
Domicilio: Ruta 5 km 12, Pergamino
Neto gravado                             $ 20.000,00
IVA 21%                                   $ 4.200,00
Total                                    $ 24.200,00`

const cardSlip = `LA PIAZZETTA RISTORANTE
Via Roma 14, Firenze
P.IVA 01234567890
Scontrino 0042                      15/11/2026
VISA CONTACTLESS
Issuer: Banca Intesa Sanpaolo
AID A0000000031010
Auth code 123456
Totale EUR 48,50`

const pharmacyGR = `ΦΑΡΜΑΚΕΙΟ ΠΑΠΑΔΟΠΟΥΛΟΥ ΜΑΡΙΑ
ΑΦΜ 123456789 ΔΟΥ ΚΑΛΑΜΑΡΙΑΣ
ΑΠΟΔΕΙΞΗ ΛΙΑΝΙΚΗΣ ΠΩΛΗΣΗΣ 5521       18/11/2026
Ταμείο: ΕΟΠΥΥ
Αξία φαρμάκων                           40,00
ΕΟΠΥΥ                                   30,00
Συμμετοχή ασφαλισμένου                  10,00
ΣΥΝΟΛΟ                                  10,00 €`

const guesthouse = `Pousada Mar Azul
Rua do Porto 8, Paraty
CNPJ 12.345.678/0001-90
Conta 2026-118                      Data 20/11/2026
Hóspede: Anna Schmidt
Reserva via: Agoda Company Pte. Ltd.
Diárias 2 x R$ 250,00                   R$ 500,00
Total                                   R$ 500,00`

const guesthouseEN = `Seaview Guesthouse
12 Harbour Road, Galle
BILL No. 318                        Date 20/11/2026
Guest: Anna Schmidt
Booked via Booking.com
Room 2 nights                           LKR 30,000.00
Total                                   LKR 30,000.00`

const bankDK = `Nordhavn Bank A/S
Strandvejen 40, 2900 Hellerup
CVR-nr. 12345678

Mikkelsen Byg ApS
Industrivej 7
8000 Aarhus C

GEBYROVERSIGT
Opgørelse nr. 2026-0411                Dato 30.11.2026
Kontoførelse                               150,00
Overførselsgebyrer                          45,00
Gebyrer i alt DKK                          195,00`

const bankEN = `Westbury Savings Bank plc
Registered office: 20 King Street, Leeds LS1 2HL
Registered in England No. 01234567

Mr Arjun Mehta
Flat 3, 18 Elm Grove
Leeds LS6 2AX

STATEMENT OF FEES                      Date: 30/11/2026
Reference: FS-2026-33817
Monthly account fee                        £5.00
Unarranged overdraft fee                  £12.00
Total fees                                £17.00`

const invoiceFI = `Asunto Oy Koivukuja 3
Koivukuja 3 A
00150 Helsinki
                                    LASKU
                                    Laskun numero 40211
                                    Päiväys 12.11.2026
                                    Eräpäivä 26.11.2026

Kattoremontti, työ                       1 600,00
ALV 25,5 %                                 408,00
Yhteensä EUR                             2 008,00

Rakennus Lahtinen Oy | Y-tunnus 1234567-8 | IBAN FI21 1234 5600 0007 85`

const invoiceSE = `Bergström Fastigheter AB
Box 512
114 11 Stockholm
                                    FAKTURA
                                    Fakturanr 88102
                                    Fakturadatum 2026-11-03

Snickeriarbete                          12 000,00
Moms 25%                                 3 000,00
Att betala SEK                          15 000,00

Snickeri Holm AB · Org.nr 556123-4567 · Bankgiro 123-4567 · Innehar F-skattsedel`

const invoiceNO = `Fjordvik Eiendom AS
Postboks 88
5003 Bergen
                                    FAKTURA
                                    Fakturanummer 2026-318
                                    Fakturadato 18.11.2026

Rørleggerarbeid                          8 000,00
MVA 25%                                  2 000,00
Å betale NOK                            10 000,00

Bergen Rør AS  Org.nr 987 654 321 MVA  Kontonr 1234.56.78901`

const freight = `Meridian Freight Forwarding Ltd
Unit 4, Cargo Park, Felixstowe IP11 3QE
VAT No GB 449 1120 37
FREIGHT INVOICE                    Invoice No: MFF-26-5521
Date: 17/11/2026

SHIPPER                            CONSIGNEE
Delta Hardware Co                  Orbit Supplies Ltd
14 Mill Road, Leicester            22 Dock Street, Rotterdam

NOTIFY PARTY
Havenkade Logistics B.V.

Ocean freight                              £1,200.00
VAT 0%                                         £0.00
Total                                      £1,200.00`

func TestOtherPartiesWithUnknownLabels(t *testing.T) {
	v := vendorOnly
	const why = "not the issuer"
	runClassCases(t, []classCase{
		{"folio company under the guest", folioPT, v("Brightline Consulting Ltd"), "vendor_name", why},
		{"folio hotel passes", folioPT, v("Hotel Miradouro, Lda"), "", ""},
		{"english folio company", folioEN, v("Northgate Analytics Plc"), "vendor_name", why},
		{"english folio hotel passes", folioEN, v("THE HARBOUR HOTEL LTD"), "", ""},
		{"spanish folio empresa", folioES, v("Distribuciones Tajo S.A."), "vendor_name", why},
		{"spanish folio hotel passes", folioES, v("HOTEL LA ALAMEDA S.L."), "", ""},
		{"russian zakazchik", invoiceRU, v("ООО «Северная звезда»"), "vendor_name", why},
		{"russian ispolnitel passes", invoiceRU, v("ООО «Вектор-Сервис»"), "", ""},
		{"ukrainian pokupets", invoiceUA, v("ТОВ «Обрій-Трейд»"), "vendor_name", why},
		{"ukrainian postachalnyk passes", invoiceUA, v("ТОВ «Світанок»"), "", ""},
		{"finnish tilaaja", invoiceFIlabels, v("Virtasen Kiinteistöt Oy"), "vendor_name", why},
		{"finnish seller passes", invoiceFIlabels, v("Sähköasennus Mäkinen Oy"), "", ""},
		{"swedish beställare", invoiceSElabels, v("Lindqvist Bygg AB"), "vendor_name", why},
		{"swedish seller passes", invoiceSElabels, v("Måleri Sjöberg AB"), "", ""},
		{"danish køber", invoiceDK, v("Hansens Ejendomme A/S"), "vendor_name", why},
		{"danish seller passes", invoiceDK, v("Tømrerfirma Jensen ApS"), "", ""},
		{"norwegian kjøper", invoiceNOkunde, v("Tromsø Boligbyggelag"), "vendor_name", why},
		{"norwegian seller passes", invoiceNOkunde, v("Elektro Nord AS"), "", ""},
		{"donor", donation, v("Margaret Ellis"), "vendor_name", why},
		{"charity passes", donation, v("Riverside Food Bank"), "", ""},
		{"german spender", donationDE, v("Klaus Reinhardt"), "vendor_name", why},
		{"german charity passes", donationDE, v("Tierhilfe Sonnenhof e.V."), "", ""},
		{"respondent", legalBill, v("Harlow Developments Ltd"), "vendor_name", why},
		{"applicant", legalBill, v("Ms Joanna Reeve"), "vendor_name", why},
		{"law firm passes", legalBill, v("Marlow & Pike LLP"), "", ""},
		{"argentinian receptor", facturaAR, v("CONSTRUCTORA DEL PLATA S.A."), "vendor_name", why},
		{"argentinian seller passes", facturaAR, v("FERRETERÍA LOS ANDES S.R.L."), "", ""},
		{"argentinian señores", facturaARsenores, v("AGRO SERVICIOS DEL SUR S.R.L."), "vendor_name", why},
		{"argentinian seller head passes", facturaARsenores, v("DISTRIBUIDORA PAMPA S.A."), "", ""},
		{"card issuer", cardSlip, v("Banca Intesa Sanpaolo"), "vendor_name", ""},
		{"restaurant passes", cardSlip, v("LA PIAZZETTA RISTORANTE"), "", ""},
		{"public insurer", pharmacyGR, v("ΕΟΠΥΥ"), "vendor_name", ""},
		{"pharmacy passes", pharmacyGR, v("ΦΑΡΜΑΚΕΙΟ ΠΑΠΑΔΟΠΟΥΛΟΥ ΜΑΡΙΑ"), "", ""},
		{"travel agency", guesthouse, v("Agoda Company Pte. Ltd."), "vendor_name", ""},
		{"guesthouse passes", guesthouse, v("Pousada Mar Azul"), "", ""},
		{"booked via", guesthouseEN, v("Booking.com"), "vendor_name", ""},
		{"english guesthouse passes", guesthouseEN, v("Seaview Guesthouse"), "", ""},
		// Away from a card slip an issuer label names the issuer.
		{"cfdi emisor passes", "Emisor: FERRETERÍA EL MARTILLO SA DE CV\nReceptor: Constructora del Norte SA de CV\nCFDI 4.0\nTotal $9.00", v("FERRETERÍA EL MARTILLO SA DE CV"), "", ""},
		{"card slip emisor", "CAFETERÍA SOL\nTARJETA VISA ****4471\nEMISOR: BANCO NACIONAL\nTOTAL 9,00 €", v("BANCO NACIONAL"), "vendor_name", "CARD ISSUER"},
		{"card slip cafeteria passes", "CAFETERÍA SOL\nTARJETA VISA ****4471\nEMISOR: BANCO NACIONAL\nTOTAL 9,00 €", v("CAFETERÍA SOL"), "", ""},
	})
}

// An addressee's block needs no label: the issuer is the party whose
// registration and bank account the document prints (a bank's letterhead
// above its client's address, a Nordic seller's footer below the buyer's
// block printed first), and the parties a freight bill's column headings
// name are the shipper's and consignee's, not the forwarder that bills.
func TestAddresseeBlocksAndColumnHeadings(t *testing.T) {
	v := vendorOnly
	const why = "not the issuer"
	runClassCases(t, []classCase{
		{"bank client's address block", bankDK, v("Mikkelsen Byg ApS"), "vendor_name", ""},
		{"bank passes", bankDK, v("Nordhavn Bank A/S"), "", ""},
		{"english bank client's address block", bankEN, v("Mr Arjun Mehta"), "vendor_name", ""},
		{"english bank passes", bankEN, v("Westbury Savings Bank plc"), "", ""},
		{"finnish buyer block first", invoiceFI, v("Asunto Oy Koivukuja 3"), "vendor_name", ""},
		{"finnish seller in the footer passes", invoiceFI, v("Rakennus Lahtinen Oy"), "", ""},
		{"swedish buyer block first", invoiceSE, v("Bergström Fastigheter AB"), "vendor_name", ""},
		{"swedish seller in the footer passes", invoiceSE, v("Snickeri Holm AB"), "", ""},
		{"norwegian buyer block first", invoiceNO, v("Fjordvik Eiendom AS"), "vendor_name", ""},
		{"norwegian seller in the footer passes", invoiceNO, v("Bergen Rør AS"), "", ""},
		{"shipper under a heading", freight, v("Delta Hardware Co"), "vendor_name", why},
		{"consignee column", freight, v("Orbit Supplies Ltd"), "vendor_name", why},
		{"notify party", freight, v("Havenkade Logistics B.V."), "vendor_name", why},
		{"forwarder passes", freight, v("Meridian Freight Forwarding Ltd"), "", ""},
	})
}

// The buyer and the seller under their labels in more languages: the
// buyer is flagged as the vendor, the seller passes, and a seller label
// names the issuer a null or another name is checked against.
func TestPartyLabelsInMoreLanguages(t *testing.T) {
	v := vendorOnly
	const why = "not the issuer"
	const ro = "FACTURA FISCALĂ nr. 2026/318\nFurnizor: Tipografia Mureș SRL\nCumpărător: Casa de Cultură Târgu Mureș\nTotal de plată 1.190,00 lei"
	const id = "NOTA PENJUALAN 0917\nPenjual: CV Sumber Rejeki\nPembeli: PT Maju Bersama\nTotal Rp 1.250.000"
	runClassCases(t, []classCase{
		{"german auftraggeber", "Malerbetrieb Kraus GmbH\nRechnung 2026-771\nAuftraggeber: Stadtwerke Lindau GmbH\nGesamtbetrag 1.190,00 €", v("Stadtwerke Lindau GmbH"), "vendor_name", why},
		{"polish zamawiający", "Usługi Remontowe Kowal Sp. z o.o.\nFaktura VAT 88/2026\nZamawiający: Gmina Zielonka\nRazem do zapłaty 1 230,00 zł", v("Gmina Zielonka"), "vendor_name", why},
		{"czech objednatel", "Stavby Horák s.r.o.\nFaktura 2026-0045\nObjednatel: Město Kolín\nCelkem k úhradě 12 100,00 Kč", v("Město Kolín"), "vendor_name", why},
		{"romanian cumpărător", ro, v("Casa de Cultură Târgu Mureș"), "vendor_name", why},
		{"romanian furnizor passes", ro, v("Tipografia Mureș SRL"), "", ""},
		{"indonesian pembeli", id, v("PT Maju Bersama"), "vendor_name", why},
		{"indonesian penjual passes", id, v("CV Sumber Rejeki"), "", ""},
		{"hebrew customer", "גל מערכות מיזוג בע\"מ\nחשבונית מס 5521\nלקוח: מלון הים התיכון\nסה\"כ לתשלום 1,170.00 ₪", v("מלון הים התיכון"), "vendor_name", why},
		{"chinese customer", "深圳明辉电子有限公司\n送货单 2026-1102\n客户：广州华南贸易有限公司\n合计 ¥1,200.00", v("广州华南贸易有限公司"), "vendor_name", why},
		// A seller label names the issuer: another name is contradicted and
		// a null is an omission.
		{"czech dodavatel contradicts", "FAKTURA 2026-0045\nDodavatel: Stavby Horák s.r.o.\nOdběratel: Město Kolín\nCelkem 12 100,00 Kč", v("Město Kolín"), "vendor_name", ""},
		{"finnish myyjä names the null issuer", "LASKU 7713\nMyyjä: Sähköasennus Mäkinen Oy\nOstaja: Virtasen Kiinteistöt Oy\nYhteensä 627,50 €", v(nil), "vendor_name", "Sähköasennus Mäkinen Oy"},
		{"ukrainian постачальник names the null issuer", "Рахунок № 57\nПостачальник: ТОВ «Світанок»\nПокупець: ТОВ «Обрій-Трейд»\nВсього 6 000,00 грн", v(nil), "vendor_name", "ТОВ «Світанок»"},
	})
}

// The issuer keeps its name where the rules above read another party: a
// letterhead with no registration above a buyer's block that prints the
// buyer's VAT number (a reverse-charge invoice), a seller's footer with its
// bank, a bank's own letter, a card slip's merchant, a guest folio's hotel.
func TestIssuerPassesBesideOtherParties(t *testing.T) {
	v := vendorOnly
	const reverseCharge = `Kessler Maschinenbau GmbH
Industriestraße 12
70565 Stuttgart

Van Dijk Techniek B.V.
Havenweg 4
3011 AB Rotterdam
USt-IdNr. NL123456789B01

RECHNUNG 2026-0917                   Datum: 12.11.2026
Ersatzteile                          1.000,00 €
Steuerschuldnerschaft des Leistungsempfängers
Gesamtbetrag                         1.000,00 €

Kessler Maschinenbau GmbH · USt-IdNr. DE812345678 · IBAN DE12 3456 7890 1234 5678 90`
	const bankLetter = `Westbury Savings Bank plc
20 King Street
Leeds LS1 2HL

STATEMENT OF FEES                    Date: 30/11/2026
Monthly account fee                       £5.00
Total fees                                £5.00

Westbury Savings Bank plc. Registered in England No. 01234567. Registered office: 20 King Street, Leeds.`
	runClassCases(t, []classCase{
		{"reverse-charge seller passes", reverseCharge, v("Kessler Maschinenbau GmbH"), "", ""},
		{"guest's company under the guest", "HOTEL BELLEVUE AG\nGuest: Daniel Okafor\nBrightline Consulting Ltd\n14 Mill Road, Leicester\nTotal CHF 480.00", v("Brightline Consulting Ltd"), "vendor_name", "GUEST"},
		{"hotel above the guest passes", "HOTEL BELLEVUE AG\nGuest: Daniel Okafor\nBrightline Consulting Ltd\n14 Mill Road, Leicester\nTotal CHF 480.00", v("HOTEL BELLEVUE AG"), "", ""},
		{"a seller's field ends the customer's", "Invoice 55\nBill to: Harlow Ltd\nSeller: Orbit Supplies Ltd\nOrbit Supplies Ltd\nTotal 9.00", v("Orbit Supplies Ltd"), "", ""},
		{"reverse-charge buyer", reverseCharge, v("Van Dijk Techniek B.V."), "vendor_name", ""},
		{"bank letter passes", bankLetter, v("Westbury Savings Bank plc"), "", ""},
	})
}
