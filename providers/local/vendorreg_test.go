package local_test

import "testing"

// A registration number printed with the name corroborates a letterhead
// line that has no legal suffix; a German Handelsregister line and a
// Japanese 法人番号 are the same class as a Malaysian "(872981-V)".
func TestRegisteredNameCorroborates(t *testing.T) {
	for _, tc := range []struct{ name, text, vendor string }{
		{"malaysian number below", "BEYOND BROTHERS HARDWARE\n(872981-V)\nLOT 1-0-2, JLN 1/50\nDATE: 02/01/2018\nTOTAL 12.00", "BEYOND BROTHERS HARDWARE"},
		{"number in brackets on the line", "FLORISM DE ART (940075-X)\nLOT 2.70.00\nDATE: 02/01/2018\nTOTAL 12.00", "FLORISM DE ART"},
		{"german register line", "Bäckerei Sonnenschein\nHRB 123456\nHauptstraße 5, 10115 Berlin\nDatum: 02.01.2024\nSumme 12,00", "Bäckerei Sonnenschein"},
		{"japanese corporate number", "さくら書店\n法人番号 1234567890123\n東京都港区1-2-3\n日付: 2024/01/02\n合計 1200", "さくら書店"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ext := generate(t, tc.text)
			want(t, ext, "vendor_name", tc.vendor)
			if ev := ext.Evidence["vendor_name"]; ev.Tier == "" || ev.Confidence < 0.7 {
				t.Errorf("vendor evidence %+v: a registered name must clear the gate", ev)
			}
		})
	}
	// A tax registration (GST/VAT) below the line is not a company number,
	// and a name over two lines is not helped: the number says where the
	// name ends, not where it starts.
	for _, text := range []string{
		"BEYOND BROTHERS HARDWARE\nGST ID: 000123456789\nLOT 1-0-2\nDATE: 02/01/2018\nTOTAL 12.00",
		"TAN WOON YANN\nYONGFATT ENTERPRISE\n(JM0517726)\nNO 122 JALAN DEDAP 13\nDATE: 02/01/2018\nTOTAL 12.00",
	} {
		if ext := generate(t, text); conf(ext, "vendor_name") >= 0.7 {
			t.Errorf("%q: vendor %v at %.2f (%s), want below the gate", text, ext.Record["vendor_name"], conf(ext, "vendor_name"), ext.Evidence["vendor_name"].Tier)
		}
	}
}

// A name whose word is one letter off a legal suffix was damaged by the
// scan: flagged, even on the letterhead line with a registration number.
func TestDamagedSuffixWordIsFlagged(t *testing.T) {
	for _, text := range []string{
		"HAPPY SNACKS ENTYERPRISE\n(002022599 - U)\n19 JALAN MERANTI\nDATE: 20/03/2018\nTOTAL: 26.82",
		"SWC ENTERORISE SDN BHD\n(1125830-V)\n5-7, JALAN MAHAGONI\nDATE: 28/03/2018\nTOTAL 30.00",
	} {
		if ext := generate(t, text); conf(ext, "vendor_name") >= 0.7 {
			t.Errorf("%q: vendor %v at %.2f, want below the gate", text, ext.Record["vendor_name"], conf(ext, "vendor_name"))
		}
	}
}

// A name over two lines: a line ending in "&" continues on the next; a
// first line naming a business, closed by a suffix line and the register's
// number, is read whole and corroborated; a person's name above is not.
func TestNameOverTwoLines(t *testing.T) {
	ext := generate(t, "HOME MASTER HARDWARE &\nELECTRICAL\nNO.113G JALAN SETIA\nDATE: 02/01/2018\nTOTAL 12.00")
	want(t, ext, "vendor_name", "HOME MASTER HARDWARE & ELECTRICAL")
	ext = generate(t, "KEDAI UBAT & RUNCIT HONG\nNING SDN. BHD.\n(717853-P)\nNO.8 KEPONG BARU\nDATE: 02/01/2018\nTOTAL 12.00")
	want(t, ext, "vendor_name", "KEDAI UBAT & RUNCIT HONG NING SDN. BHD.")
	if c := conf(ext, "vendor_name"); c < 0.7 {
		t.Errorf("registered two-line business name at %.2f, want above the gate", c)
	}
	ext = generate(t, "TAN WOON YANN\nYONGFATT ENTERPRISE\n(JM0517726)\nNO 122 JALAN DEDAP\nDATE: 02/01/2018\nTOTAL 12.00")
	if c := conf(ext, "vendor_name"); c >= 0.7 {
		t.Errorf("%v at %.2f: a person's name above the company line must keep the name in review", ext.Record["vendor_name"], c)
	}
}
