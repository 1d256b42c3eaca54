package pipeline

import "testing"

// ownNumberDoc is one invented document, the number it points to as its
// own (every form a model returns of it) and identifiers it prints for
// something else, each with a part of the reason its flag must give.
type ownNumberDoc struct {
	name  string
	text  string
	right []string
	wrong [][2]string // value, part of its reason
}

// The invoice number is the number the document points to as its own:
// printed after or under its own number label in any language, beside its
// title, or as a receipt's lone serial. Any other identifier it prints (a
// tax or company registration under a label the lists lack, a payment or
// bank reference, an account, an order, contract, delivery note, waybill,
// a fiscal authorisation or control code) is flagged, naming the label it
// sits under and what the document's own label prints. The documents are
// our own, from many countries.
func TestTheInvoiceNumberIsTheOneTheDocumentPointsTo(t *testing.T) {
	docs := []ownNumberDoc{
		{"Georgian tax code", "შპს ქართული ღვინო\nს/კ 405123456\nანგარიშ-ფაქტურა № 00871\nთარიღი: 20.11.2026\nღვინო 12 ბოთლი   360,00\nსულ   360,00 ₾",
			[]string{"00871"}, [][2]string{{"405123456", "ს/კ"}}},
		{"Albanian NIPT", "Drita Ndërtim sh.p.k.\nNIPT: L81234567B\nFATURË Nr. 2026/118   Data: 20.11.2026\nÇimento 40 thasë   12 000,00\nTotali   12 000,00 Lekë",
			[]string{"2026/118"}, [][2]string{{"L81234567B", "NIPT"}}},
		{"UK payment reference", "Harbour Tools Ltd\n12 Quay St, Bristol\nInvoice No: INV-2026-114\nDate: 20/11/2026\nDrill   £180.00\nVAT   £36.00\nTotal   £216.00\n" +
			"Please pay to sort code 20-44-91, account 43918822, quoting reference PAY-88312",
			[]string{"INV-2026-114"}, [][2]string{{"PAY-88312", "INV-2026-114"}, {"43918822", "INV-2026-114"}}},
		{"twice, once as the payment reference", "Harbour Tools Ltd\nINVOICE INV-114\nDate: 20/11/2026\nTotal   £216.00\nPayment reference: INV-114",
			[]string{"INV-114"}, nil},
		{"German order and delivery note", "Holzbau Weber GmbH\nRechnung Nr. R-2026-0412\nDatum: 20.11.2026\nIhr Auftrag vom 02.11.2026: 77812\nLieferschein LS-5521\n" +
			"Balken 12 Stk.   1.200,00 €\nGesamt   1.428,00 €\nVerwendungszweck: RG 2026-0412",
			[]string{"R-2026-0412"}, [][2]string{{"77812", "R-2026-0412"}, {"LS-5521", "R-2026-0412"}}},
		{"Spanish series and customer order", "Suministros Ebro S.L.\nFACTURA\nSerie A Nº 000123\nFecha: 20/11/2026\nPedido cliente: PC-7781\nTotal   121,00 €",
			[]string{"000123", "A-000123", "A000123", "A 000123", "A/000123"}, [][2]string{{"PC-7781", "cliente"}, {"A-000124", "not found"}}},
		{"Paraguayan timbrado", "Ferretería Asunción S.A.\nRUC: 80012345-6\nTimbrado N°: 12345678\nFactura N°: 001-001-0004471\nFecha: 20/11/2026\nTotal   Gs. 150.000",
			[]string{"001-001-0004471"}, [][2]string{{"12345678", "001-001-0004471"}}},
		{"Italian order and DDT", "Ferramenta Rossi S.r.l.\nFattura n. 118/2026 del 20/11/2026\nRif. ordine cliente: ORD-5521\nDDT n. 771 del 18/11/2026\n" +
			"Totale documento   € 244,00\nIBAN IT60X0542811101000000123456",
			[]string{"118/2026"}, [][2]string{{"ORD-5521", "118/2026"}, {"771", "118/2026"}}},
		{"French purchase order", "Atelier Brume SARL\nFacture n° F-88\nDate : 20/11/2026\nBon de commande : BC-2026-14\nTotal TTC   120,00 €",
			[]string{"F-88"}, [][2]string{{"BC-2026-14", "Bon de commande"}}},
		{"Russian order", "ООО «Северный ветер»\nСчёт № 118 от 20.11.2026\nЗаказ покупателя 7781\nИтого   12 000,00 руб.",
			[]string{"118"}, [][2]string{{"7781", "118"}}},
		{"Arabic purchase order", "شركة النور للتجارة\nفاتورة ضريبية\nرقم الفاتورة: INV-5521\nرقم أمر الشراء: PO-8812\nالإجمالي   1,150.00 ر.س",
			[]string{"INV-5521"}, [][2]string{{"PO-8812", "INV-5521"}}},
		{"Japanese bank account", "株式会社山田商事\n請求書\n請求書番号: 2026-1120\n発行日: 2026年11月20日\n合計 ¥55,000\n振込先 みずほ銀行 普通 口座 1234567",
			[]string{"2026-1120"}, [][2]string{{"1234567", "2026-1120"}}},
		{"Chinese order", "上海明光贸易有限公司\n发票号码: 04471882\n订单号: DD20261120\n开票日期: 2026年11月20日\n合计 ¥1,130.00",
			[]string{"04471882"}, [][2]string{{"DD20261120", "04471882"}}},
		{"receipt serial, no number label", "KEDAI RUNCIT ABC\nRECEIPT\n000871\n20/11/2026 14:02\nRoti   2.50\nTotal   12.00",
			[]string{"000871"}, nil},
		{"title line and customer PO", "Harbour Tools Ltd\nINVOICE 2026-114\nDate 20/11/2026\nCustomer PO 4500012345\nTotal £50.00",
			[]string{"2026-114"}, [][2]string{{"4500012345", "2026-114"}}},
		{"waybill", "Kibo Freight Ltd\nTax Invoice TI-5512\nDate: 20/11/2026\nWaybill No: WB-88123\nFreight   TSh 300,000.00\nTotal   TSh 354,000.00",
			[]string{"TI-5512"}, [][2]string{{"WB-88123", "TI-5512"}}},
		{"bank transfer line", "Kibo Office Supplies Ltd\nTAX INVOICE KOS-2026-0912   20/11/2026\nTotal   TSh 354,000.00\nPaid by bank transfer, ref 99812231",
			[]string{"KOS-2026-0912"}, [][2]string{{"99812231", "KOS-2026-0912"}}},
		{"contract in prose", "Holzbau Weber GmbH\nRechnung 8812\nDatum: 20.11.2026\nGemäß Vertrag 2024/17 berechnen wir:\nGesamt   1.428,00 €",
			[]string{"8812"}, [][2]string{{"2024/17", "Vertrag"}}},
		{"Bolivian authorisation", "Librería Illimani\nNIT: 1023456021\nFACTURA N°: 1471\nCód. Autorización: 29040011007\nCódigo de Control: 7A-4F-12-9C\nTotal Bs 85,00",
			[]string{"1471"}, [][2]string{{"29040011007", "1471"}, {"7A-4F-12-9C", "1471"}}},
		{"order reference", "Meridian Tools Ltd\nInvoice MT-5512\nYour order reference: WX-7712\nTotal £216.00",
			[]string{"MT-5512"}, [][2]string{{"WX-7712", "MT-5512"}}},
		{"Indonesian customer number", "PT Listrik Terang\nNo. Invoice: INV/2026/11/118\nNo. Pelanggan: 512388120\nTanggal: 20/11/2026\nTotal Rp 450.000",
			[]string{"INV/2026/11/118"}, [][2]string{{"512388120", "Pelanggan"}}},
		{"Turkish dispatch note", "Anadolu Gıda A.Ş.\nFatura No: ABC2026000000118\nİrsaliye No: IRS-4471\nTarih: 20.11.2026\nToplam 1.180,00 TL",
			[]string{"ABC2026000000118"}, [][2]string{{"IRS-4471", "İrsaliye"}}},
		{"Vietnamese lookup code", "CÔNG TY TNHH AN PHÁT\nHÓA ĐƠN GIÁ TRỊ GIA TĂNG\nSố: 0000871\nMã tra cứu: X7K2M9Q\nTổng cộng: 16.200.000 VND",
			[]string{"0000871"}, [][2]string{{"X7K2M9Q", "0000871"}}},
		{"Portuguese order", "Papelaria Lusa Lda\nFatura FT 2026/118\nATCUD: JJ7K8L-118\nEncomenda n.º ENC-5521\nTotal 24,60 €",
			[]string{"FT 2026/118", "2026/118"}, [][2]string{{"ENC-5521", "FT 2026/118"}}},
		{"Hungarian order", "Duna Kft.\nSzámla sorszáma: SZ-2026-118\nMegrendelés szám: M-4471\nÖsszesen 127 000 Ft",
			[]string{"SZ-2026-118"}, [][2]string{{"M-4471", "SZ-2026-118"}}},
		{"Thai purchase order", "บริษัท สยามเครื่องมือ จำกัด\nใบกำกับภาษี เลขที่ INV6611-0087\nเลขที่ใบสั่งซื้อ PO-7781\nรวมทั้งสิ้น 1,070.00 บาท",
			[]string{"INV6611-0087"}, [][2]string{{"PO-7781", "INV6611-0087"}}},
		{"Hebrew order", "אופק מחשבים בע\"מ\nחשבונית מס 30112\nהזמנה מס' 5521\nסה\"כ לתשלום  ₪ 4,956.00",
			[]string{"30112"}, [][2]string{{"5521", "30112"}}},
		{"mobile money", "Nairobi Hardware Ltd\nReceipt No. 004471\nM-Pesa Transaction ID: QKX7T2P9L1\nTotal KES 2,500.00",
			[]string{"004471"}, [][2]string{{"QKX7T2P9L1", "004471"}}},
		{"receipt doc no", "SYARIKAT MAJU SDN BHD\nDoc No : CS00012345\nCashier: 01   Table 7\nDate: 20/11/2026\nTotal RM 12.00",
			[]string{"CS00012345"}, nil},
		{"Armenian tax number", "«Արարատ Շին» ՍՊԸ\nՀՎՀՀ 02512345\nՀաշիվ-ապրանքագիր № 2026/118\nԱմսաթիվ 20.11.2026\nԸնդամենը 120 000 դրամ",
			[]string{"2026/118"}, [][2]string{{"02512345", "ՀՎՀՀ"}}},
		{"Albanian order", "Drita Ndërtim sh.p.k.\nFATURË Nr. 2026/119   Data: 21.11.2026\nPorosia: 5521\nTotali   3 000,00 Lekë",
			[]string{"2026/119"}, [][2]string{{"5521", "FATURË Nr."}}},
		{"number two lines under its label", "Harbour Tools Ltd\nInvoice number\n\nINV-1182\nOrder: 5521\nTotal £216.00",
			[]string{"INV-1182"}, [][2]string{{"5521", "INV-1182"}}},
		{"fiscal receipt's hash", "SUPERMERCADO LA ESQUINA\nRUC 20123456789\nBOLETA DE VENTA ELECTRONICA\nB001-00004471\nFecha 20/11/2026\nTOTAL S/ 25.00\nCódigo hash: aX7k9Q2mP4",
			[]string{"B001-00004471"}, [][2]string{{"aX7k9Q2mP4", "B001-00004471"}}},
		{"bank reference beside a reference", "Harbour Tools Ltd\nINVOICE\nReference: HT-2026-14\nBank reference: 99812231\nTotal £216.00",
			[]string{"HT-2026-14"}, [][2]string{{"99812231", "Bank reference"}}},
		// Stay quiet: own numbers under labels in many languages, beside
		// registrations, series, fiscal codes and payment lines.
		{"Albanian label", "Drita Ndërtim sh.p.k.\nNIPT: L81234567B\nNr. i faturës: 2026/118\nData: 20.11.2026\nTotali 12 000,00 Lekë", []string{"2026/118"}, nil},
		{"Macedonian", "ДООЕЛ Вардар Трејд\nЕДБ 4030012345678\nФактура бр. 118/2026\nДатум: 20.11.2026\nВкупно 12.000,00 ден", []string{"118/2026"}, nil},
		{"Bulgarian number below the title", "Фирма ЕООД\nЕИК 123456789\nФАКТУРА\nНомер: 0000000118\nДата: 20.11.2026\nОбщо 120,00 лв.", []string{"0000000118"}, nil},
		{"Brazilian NF-e", "Loja Brasil Ltda\nCNPJ 12.345.678/0001-90\nNOTA FISCAL ELETRÔNICA\nNº 000.004.471 Série 1\nTotal R$ 150,00", []string{"000.004.471"}, nil},
		{"Colombian electronic invoice", "Tienda Bogotá S.A.S.\nNIT 900.123.456-7\nFACTURA ELECTRÓNICA DE VENTA No. FE-4471\nTotal $ 150.000", []string{"FE-4471"}, nil},
		{"Mexican folio", "Abarrotes Lupita S.A. de C.V.\nRFC ALU010101AB1\nFolio Fiscal: 3FA2C1D4-1B2C-4D5E-8F90-1234567890AB\nFolio: A-4471\nTotal $ 1,160.00", []string{"A-4471"}, nil},
		{"number and date under one label", "Harbour Tools Ltd\nInvoice number and date: INV-1182 / 20.11.2026\nOrder: 5521\nTotal £216.00", []string{"INV-1182"}, nil},
		{"Polish printout number", "Sklep Jan\nNIP 676-123-45-67\nParagon fiskalny\nNr wydruku: 4471\nSuma PLN 12,00", []string{"4471"}, nil},
		{"slip beside a transaction", "BEST SHOP\nDATE: 01/05/16 2:51 SLIP: 0020018018\nSTAFF: JORDAN TRANS: 20980\nTOTAL 12.00", []string{"0020018018"}, nil},
		{"Ukrainian", "ТОВ «Київ Постач»\nЄДРПОУ 12345678\nРахунок-фактура № СФ-118\nВід 20.11.2026\nРазом 1 200,00 грн", []string{"СФ-118"}, nil},
		{"Saudi simplified", "مطعم الريان\nالرقم الضريبي 300012345600003\nفاتورة ضريبية مبسطة\nرقم: 4471\nالإجمالي 57.50 ر.س", []string{"4471"}, nil},
		{"Japanese receipt", "カフェ・ミドリ\n領収書\nNo. 004471\n2026年11月20日\n合計 ¥1,200", []string{"004471"}, nil},
		{"Indian bill of supply", "Sharma Traders\nGSTIN 07ABCDE1234F1Z5\nBill of Supply No: BOS/118\nTotal ₹ 1,200.00", []string{"BOS/118"}, nil},
		{"Estonian", "OÜ Tallinna Puit\nReg. kood 12345678\nArve nr 2026-118\nKuupäev 20.11.2026\nKokku 120,00 €", []string{"2026-118"}, nil},
		{"Latvian", "SIA Rīgas Koks\nPVN reģ. Nr. LV40003012345\nRēķins Nr. RK-118\nKopā 120,00 €", []string{"RK-118"}, nil},
		{"Slovenian", "Podjetje d.o.o.\nID za DDV: SI12345678\nRačun št.: 2026-118\nSkupaj 120,00 €", []string{"2026-118"}, nil},
		{"Kenyan CU invoice", "Nairobi Hardware Ltd\nPIN: P051234567X\nCU Serial No: KRAMW0012\nCU Invoice No: 0120001234000004471\nReceipt No 4471\nTotal KES 2,500.00",
			[]string{"0120001234000004471"}, nil},
		{"Dominican NCF", "Colmado Juan\nRNC 101-12345-6\nNCF: B0100004471\nFactura para consumidor final\nTotal RD$ 500.00", []string{"B0100004471"}, nil},
		{"Hungarian serial", "Duna Kft.\nAdószám: 12345678-2-42\nSzámla\nSorszám: SZ-2026-118\nÖsszesen 127 000 Ft", []string{"SZ-2026-118"}, nil},
		{"Swiss QR reference", "Muster AG\nRechnung 2026-118\nReferenz: 21 00000 00003 13947 14300 09017\nTotal CHF 120.00", []string{"2026-118"}, nil},
		{"Mexican series and folio", "Abarrotes Lupita S.A. de C.V.\nRFC ALU010101AB1\nSerie: F   Folio: 4471\nFecha: 20/11/2026\nTotal $ 1,160.00",
			[]string{"4471", "F-4471", "F4471"}, [][2]string{{"ALU010101AB1", "RFC"}}},
		{"Portuguese series", "Papelaria Lusa Lda\nFatura\nSérie 2026 Nº 118\nTotal 24,60 €", []string{"118", "2026/118", "2026-118"}, nil},
		{"title over its number sign", "Drita Ndërtim sh.p.k.\nNIPT: L81234567B\nFATURË\nNr. 2026/118\nData: 20.11.2026\nTotali 12 000,00 Lekë",
			[]string{"2026/118"}, [][2]string{{"L81234567B", "FATURË Nr."}}},
		{"Mongolian registration", "«Монгол Трейд» ХХК\nРД 5123456\nНэхэмжлэх № 2026/118\nОгноо: 2026.11.20\nНийт 120 000 ₮",
			[]string{"2026/118"}, [][2]string{{"5123456", "РД"}}},
		{"Khmer tax number", "ហាងលក់ទំនិញ ស្រស់\nលេខអត្តសញ្ញាណកម្ម K001-123456789\nវិក្កយបត្រ លេខ: INV-4471\nកាលបរិច្ឆេទ: 20/11/2026\nសរុប 12.00 USD",
			[]string{"INV-4471"}, [][2]string{{"K001-123456789", "INV-4471"}}},
		{"account in another language", "Vilniaus Vandenys UAB\nPVM sąskaita faktūra Nr. VV-118\nKliento kodas: 4471882\nMokėti 45,00 €",
			[]string{"VV-118"}, [][2]string{{"4471882", "VV-118"}}},
	}
	var cases []classCase
	for _, d := range docs {
		for _, r := range d.right {
			cases = append(cases, classCase{d.name + " right " + r, d.text, map[string]any{"invoice_number": r}, "", ""})
		}
		for _, w := range d.wrong {
			cases = append(cases, classCase{d.name + " wrong " + w[0], d.text, map[string]any{"invoice_number": w[0]}, "invoice_number", w[1]})
		}
	}
	runClassCases(t, cases)
}
