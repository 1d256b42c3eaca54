package local_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/reflect-mcp/reflect/pipeline"
	"github.com/reflect-mcp/reflect/providers/local"
)

func generate(t *testing.T, text string) pipeline.Extraction {
	t.Helper()
	ext, err := local.New().Generate(context.Background(), pipeline.Document{Text: text}, pipeline.Invoice())
	if err != nil {
		t.Fatalf("Generate: %v", err)
	}
	for name, v := range ext.Record {
		ev, ok := ext.Evidence[name]
		if v != nil && (!ok || ev.Method == "" || ev.Confidence <= 0 || ev.Confidence > 1) {
			t.Errorf("%s = %v has no usable evidence: %+v", name, v, ev)
		}
		if v == nil && ok {
			t.Errorf("%s is null but has evidence %+v", name, ev)
		}
	}
	return ext
}

func want(t *testing.T, ext pipeline.Extraction, field string, v any) {
	t.Helper()
	if got := ext.Record[field]; got != v {
		t.Errorf("%s = %#v (%s), want %#v", field, got, ext.Evidence[field].Method, v)
	}
}

func conf(ext pipeline.Extraction, field string) float64 { return ext.Evidence[field].Confidence }

func TestGermanInvoice(t *testing.T) {
	ext := generate(t, `Schreinerei Holzmann GmbH
Werkstraße 4, 80331 München

RECHNUNG
Rechnungsnummer: RE-2026-031
Datum: 14.03.2026

Kunde: Beispiel AG, Berlin

Nettobetrag:        1.037,45 €
MwSt. 19 %:           197,11 €
Gesamtbetrag:       1.234,56 €
Fällig am: 28.03.2026`)
	want(t, ext, "vendor_name", "Schreinerei Holzmann GmbH")
	want(t, ext, "invoice_number", "RE-2026-031")
	want(t, ext, "invoice_date", "2026-03-14")
	want(t, ext, "subtotal", 1037.45)
	want(t, ext, "tax", 197.11)
	want(t, ext, "total", 1234.56)
	want(t, ext, "currency", "EUR")
	if c := conf(ext, "total"); c < 0.9 {
		t.Errorf("total confidence %.2f: a labelled total confirmed by subtotal + tax should be >= 0.9", c)
	}
}

func TestBillToBlockIsNeverTheVendor(t *testing.T) {
	ext := generate(t, `INVOICE
Invoice No: 77
Bill To:
Initech LLC
42 Main Street

Total: $10.00`)
	if v := ext.Record["vendor_name"]; v != nil && strings.Contains(v.(string), "Initech") {
		t.Errorf("vendor_name = %q: the bill-to customer was taken as the vendor", v)
	}
	ext = generate(t, `Hooli Ltd
INVOICE
Sold to: Initech LLC
Total: £10.00`)
	want(t, ext, "vendor_name", "Hooli Ltd")
	want(t, ext, "currency", "GBP")
}

func TestMoneyRolesCompete(t *testing.T) {
	ext := generate(t, `KEDAI MAJU SDN BHD
TOTAL EXCL. GST: 100.00
GST 6%: 6.00
TOTAL INCL. GST: 106.00
CASH 110.00
CHANGE 4.00`)
	want(t, ext, "subtotal", 100.0)
	want(t, ext, "tax", 6.0)
	want(t, ext, "total", 106.0)
	want(t, ext, "currency", nil)
	if c := conf(ext, "total"); c < 0.9 {
		t.Errorf("total confidence %.2f, want >= 0.9", c)
	}
}

func TestFinalTotalAfterRounding(t *testing.T) {
	ext := generate(t, `TOTAL (INCLUSIVE OF GST): 23.79
ROUNDING ADJ: 0.01
TOTAL: 23.80
CASH: 50.00
CHANGE: 26.20
AMOUNT (RM) GST (RM)`)
	want(t, ext, "total", 23.8)
	want(t, ext, "currency", "MYR")

	ext = generate(t, "SUB TOTAL 44.00\nGST 6% 2.64\nROUNDED TOTAL (RM): 46.65\n")
	want(t, ext, "total", 46.65)
}

func TestTotalLabelOnTheLineAbove(t *testing.T) {
	ext := generate(t, "GRAND TOTAL\n45.50\nCASH\n50.00\n")
	want(t, ext, "total", 45.5)
}

func TestTaxSummaryRowIsNotTheTotal(t *testing.T) {
	ext := generate(t, "TOTAL SALES (INCLUSIVE OF GST): 31.90\nGST SUMMARY AMOUNT TAX\nTOTAL : 30.09 1.81\n")
	want(t, ext, "total", 31.9)
}

func TestConflictingTotalsAreFlaggedLow(t *testing.T) {
	ext := generate(t, "Total: 40.00\nTotal: 55.00\n")
	if v := ext.Record["total"]; v == nil || conf(ext, "total") >= 0.7 {
		t.Errorf("total %v with confidence %.2f: disagreeing totals must come out below the gate", v, conf(ext, "total"))
	}
}

func TestDates(t *testing.T) {
	cases := []struct {
		name, text, want string
		guess            bool // confidence must fall below the gate
	}{
		{"ringgit reads day first", "Date: 03/04/2026\nTotal RM 5.00", "2026-04-03", false},
		{"dollar reads month first", "Date: 03/04/2026\nTotal $5.00", "2026-03-04", false},
		{"another date proves day first", "Date: 03/04/2026\nPrinted 15/04/2026\nTotal $5.00", "2026-04-03", false},
		{"no hint is a day-first guess", "Date: 03/04/2026\nTotal 5.00", "2026-04-03", true},
		{"due date ignored", "Due date: 2026-03-01\nInvoice date: 2026-02-01\nTotal 5.00", "2026-02-01", false},
		{"month name", "Receipt\nApril 5, 2026\nTotal: 75.00", "2026-04-05", false},
		{"several unlabelled dates", "Printed 2026-01-02\nVisit 2026-01-09\nTotal 5.00", "2026-01-02", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ext := generate(t, c.text)
			want(t, ext, "invoice_date", c.want)
			if got := conf(ext, "invoice_date") < 0.7; got != c.guess {
				t.Errorf("confidence %.2f (%s): guess=%v, want guess=%v", conf(ext, "invoice_date"), ext.Evidence["invoice_date"].Method, got, c.guess)
			}
		})
	}
	ext := generate(t, "Payment due: 2026-03-01\nTotal 5.00")
	want(t, ext, "invoice_date", nil)
}

func TestIdentifiers(t *testing.T) {
	cases := map[string]any{
		"Rechnungsnummer: RE-1001\n":           "RE-1001",
		"FACTURE N° F-2026-031\n":              "F-2026-031",
		"Receipt No: 12345\n":                  "12345",
		"TAX INVOICE #BW-7781\n":               "BW-7781",
		"INVOICE NO : PEGIV-1030765\n":         "PEGIV-1030765",
		"Please find our invoice below.\n":     nil,
		"Invoice date: 2026-03-03\nTotal 5.00": nil,
	}
	for text, id := range cases {
		ext := generate(t, text)
		want(t, ext, "invoice_number", id)
	}
}

func TestCurrencies(t *testing.T) {
	cases := map[string]any{
		"Total RM 12.00":                "MYR",
		"Total: 12,00 €":                "EUR",
		"Total £12.00":                  "GBP",
		"合計 ¥1,200":                     "JPY",
		"Total $12.00":                  "USD",
		"Total $12.00 CAD":              "CAD",
		"Total AUD 64.94":               "AUD",
		"Total 12.00":                   nil,
		"Total: 12.00\nAmounts in USD.": "USD",
	}
	for text, code := range cases {
		ext := generate(t, text)
		want(t, ext, "currency", code)
	}
}

func TestVendorRules(t *testing.T) {
	cases := []struct {
		text, want string
		guess      bool
	}{
		{"*** COPY ***\nTAX INVOICE\nOJC MARKETING SDN BHD\nROC NO: 538358-H\nTOTAL: 5.00", "OJC MARKETING SDN BHD", false},
		{"VIVOPAC MARKETING SDN BHD (1070687-M)\n14 JALAN MANIS 4\nTOTAL 5.00", "VIVOPAC MARKETING SDN BHD", false},
		// Read whole, and flagged: the line above could be a brand or a person.
		{"WESTERN EASTERN\nSTATIONERY SDN. BHD\nCO REG NO : 210038-K\nTOTAL 5.00", "WESTERN EASTERN STATIONERY SDN. BHD", true},
		{"Supplier: Distribuciones García S.L.\nTotal: 5,00 €", "Distribuciones García S.L", false},
		{"Hi team, forwarding the bill from Globex Ltd below.\nTotal 5.00", "Globex Ltd", false},
		{"From: billing@acme.com\nSubject: invoice\n\nACME Supplies Inc.\nTotal $5.00", "ACME Supplies Inc", false},
		{"ROYALTEA\nNO. 23\nTOTAL 5.00", "ROYALTEA", true},
	}
	for _, c := range cases {
		ext := generate(t, c.text)
		got, _ := ext.Record["vendor_name"].(string)
		if !strings.EqualFold(strings.TrimRight(got, "."), c.want) {
			t.Errorf("vendor_name = %q (%s), want %q", got, ext.Evidence["vendor_name"].Method, c.want)
			continue
		}
		if g := conf(ext, "vendor_name") < 0.7; g != c.guess {
			t.Errorf("%q: confidence %.2f, want guess=%v", got, conf(ext, "vendor_name"), c.guess)
		}
	}
}

func TestNothingFoundIsNull(t *testing.T) {
	ext := generate(t, "hello world, nothing to see here")
	for name, v := range ext.Record {
		if v != nil {
			t.Errorf("%s = %v from a text that states nothing", name, v)
		}
	}
	if len(ext.Record) != len(pipeline.Invoice().Fields) {
		t.Errorf("record has %d fields, want every schema field", len(ext.Record))
	}
}

// The rules read kinds and roles, never field names.
func TestCustomSchemaByKindAndRole(t *testing.T) {
	s, err := pipeline.ParseSchema([]byte(`name: slip
fields:
  - name: merchant
    kind: text
  - name: when
    kind: date
  - name: grand
    kind: money
    role: total
  - name: note
    kind: text
`), "slip.yaml")
	if err != nil {
		t.Fatal(err)
	}
	ext, err := local.New().Generate(context.Background(), pipeline.Document{Text: "Hooli Ltd\nDate: 2026-01-05\nSubtotal 9.00\nTotal 10.00"}, s)
	if err != nil {
		t.Fatal(err)
	}
	want(t, ext, "merchant", "Hooli Ltd")
	want(t, ext, "when", "2026-01-05")
	want(t, ext, "grand", 10.0)
	want(t, ext, "note", nil)
}

func TestCancelledContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := local.New().Generate(ctx, pipeline.Document{Text: "Total 5.00"}, pipeline.Invoice())
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

// Through the real gate, a guessed field is flagged and a labelled one passes.
func TestGateFlagsGuesses(t *testing.T) {
	p, err := pipeline.New(pipeline.Config{Schema: pipeline.Invoice(), Generator: local.New(), Gate: pipeline.DefaultGate()})
	if err != nil {
		t.Fatal(err)
	}
	res, err := p.Extract(context.Background(), pipeline.Document{Text: "ROYALTEA\nDate: 2026-05-09\nTOTAL RM 10.90\nCASH RM 11.00\nCHANGE RM 0.10"})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Flagged("vendor_name") {
		t.Errorf("a vendor guessed from the first line must be flagged: %+v", res.FlaggedFields)
	}
	for _, f := range []string{"total", "invoice_date", "currency"} {
		if res.Flagged(f) {
			t.Errorf("%s is labelled in the source but was flagged: %+v", f, res.FlaggedFields)
		}
	}
	if res.Status != pipeline.StatusNeedsReview {
		t.Errorf("status %s, want needs_review", res.Status)
	}
}

// The README's one-line example: the vendor is the text before the first comma.
func TestOneLineDocumentVendor(t *testing.T) {
	ext, err := local.New().Generate(context.Background(), pipeline.Document{Text: "ACME CORP, Invoice #INV-1001, Total: $108.50"}, pipeline.Invoice())
	if err != nil {
		t.Fatal(err)
	}
	if ext.Record["vendor_name"] != "ACME CORP" || ext.Record["total"] != 108.5 || ext.Record["invoice_number"] != "INV-1001" {
		t.Fatalf("got %v", ext.Record)
	}
	if ev := ext.Evidence["vendor_name"]; ev.Confidence < 0.7 {
		t.Fatalf("a legal suffix before the first comma is decent evidence: %+v", ev)
	}
	ext, _ = local.New().Generate(context.Background(), pipeline.Document{Text: "Hello there, please pay 20.00 EUR"}, pipeline.Invoice())
	if v := ext.Record["vendor_name"]; v != nil && ext.Evidence["vendor_name"].Confidence >= 0.7 {
		t.Fatalf("a greeting is not a confident vendor: %v %+v", v, ext.Evidence["vendor_name"])
	}
}

// Cases a new user found returned wrong values as fine.
func TestNewUserCases(t *testing.T) {
	gen := func(text string) pipeline.Extraction {
		t.Helper()
		ext, err := local.New().Generate(context.Background(), pipeline.Document{Text: text}, pipeline.Invoice())
		if err != nil {
			t.Fatal(err)
		}
		return ext
	}
	if ext := gen("Lumen Studio LLC\nInvoice 77\nTotal hours: 40\n"); ext.Record["total"] != nil {
		t.Errorf("hours are not money: total %v", ext.Record["total"])
	}
	ext := gen("Harbour Tiles Pty Ltd\nABN 12 345 678 901\nInvoice 5\nGST 20.00\n$220.00 TOTAL")
	if ext.Record["currency"] != "AUD" {
		t.Errorf("an Australian invoice's $ is AUD, got %v", ext.Record["currency"])
	}
	if ev := gen("Acme LLC\nInvoice 9\nTotal: $10.00").Evidence["currency"]; ev.Confidence >= 0.7 {
		t.Errorf("a bare $ is a guess the gate should flag: %+v", ev)
	}
	if v := gen("\ufeffGlobex Ltd\r\nInvoice No: G-1\r\nTotal: 10.00 EUR\r\n").Record["vendor_name"]; v != "Globex Ltd" {
		t.Errorf("a byte-order mark leaked into the vendor: %q", v)
	}
}

// A custom schema's labels fill fields the invoice rules know nothing of.
func TestCustomSchemaFieldsByLabel(t *testing.T) {
	s, err := pipeline.ParseSchema([]byte(`name: lab
fields:
  - {name: lab_name, kind: text}
  - {name: patient, kind: text, labels: [patient]}
  - {name: specimen_id, kind: identifier, labels: [specimen]}
  - {name: printed, kind: date, labels: [printed]}
  - {name: collected, kind: date, labels: [collected]}
`), "lab.yaml")
	if err != nil {
		t.Fatal(err)
	}
	text := "CITY GENERAL LAB LTD\nPatient: Maria Gonzalez\nSpecimen: KM/55/2026\nDue date: 2026-05-01\nPrinted 2026-04-20\nCollected: 2026-04-18\n"
	ext, err := local.New().Generate(context.Background(), pipeline.Document{Text: text}, s)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"patient": "Maria Gonzalez", "specimen_id": "KM/55/2026", "collected": "2026-04-18"}
	for f, v := range want {
		if ext.Record[f] != v {
			t.Errorf("%s = %v, want %v (%+v)", f, ext.Record[f], v, ext.Evidence[f])
		}
	}
}

// A tax word that qualifies another quantity is not the tax, and the tax a
// total holds is not the total (issue 9 class 1).
func TestQualifiedTaxLabels(t *testing.T) {
	ext := generate(t, "SUBTOTAL 22.44\nROUNDING ADJUSTMENTS 0.01\nTOTAL (GST INCL) 22.45\nVISA CARD 22.45\n")
	want(t, ext, "total", 22.45)
	ext = generate(t, "ITEM 4.20\nTOTAL AMOUNT 4.20\nCASH 50.20\nCHANGE 46.00\nGST @6% INCLUDED IN TOTAL 0.24\n")
	want(t, ext, "total", 4.2)
	want(t, ext, "tax", 0.24)
	if c := conf(ext, "tax"); c < 0.7 {
		t.Errorf("tax 0.24 is 6%% of 4.20 - 0.24: the printed rate corroborates it, confidence %.2f", c)
	}
	ext = generate(t, "DUE 25.15\nPAY 25.15\nCHANGE 0.00\n(TOTAL INCLUDED GST @ 6% : 1.42)\n")
	if ext.Record["total"] == 1.42 {
		t.Errorf("the GST a total includes was read as the total")
	}
	ext = generate(t, "TOTAL AMT................. RM 60.31\nROUNDING ADJ -0.01\nTOTAL RM 60.30\n")
	want(t, ext, "total", 60.3)
}

// Honest tiers: a labelled value nothing corroborates is below the gate;
// arithmetic, tendered - change or item lines that agree lift it.
func TestUncorroboratedEvidenceIsBelowTheGate(t *testing.T) {
	ext := generate(t, "Total: 55.00\n")
	if c := conf(ext, "total"); c >= 0.7 {
		t.Errorf("a lone labelled total at %.2f: nothing corroborates it", c)
	}
	if tier := ext.Evidence["total"].Tier; tier != "total:labelled" {
		t.Errorf("tier %q, want total:labelled", tier)
	}
	for text, tier := range map[string]string{
		"Subtotal 50.00\nTax 5.00\nTotal 55.00\n":                         "total:labelled+arithmetic",
		"Total 55.00\nCash 60.00\nChange 5.00\n":                          "total:labelled+tendered",
		"Coffee 20.00\nCake 35.00\nTotal 55.00\n":                         "total:labelled+items",
		"Coffee 20.00\nCake 30.00\nTotal 55.00\n":                         "total:labelled+largest",
		"GST SUMMARY AMOUNT TAX\nTOTAL 50.00 5.00\nTotal payable 55.00\n": "",
	} {
		ext := generate(t, text)
		if c := conf(ext, "total"); c < 0.7 {
			t.Errorf("%q: corroborated total at %.2f (%s)", text, c, ext.Evidence["total"].Method)
		}
		if tier != "" && ext.Evidence["total"].Tier != tier {
			t.Errorf("%q: tier %q, want %q", text, ext.Evidence["total"].Tier, tier)
		}
	}
	ext = generate(t, "TOTAL AMT PAYABLE : 6.35\nROUNDING ADJUSTMENT : -0.01\nGST SUMMARY AMOUNT TAX\n(RM) (RM)\nSR @ A 6.00 0.36\nTOTAL 6.00 0.36\n")
	want(t, ext, "subtotal", 6.0)
	want(t, ext, "tax", 0.36)
	if tier := ext.Evidence["tax"].Tier; tier != "tax:summary+arithmetic" {
		t.Errorf("tax tier %q, want tax:summary+arithmetic", tier)
	}
}

// Totals the labels alone would miss: the payable after a rounding line, a
// subtotal and tax whose sum is printed, dates glued to their time.
func TestPayableAndGluedDates(t *testing.T) {
	ext := generate(t, "TOTAL AMT................. RM 60.31\nROUNDING ADJ............ -0.01\nRM 60.30\nCASH RM 70.30\nCHANGE RM 10.00\n")
	want(t, ext, "total", 60.3)
	ext = generate(t, "6 SUB TOTAL 65.00\nGST 6% 3.90\n68.90\nNET TOTAL\nCASH 100.00\n31.10\nCHANGE\n")
	want(t, ext, "total", 68.9)
	ext = generate(t, "ITEM TOTAL 3\nTOTAL 11.25\n")
	want(t, ext, "total", 11.25)
	ext = generate(t, "12/06/2016-13:30:10-28-NORBAIZURA BT-101\nTOTAL RM 5.00\n")
	want(t, ext, "invoice_date", "2016-06-12")
	ext = generate(t, "DATE/TIME : 20180428/191204\nTOTAL RM 5.00\n")
	want(t, ext, "invoice_date", "2018-04-28")
	// The document's only date, with its time printed next to it: two
	// signals, and the verify stage grounds the shape (dateshapes.go).
	if c := conf(ext, "invoice_date"); c < 0.7 {
		t.Errorf("the only date, next to its time: confidence %.2f, want at least 0.7", c)
	}
	// Eight digits after a date label but with no time are a guess.
	ext = generate(t, "DATE 20180428 REF\nTOTAL RM 5.00\n")
	want(t, ext, "invoice_date", "2018-04-28")
	if c := conf(ext, "invoice_date"); c >= 0.7 {
		t.Errorf("a date read from eight digits with no time is a guess, confidence %.2f", c)
	}
}

// A name printed again below the letterhead corroborates it; a title line
// is never the name (issue 9 class 6).
func TestVendorCorroboratedByRepetition(t *testing.T) {
	ext := generate(t, "GUARDIAN HEALTH\nGST REG #000899874816\nSUBTOTAL 2.56\nTHANK YOU FOR SHOPPING\nAT GUARDIAN\n")
	want(t, ext, "vendor_name", "GUARDIAN HEALTH")
	if c := conf(ext, "vendor_name"); c < 0.7 {
		t.Errorf("a name repeated in the footer at %.2f (%s)", c, ext.Evidence["vendor_name"].Method)
	}
	ext = generate(t, "ADVANCE SHIPPING NOTICE\nNotice no. 55\nShipping by road\nTotal 5.00\n")
	if v := ext.Record["vendor_name"]; v == "ADVANCE SHIPPING NOTICE" {
		t.Errorf("a document title was read as the vendor")
	}
}

// Tax summaries whose columns have two-word names read as base and tax.
func TestTaxSummaryTwoWordColumns(t *testing.T) {
	ext := generate(t, "TOTAL (GST INCL) 13.78\nCASH 20.00\nCHANGE 6.22\nGST RATE GST EXCL GST AMT\nS 6% 13.00 0.78\n")
	want(t, ext, "subtotal", 13.0)
	want(t, ext, "tax", 0.78)
	want(t, ext, "total", 13.78)
	ext = generate(t, "Summe 119,00 €\nNetto MwSt Brutto\n100,00 19,00 119,00\n")
	want(t, ext, "subtotal", 100.0)
	want(t, ext, "tax", 19.0)
}

// Receipt-number labels as receipts print them, and a transaction number
// only when no receipt number is printed.
func TestIdentifierLabelForms(t *testing.T) {
	for text, id := range map[string]any{
		"INVOICE.NO: 12345\n":                      "12345",
		"INV-NO. A-778\n":                          "A-778",
		"CB#: 55012\n":                             "55012",
		"ST:8046 CTR2 ID:4986 TAXINV:68089\n":      "68089",
		"TRANSACTION NO: 1-481374\n":               "1-481374",
		"TRANSACTION NO: 1-481374\nCHECK # 1340\n": "1340",
		// A Brazilian invoice's own name (new-user report, session 6: the
		// number came back null and unflagged).
		"Padaria Pão Quente Ltda\nNota Fiscal nº 004512\n": "004512",
	} {
		ext := generate(t, text)
		want(t, ext, "invoice_number", id)
	}
	if c := conf(generate(t, "TRANSACTION NO: 1-481374\n"), "invoice_number"); c >= 0.7 {
		t.Errorf("a transaction number read as the receipt's at %.2f", c)
	}
}

// A currency named in a sentence is read: "Please pay in GBP", "payable in
// USD", "amount in EUR", with no sign or code beside the amounts.
func TestCurrencyNamedInProse(t *testing.T) {
	for text, code := range map[string]string{
		"Hi team, forwarding the bill from Globex Ltd below.\nThe amount due is 583.20. Please pay in GBP. Thanks!": "GBP",
		"Initech LLC\nInvoice 77\nTotal 1,200.00\nThis invoice is payable in USD within 30 days.":                   "USD",
		"Muster GmbH\nRechnung 12\nGesamtbetrag 99,00\nAll figures: amount in EUR":                                  "EUR",
	} {
		want(t, generate(t, text), "currency", code)
	}
	// "paid in full" names no currency.
	want(t, generate(t, "ACME Corp\nTotal 5.00\nPaid in full. THE END"), "currency", nil)
}
