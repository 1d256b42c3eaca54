package pipeline

import "testing"

// The other party of a document stands under labels and role words in many
// languages: the buyer or payer of a Russian invoice, the buyer block of a
// Chinese fapiao or a Vietnamese e-invoice, a Hebrew or Thai addressee, the
// tenant of a lease, the insured of a policy, the passenger or student of a
// ticket or fee note. Offered as the vendor, it is flagged; the issuer, under
// its own label (Продавец, 销售方, Landlord, Vermieter), passes.
func TestOtherPartyRoleLabels(t *testing.T) {
	v := vendorOnly
	const why = "not the issuer"
	ru := "ООО «Ромашка»\nСчёт-фактура № 45 от 10.02.2026\nПродавец: ООО «Ромашка»\nПокупатель: ООО «Василёк»\nИтого 9,00 руб."
	fapiaoBlock := "电子发票（普通发票）\n购买方信息\n名称：杭州西湖科技有限公司\n统一社会信用代码：91330100MA2XXXXX1A\n\n销售方信息\n名称：上海华东办公用品有限公司\n统一社会信用代码：91310000MA1YYYYY2B\n价税合计 ¥9.00"
	fapiaoCols := "电子发票（普通发票）\n购买方                               销售方\n名称：杭州西湖科技有限公司           名称：上海华东办公用品有限公司\n价税合计 ¥9.00"
	vn := "HÓA ĐƠN GIÁ TRỊ GIA TĂNG\nĐơn vị bán hàng: CÔNG TY TNHH AN PHÁT\nMã số thuế: 0101234567\nHọ tên người mua hàng: Nguyễn Văn Bình\nTên đơn vị: CÔNG TY CP MINH LONG\nTổng cộng: 9.000 đ"
	lease := "Harbourside Properties Ltd\nRENT INVOICE\nLandlord: Harbourside Properties Ltd\nTenant: Olivia Brennan\nTotal £9.00"
	de := "Hausverwaltung Sommer GmbH\nMietrechnung\nVermieter: Hausverwaltung Sommer GmbH\nMieter: Jonas Richter\nSumme 9,00 €"
	runClassCases(t, []classCase{
		{"russian buyer", ru, v("ООО «Василёк»"), "vendor_name", why},
		{"russian payer", "ИП Смирнов А.В.\nСчёт на оплату № 12\nПлательщик: АО «Северный завод»\nИтого к оплате 9,00 руб.", v("АО «Северный завод»"), "vendor_name", why},
		{"russian consignee", "ООО «Альфа»\nТоварная накладная № 7\nГрузополучатель: ООО «Бета»\nВсего 9,00 руб.", v("ООО «Бета»"), "vendor_name", why},
		{"russian seller passes", ru, v("ООО «Ромашка»"), "", ""},
		{"fapiao buyer block", fapiaoBlock, v("杭州西湖科技有限公司"), "vendor_name", why},
		{"fapiao seller block passes", fapiaoBlock, v("上海华东办公用品有限公司"), "", ""},
		{"fapiao buyer column", fapiaoCols, v("杭州西湖科技有限公司"), "vendor_name", why},
		{"fapiao seller column passes", fapiaoCols, v("上海华东办公用品有限公司"), "", ""},
		{"fapiao gouf", "上海华东办公用品有限公司\n购方名称：杭州西湖科技有限公司\n合计 ¥9.00", v("杭州西湖科技有限公司"), "vendor_name", why},
		{"hebrew to", "א.ב. שירותי ניקיון בע\"מ\nחשבונית מס 1042\nלכבוד: כהן ושות' עורכי דין\nסה\"כ 9.00 ₪", v("כהן ושות' עורכי דין"), "vendor_name", why},
		{"thai customer name", "บริษัท สยามซัพพลาย จำกัด\nใบกำกับภาษี\nชื่อลูกค้า: บริษัท ไทยเทรดดิ้ง จำกัด\nรวมทั้งสิ้น 9.00 บาท", v("บริษัท ไทยเทรดดิ้ง จำกัด"), "vendor_name", why},
		{"vietnamese buyer", vn, v("Nguyễn Văn Bình"), "vendor_name", why},
		{"vietnamese buyer unit", vn, v("CÔNG TY CP MINH LONG"), "vendor_name", why},
		{"vietnamese seller passes", vn, v("CÔNG TY TNHH AN PHÁT"), "", ""},
		{"tenant", lease, v("Olivia Brennan"), "vendor_name", why},
		{"landlord passes", lease, v("Harbourside Properties Ltd"), "", ""},
		{"german mieter", de, v("Jonas Richter"), "vendor_name", why},
		{"vermieter passes", de, v("Hausverwaltung Sommer GmbH"), "", ""},
		{"lessee", "Northway Leasing plc\nLEASE STATEMENT\nLessee: Carter Logistics Ltd\nAmount due 9.00", v("Carter Logistics Ltd"), "vendor_name", why},
		{"policyholder", "Evergreen Mutual Insurance\nPremium notice\nPolicyholder: Daniel Okafor\nTotal premium 9.00", v("Daniel Okafor"), "vendor_name", why},
		{"versicherungsnehmer", "Alpina Versicherung AG\nBeitragsrechnung\nVersicherungsnehmer: Familie Huber\nZahlbetrag 9,00 €", v("Familie Huber"), "vendor_name", why},
		{"assuré", "Mutuelle Horizon\nAvis d'échéance\nAssuré : Sophie Laurent\nMontant à payer 9,00 €", v("Sophie Laurent"), "vendor_name", why},
		{"insured", "Evergreen Mutual Insurance\nInsured: Carter Logistics Ltd\nTotal premium 9.00", v("Carter Logistics Ltd"), "vendor_name", why},
		{"hirer", "Peak Plant Hire Ltd\nHIRE CONTRACT\nHirer: Moss Groundworks Ltd\nTotal 9.00", v("Moss Groundworks Ltd"), "vendor_name", why},
		{"consignee on a freight bill", "Rapid Freight Lines Inc\nFREIGHT BILL\nConsignee: Delta Hardware Co\nTotal charges 9.00", v("Delta Hardware Co"), "vendor_name", why},
		// A shipper is the other party when a carrier heads the document,
		// and the issuer of its own papers.
		{"shipper under a carrier", "Rapid Freight Lines Inc\nFREIGHT BILL\nShipper: Delta Hardware Co\nConsignee: Orbit Supplies Ltd\nTotal charges 9.00", v("Delta Hardware Co"), "vendor_name", why},
		{"carrier passes", "Rapid Freight Lines Inc\nFREIGHT BILL\nShipper: Delta Hardware Co\nConsignee: Orbit Supplies Ltd\nTotal charges 9.00", v("Rapid Freight Lines Inc"), "", ""},
		{"german absender under a carrier", "Spedition Brandt GmbH\nFrachtbrief 4471\nAbsender: Holzbau Keller KG\nEmpfänger: Möbelhaus Lindner\nSumme 9,00 €", v("Holzbau Keller KG"), "vendor_name", why},
		{"shipper issues its own papers", "Delta Hardware Co\nCOMMERCIAL INVOICE\nShipper: Delta Hardware Co\nConsignee: Orbit Supplies Ltd\nTotal 9.00", v("Delta Hardware Co"), "", ""},
		{"student", "Lakeside Language School\nFEE RECEIPT\nStudent: Aiko Tanaka\nTotal paid 9.00", v("Aiko Tanaka"), "vendor_name", why},
		{"guest", "Hotel Adler\nGuest: Daniel Okafor\nTotal 9.00", v("Daniel Okafor"), "vendor_name", why},
		{"patient", "Riverside Dental Clinic\nPatient: Maria Gonzalez\nTotal $9.00", v("Maria Gonzalez"), "vendor_name", why},
	})
}
