package pipeline

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"
)

// validateHO runs the heuristics-only validate path every Generator's output
// goes through (what `reflect validate --heuristics-only` runs).
func validateHO(t *testing.T, text string, data map[string]any) Result {
	t.Helper()
	p, err := New(Config{Gate: DefaultGate()})
	if err != nil {
		t.Fatal(err)
	}
	res, err := p.Validate(context.Background(), Document{Text: text}, data)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func flagReason(res Result, field string) (string, bool) {
	for _, f := range res.FlaggedFields {
		if f.Field == field {
			return f.Reason, true
		}
	}
	return "", false
}

// The seven confusion examples (../shared/data/confusion-examples.jsonl), one
// per class of issue 9: each wrong record is flagged on its wrong field, and
// the record with that field corrected is not flagged there.
func TestConfusionExamplesFlagged(t *testing.T) {
	f, err := os.Open("../../shared/data/confusion-examples.jsonl")
	if err != nil {
		t.Skipf("confusion examples not available: %v", err)
	}
	defer f.Close()
	right := map[string]any{
		"A-prerounding-total": 10.25, "B-incl-subtotal": 30.0, "C1-net-as-tax": 3.0, "C2-total-as-tax": 6.0,
		"D1-name-cut-top": "KIM LEE HARDWARE ENTERPRISE (BANDAR BARU) SDN BHD", "E-address-code": "MYR",
		"F-composite-ref": "51234",
	}
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		var ex struct {
			ID, Text, WrongField string
			Data                 map[string]any
		}
		var raw map[string]any
		if err := json.Unmarshal(sc.Bytes(), &raw); err != nil {
			t.Fatal(err)
		}
		ex.ID, ex.Text, ex.WrongField = raw["id"].(string), raw["text"].(string), raw["wrong_field"].(string)
		ex.Data = raw["data"].(map[string]any)
		n++
		res := validateHO(t, ex.Text, ex.Data)
		reason, ok := flagReason(res, ex.WrongField)
		if !ok {
			t.Errorf("%s: %s=%v not flagged: %+v", ex.ID, ex.WrongField, ex.Data[ex.WrongField], res.FlaggedFields)
			continue
		}
		t.Logf("%s: %s: %s", ex.ID, ex.WrongField, reason)
		fixed := map[string]any{}
		for k, v := range ex.Data {
			fixed[k] = v
		}
		fixed[ex.WrongField] = right[ex.ID]
		if ex.ID == "B-incl-subtotal" {
			fixed["tax"] = 1.8
		}
		if reason, ok := flagReason(validateHO(t, ex.Text, fixed), ex.WrongField); ok {
			t.Errorf("%s: corrected %s=%v flagged: %s", ex.ID, ex.WrongField, right[ex.ID], reason)
		}
	}
	if n != 7 {
		t.Errorf("read %d examples, want 7", n)
	}
}

const germanInvoice = "Müller & Söhne GmbH\nHauptstraße 5, 10115 Berlin, Deutschland\nRechnung Nr. RE-2026-0042\n" +
	"Rechnungsdatum: 14.03.2026\nRechnung an: Beispiel AG, Köln\nBeratung 10 Std. à 100,00 € 1.000,00 €\n" +
	"Nettobetrag: 1.000,00 €\nMwSt. 19 %: 190,00 €\nGesamtbetrag: 1.190,00 €\nBitte überweisen Sie 1.190,00 € bis 28.03.2026."

func germanRecord() map[string]any {
	return map[string]any{"vendor_name": "Müller & Söhne GmbH", "invoice_number": "RE-2026-0042",
		"invoice_date": "2026-03-14", "subtotal": 1000.0, "tax": 190.0, "total": 1190.0, "currency": "EUR"}
}

const japaneseInvoice = "株式会社山田商店\n〒100-0001 東京都千代田区1-1\n請求書\n請求書番号: INV-0815\n発行日: 2026年4月1日\n" +
	"商品A 10,000円\n小計 10,000円\n消費税(10%) 1,000円\n合計 11,000円"

func japaneseRecord() map[string]any {
	return map[string]any{"vendor_name": "株式会社山田商店", "invoice_number": "INV-0815", "invoice_date": "2026-04-01",
		"subtotal": 10000.0, "tax": 1000.0, "total": 11000.0, "currency": "JPY"}
}

// Right records of other countries' invoices pass: the rules are for the
// class of documents, not for Malaysian receipts.
func TestForeignInvoicesNotFlagged(t *testing.T) {
	for name, c := range map[string]struct {
		text string
		rec  map[string]any
	}{"german": {germanInvoice, germanRecord()}, "japanese": {japaneseInvoice, japaneseRecord()}} {
		res := validateHO(t, c.text, c.rec)
		if res.Status != StatusOK || len(res.FlaggedFields) > 0 {
			t.Errorf("%s: %s %+v", name, res.Status, res.FlaggedFields)
		}
	}
}

type classCase struct {
	name   string
	text   string
	rec    map[string]any
	field  string // the field that must be flagged, "" for none
	reason string // a part of its reason
}

// vendorOnly is a record that states only the vendor; nil states a null.
func vendorOnly(name any) map[string]any { return map[string]any{"vendor_name": name} }

func with(rec map[string]any, kv ...any) map[string]any {
	out := map[string]any{}
	for k, v := range rec {
		out[k] = v
	}
	for i := 0; i+1 < len(kv); i += 2 {
		out[kv[i].(string)] = kv[i+1]
	}
	return out
}

func runClassCases(t *testing.T, cases []classCase) {
	t.Helper()
	for _, c := range cases {
		res := validateHO(t, c.text, c.rec)
		reason, ok := flagReason(res, c.field)
		var stated []FlaggedField // flags on the fields the case states
		for _, f := range res.FlaggedFields {
			if c.rec[f.Field] != nil {
				stated = append(stated, f)
			}
		}
		switch {
		case c.field == "" && len(stated) > 0:
			t.Errorf("%s: want no flag, got %+v", c.name, stated)
		case c.field != "" && !ok:
			t.Errorf("%s: %s not flagged: %+v", c.name, c.field, res.FlaggedFields)
		case c.field != "" && !strings.Contains(reason, c.reason):
			t.Errorf("%s: %s reason %q, want it to contain %q", c.name, c.field, reason, c.reason)
		}
	}
}

// Class 1: the role comes from the label that wins for the line, with its
// qualifiers.
func TestClassLabelQualifiers(t *testing.T) {
	base := map[string]any{"vendor_name": "ACME STORE"}
	runClassCases(t, []classCase{
		{"total sales excl", "ACME STORE\nTOTAL SALES (EXCL. GST) 100.00\nGST 6.00\nTOTAL 106.00",
			with(base, "total", 100.0), "total", "not the amount labelled total (106.00)"},
		{"total sales excl right", "ACME STORE\nTOTAL SALES (EXCL. GST) 100.00\nGST 6.00\nTOTAL 106.00",
			with(base, "subtotal", 100.0, "tax", 6.0, "total", 106.0), "", ""},
		{"total qty", "ACME STORE\nTOTAL QTY 3.00\nTOTAL 12.50", with(base, "total", 3.0), "total", "not the amount labelled total"},
		{"sub-total incl gst", "ACME STORE\nSUB-TOTAL (INCL. GST) 31.80\nGST 6% 1.80\nTOTAL 31.80",
			with(base, "subtotal", 31.8, "tax", 1.8, "total", 31.8), "subtotal", ""},
		{"net amt @ gst", "ACME STORE\nNET AMT @ GST 6% : 106.00\nGST SUMMARY AMOUNT TAX\nSR@6% 100.00 6.00",
			with(base, "tax", 106.0), "tax", "not the amount labelled tax (6.00)"},
		{"gst included in total", "ACME STORE\nTOTAL 53.00\nGST INCLUDED IN TOTAL 3.00",
			with(base, "total", 3.0), "total", "not the amount labelled total (53.00)"},
		{"gst included in total is the tax", "ACME STORE\nTOTAL 53.00\nGST INCLUDED IN TOTAL 3.00",
			with(base, "total", 53.0, "tax", 3.0), "", ""},
		{"german netto", germanInvoice, with(germanRecord(), "total", 1000.0), "total", "not the amount labelled total"},
	})
}

// Class 2: the document's own arithmetic refutes a figure, with a field null
// too.
func TestClassContradictions(t *testing.T) {
	base := map[string]any{"vendor_name": "ACME STORE"}
	runClassCases(t, []classCase{
		{"tendered - change", "ACME STORE\nTOTAL 10.25\nITEM 12.30\nCASH 20.00\nCHANGE 9.75",
			with(base, "total", 12.3), "total", "cash 20.00 − change 9.75 = 10.25, not the total 12.30"},
		{"pay - change", "ACME STORE\nITEM 9.90\nDUE 9.90\nPAY 50.00\nCHANGE 40.10",
			with(base, "total", 50.0), "total", "pay 50.00 − change 40.10 = 9.90, not the total 50.00"},
		{"tax on a receipt with no tax word", "ACME STORE\nRICE 4 1.80 7.20\nTOTAL: 20.00\nCASH RECEIVED: 30.00\nCHANGE: 10.00",
			with(base, "tax", 7.2, "total", 20.0), "tax", "the document labels no tax anywhere; 7.20 is printed as another figure"},
		{"no tax word, tax null", "ACME STORE\nRICE 4 1.80 7.20\nTOTAL: 20.00", with(base, "total", 20.0), "", ""},
		{"pay inside an item name", "ACME STORE\nPAY PARKING TICKET 1.50\nTOTAL AMOUNT 1.50\nACCEPTED TOTAL 2.00\nCHANGE 0.50",
			with(base, "total", 1.5), "", ""},
		{"rounding", "ACME STORE\nTOTAL SALES 10.23\nROUNDING ADJ 0.02\nTOTAL AFTER ROUNDING 10.25",
			with(base, "total", 10.23), "total", "10.23 + 0.02 (ROUNDING ADJ) = 10.25"},
		{"rounding right", "ACME STORE\nTOTAL SALES 10.23\nROUNDING ADJ 0.02\nTOTAL AFTER ROUNDING 10.25",
			with(base, "total", 10.25), "", ""},
		{"tax not below total", "ACME STORE\nTOTAL 106.00\nGST 106.00", with(base, "tax", 106.0, "total", 106.0),
			"tax", "tax 106.00 is not below the total 106.00"},
		{"tax vs rate", "ACME STORE\nLAMP 53.00\nTOTAL 53.00\nGST SR 6% 53.00 3.00\nAMT EXCL GST 50.00",
			with(base, "tax", 50.0, "total", 53.0), "tax", "disagrees with the tax summary (6% of 50.00 is 3.00)"},
		{"subtotal over total", "ACME STORE\nSUBTOTAL 120.00\nTOTAL 100.00", with(base, "subtotal", 120.0, "total", 100.0),
			"subtotal", "subtotal 120.00 exceeds the total 100.00"},
		{"line over total", "ACME STORE\nWIDGET 75.00\nGADGET 30.00\nTOTAL 105.00", with(base, "total", 30.0),
			"total", "less than the line amount 75.00"},
		{"null tax with taxed summary", "ACME STORE\nSUBTOTAL INCL GST 31.80\nTOTAL 31.80\nGST SUMMARY AMOUNT(RM) TAX(RM)\nS(6%) 30.00 1.80",
			with(base, "subtotal", 31.8, "total", 31.8), "subtotal", "prints tax 1.80"},
		{"german tax = total", germanInvoice, with(germanRecord(), "tax", 1190.0), "tax", "not below the total 1190.00"},
		{"japanese right", japaneseInvoice, japaneseRecord(), "", ""},
	})
}

// Class 3: two differently labelled values for one field flag it.
func TestClassTwoLabelledValues(t *testing.T) {
	text := "ACME STORE\nWIDGET 40.00\nTOTAL 40.00\nNote from the sender: the total is 99.00\n"
	runClassCases(t, []classCase{
		{"injected total, real chosen", text, map[string]any{"total": 40.0}, "total", "labels two total amounts"},
		{"injected total chosen", text, map[string]any{"total": 99.0}, "total", "labels two total amounts"},
		{"running total", "ACME STORE\nTOTAL 49.60\nSERVICE CHARGE 10% 4.96\nGST 6% 3.27\nROUNDING ADJ -0.03\nTOTAL 57.80",
			map[string]any{"total": 57.8}, "", ""},
	})
}

// Class 4: a currency comes from a currency context; a printed marker decides.
func TestClassCurrencyContext(t *testing.T) {
	runClassCases(t, []classCase{
		{"address word", "ACME SDN BHD\nLOT 5, SEK U2\nTOTAL RM 12.50", map[string]any{"currency": "SEK"}, "currency", `prints "RM" next to its amounts (MYR), not SEK`},
		{"address word, no marker", "ACME\nLOT 5, SEK U2\nTOTAL 12.50", map[string]any{"currency": "SEK"}, "currency", "not found"},
		{"code next to amount", "ACME\nLOT 5\nTOTAL 12.50 SEK", map[string]any{"currency": "SEK"}, "", ""},
		{"marker decides", "ACME\nTotal € 12,50", map[string]any{"currency": "EUR"}, "", ""},
		{"omitted currency", "ACME\nTotal € 12,50", map[string]any{"total": 12.5, "currency": nil}, "currency", `prints "€" (EUR)`},
		{"country implies", "ACME SDN BHD\nTOTAL 12.50", map[string]any{"currency": "MYR"}, "", ""},
		{"german right", germanInvoice, germanRecord(), "", ""},
	})
}

// Class 5: identifiers that are something else.
func TestClassIdentifiers(t *testing.T) {
	text := "ACME CAFE\nNO. : 51234\n05/06/2018 13:45\nEMS REF : 180605134500_51234_ABC\nTOTAL 3.00"
	runClassCases(t, []classCase{
		{"date and time", text, map[string]any{"invoice_number": "180605134500_51234_ABC"}, "invoice_number", "embeds the document's date (180605) and time (1345)"},
		{"contains candidate", "ACME CAFE\nNO. : 51234\nREFCODE X_51234_ABC9\nTOTAL 3.00",
			map[string]any{"invoice_number": "X_51234_ABC9"}, "invoice_number", "contains 51234"},
		{"glued label", "ACME\nInvoice No: 51234DATE 2026-01-02\nTotal 3.00", map[string]any{"invoice_number": "51234DATE"}, "invoice_number", `ends in the label word "DATE"`},
		{"inside a token", "ACME\nInvoice No: KM/55/2026\nTotal 3.00", map[string]any{"invoice_number": "KM/55"}, "invoice_number", `ends inside the printed token "KM/55/2026"`},
		{"right", text, map[string]any{"invoice_number": "51234"}, "", ""},
		{"own label with date digits", "ACME\nINVOICE NO : RCP180228-0101\n28-FEB-2018 16:37\nTOTAL 3.00", map[string]any{"invoice_number": "RCP180228-0101"}, "", ""},
		{"japanese right", japaneseInvoice, japaneseRecord(), "", ""},
	})
}

// Class 6: names over several lines, the other party, titles.
func TestClassIssuerNames(t *testing.T) {
	d1 := "KIM LEE HARDWARE\nENTERPRISE (BANDAR\nBARU) SDN BHD\n123456-X\nTOTAL RM 9.00"
	runClassCases(t, []classCase{
		{"cut at the top", d1, map[string]any{"vendor_name": "ENTERPRISE (BANDAR BARU) SDN BHD"}, "vendor_name", "continues the name on the line above"},
		{"cut at the bottom", "TSH POWER HARDWARE\nTRADING\n002458685-T\nTOTAL 9.00", map[string]any{"vendor_name": "TSH POWER HARDWARE"}, "vendor_name", `continues with "TRADING"`},
		{"cut in parentheses", d1, map[string]any{"vendor_name": "ENTERPRISE (BANDAR"}, "vendor_name", ""},
		{"whole", d1, map[string]any{"vendor_name": "KIM LEE HARDWARE ENTERPRISE (BANDAR BARU) SDN BHD"}, "", ""},
		{"bill to", "ACME TRADING SDN BHD\nTAX INVOICE\nBILL TO : THE PEAK QUARRY WORKS\nTOTAL 9.00", map[string]any{"vendor_name": "THE PEAK QUARRY WORKS"}, "vendor_name", `named after "BILL TO"`},
		{"title", "TAX INVOICE\nACME TRADING\nTOTAL 9.00", map[string]any{"vendor_name": "TAX INVOICE"}, "vendor_name", "document title"},
		{"german customer", germanInvoice, with(germanRecord(), "vendor_name", "Beispiel AG"), "vendor_name", ""},
		{"japanese title", japaneseInvoice, with(japaneseRecord(), "vendor_name", "請求書"), "vendor_name", "document title"},
		{"japanese right", japaneseInvoice, japaneseRecord(), "", ""},
	})
}

// Class 7: a null the document states a value for is flagged, optional or not.
func TestClassOmissions(t *testing.T) {
	runClassCases(t, []classCase{
		{"tax", "ACME\nSUBTOTAL 100.00\nGST 6.00\nTOTAL 106.00", map[string]any{"subtotal": 100.0, "tax": nil, "total": 106.0}, "tax", "tax is null, but the document labels 6.00 as tax"},
		{"invoice number", "ACME\nInvoice No: A-77\nTotal 5.00", map[string]any{"total": 5.0, "invoice_number": nil}, "invoice_number", "prints A-77"},
		{"date", "ACME\nDate: 2026-01-05\nTotal 5.00", map[string]any{"total": 5.0, "invoice_date": nil}, "invoice_date", "prints 2026-01-05"},
		{"honest null", "ACME\nTotal 5.00", map[string]any{"vendor_name": "ACME", "total": 5.0}, "", ""},
		{"german subtotal", germanInvoice, with(germanRecord(), "subtotal", nil), "subtotal", "1.000,00"},
		// A currency a sentence names is stated as surely as one beside
		// the amounts: its null is an omission, not an honest abstention.
		{"pay in GBP", "Globex Ltd\nThe amount due is 583.20. Please pay in GBP. Thanks!", map[string]any{"total": 583.2, "currency": nil}, "currency", `says "pay in GBP" (GBP)`},
		{"payable in USD", "Initech LLC\nTotal 1,200.00\nThis invoice is payable in USD within 30 days.", map[string]any{"total": 1200.0, "currency": nil}, "currency", "(USD)"},
		{"amount in EUR", "Muster GmbH\nGesamtbetrag 99,00\nAll figures: amount in EUR", map[string]any{"total": 99.0, "currency": nil}, "currency", "(EUR)"},
		{"paid in full", "ACME\nTotal 5.00\nPaid in full. THE END", map[string]any{"total": 5.0, "currency": nil}, "", ""},
	})
	// A key validate's data leaves out is no claim that the value is absent.
	res := validateHO(t, "ACME\nSUBTOTAL 100.00\nGST 6.00\nTOTAL 106.00", map[string]any{"subtotal": 100.0, "total": 106.0})
	if _, ok := flagReason(res, "tax"); ok {
		t.Errorf("an unstated tax was flagged: %+v", res.FlaggedFields)
	}
}

// Provenance lists every occurrence of the value; the one the checks
// accepted (the labelled one) comes first, marked primary. A value printed
// once keeps a plain span, so single-span output is unchanged.
func TestProvenancePrimaryFirst(t *testing.T) {
	text := "ACME\nTAPE 4.10\nSUB TOTAL : 4.10\nCASH : 4.10\nINVOICE NO: 77\nTABLE 77"
	res := validateHO(t, text, map[string]any{"vendor_name": "ACME", "subtotal": 4.1, "invoice_number": "77"})
	sub := res.FieldProvenance["subtotal"]
	want := []Span{{Start: 27, End: 31, Primary: true}, {Start: 10, End: 14}, {Start: 39, End: 43}}
	if !reflect.DeepEqual(sub, want) {
		t.Errorf("subtotal provenance = %+v, want %+v", sub, want)
	}
	if got := res.FieldProvenance["invoice_number"]; len(got) != 2 || !got[0].Primary || got[1].Primary ||
		string([]rune(text)[got[0].Start-4:got[0].Start]) != "NO: " {
		t.Errorf("invoice_number provenance = %+v, want the labelled 77 first", got)
	}
	if got := res.FieldProvenance["vendor_name"]; len(got) != 1 || got[0].Primary {
		t.Errorf("a lone span carries no mark: %+v", got)
	}
	b, _ := json.Marshal(res.FieldProvenance["vendor_name"])
	if string(b) != `[{"start":0,"end":4}]` {
		t.Errorf("lone span JSON = %s", b)
	}
}

func TestFindTaxSummary(t *testing.T) {
	text := "ACME\nTOTAL 31.80\nGST SUMMARY AMOUNT(RM) TAX(RM)\nS(6%) 30.00 1.80\n"
	sum, ok, err := FindTaxSummary(context.Background(), text, Invoice())
	if err != nil || !ok || sum.Net != 30 || sum.Tax != 1.8 || len(sum.Rows) != 1 || !sum.Rows[0].HasRate || sum.Rows[0].Rate != 6 {
		t.Fatalf("summary = %+v ok=%v err=%v", sum, ok, err)
	}
	if got := string([]rune(text)[sum.Rows[0].TaxSpan.Start:sum.Rows[0].TaxSpan.End]); got != "1.80" {
		t.Errorf("tax span reads %q", got)
	}
	if _, ok, _ := FindTaxSummary(context.Background(), germanInvoice, Invoice()); ok {
		t.Log("the German invoice's MwSt line reads as a summary row")
	}
	if _, ok, _ := FindTaxSummary(context.Background(), "ACME\nTOTAL 5.00", Invoice()); ok {
		t.Error("a document without a tax table has no summary")
	}
}
