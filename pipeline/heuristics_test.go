package pipeline

import (
	"bufio"
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"
)

const seedText = "Hi team, forwarding the bill from Globex Ltd below.\nRef: GLX/2026/778\nBilling date 2026-02-28.\nItems came to 540.00 before tax, tax was 43.20, and the amount due is 583.20. Please pay in GBP. Thanks!"

func seedRecord(total float64) Record {
	return Record{
		"vendor_name": "Globex Ltd", "invoice_number": "GLX/2026/778", "invoice_date": "2026-02-28",
		"subtotal": 540.0, "tax": 43.2, "total": total, "currency": "GBP",
	}
}

func TestHeuristicsSeedDemo(t *testing.T) {
	rep := RunHeuristics(seedText, Invoice(), seedRecord(683.2))
	want := map[string][]Span{
		"vendor_name":    {{Start: 34, End: 44}},
		"invoice_number": {{Start: 57, End: 69}},
		"invoice_date":   {{Start: 83, End: 93}},
		"subtotal":       {{Start: 109, End: 115}},
		"tax":            {{Start: 136, End: 141}},
		"currency":       {{Start: 187, End: 190}},
	}
	for name, spans := range want {
		c, ok := rep[name]
		if !ok {
			t.Fatalf("no check for %s", name)
		}
		if !reflect.DeepEqual(c.Spans, spans) {
			t.Errorf("%s spans = %v, want %v", name, c.Spans, spans)
		}
		if c.Factor < 0.9 {
			t.Errorf("%s factor = %v (%v), want >= 0.9", name, c.Factor, c.Reasons)
		}
	}
	total := rep["total"]
	if len(total.Spans) != 0 || total.Grounded {
		t.Errorf("total spans = %v grounded = %v, want none", total.Spans, total.Grounded)
	}
	if total.Factor > 0.3 {
		t.Errorf("total factor = %v, want <= 0.3", total.Factor)
	}
	all := strings.Join(total.Reasons, "\n")
	for _, want := range []string{
		"amount 683.2 not found in source text",
		"subtotal(540.0) + tax(43.2) != total(683.2)",
		"683.20 is not the amount labelled total (583.20)",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("total reasons %q lack %q", total.Reasons, want)
		}
	}
	if len(rep) != 7 {
		t.Errorf("report has %d fields, want 7", len(rep))
	}

	rep = RunHeuristics(seedText, Invoice(), seedRecord(583.2))
	for name, c := range rep {
		if c.Factor < 0.9 {
			t.Errorf("correct record: %s factor = %v (%v)", name, c.Factor, c.Reasons)
		}
	}
	if got := rep["total"].Spans; !reflect.DeepEqual(got, []Span{{Start: 165, End: 171}}) {
		t.Errorf("total spans = %v", got)
	}
}

// A null field gets an entry only when the document states its value: then
// the null is an omission, flagged with where the value is printed.
func TestHeuristicsNullFieldsGetNoEntry(t *testing.T) {
	rec := Record{"vendor_name": "Globex Ltd", "total": nil, "tax": nil}
	rep := RunHeuristics("Globex Ltd\nThanks for your order.", Invoice(), rec)
	if len(rep) != 1 {
		t.Fatalf("report = %v, want only vendor_name", rep)
	}
	rep = RunHeuristics(seedText, Invoice(), rec)
	if c := rep["tax"]; c.Factor != 0 || len(c.Spans) != 1 || c.Reasons[0] != "tax is null, but the document labels 43.20 as tax (TAX, line 4)" {
		t.Errorf("omitted tax: %+v", c)
	}
}

const itemInvoice = "ACME Supplies\nInvoice INV-1001\nWidget A 30.00\nWidget B 45.00\nTotal: 75.00\nPaid by card"

func TestHeuristicsItemLineTotal(t *testing.T) {
	s := Invoice()
	rep := RunHeuristics(itemInvoice, s, Record{"vendor_name": "ACME Supplies", "total": 45.0})
	c := rep["total"]
	if c.Factor > 0.3 {
		t.Errorf("stray item-line total factor = %v, want <= 0.3", c.Factor)
	}
	want := "45.00 is not the amount labelled total (75.00); it appears as an item-line amount"
	if len(c.Reasons) != 1 || c.Reasons[0] != want {
		t.Errorf("reasons = %q, want [%q]", c.Reasons, want)
	}
	if !c.Grounded || len(c.Spans) != 1 {
		t.Errorf("item amount is still grounded with provenance: %+v", c)
	}
	rep = RunHeuristics(itemInvoice, s, Record{"total": 75.0})
	if c := rep["total"]; c.Factor != 1 || len(c.Reasons) != 0 {
		t.Errorf("labelled total penalized: %+v", c)
	}
}

func TestHeuristicsRoleLabelsCompete(t *testing.T) {
	s := Invoice()
	text := "Subtotal 100.00\nTotal excl. GST 100.00\nGST 10.00\nTOTAL INCL GST 110.00\nCASH 120.00\nCHANGE 10.00"
	cases := []struct {
		rec     Record
		penalty bool
	}{
		{Record{"total": 110.0}, false},
		{Record{"total": 100.0}, true}, // labelled subtotal, not total
		{Record{"total": 120.0}, true}, // cash tendered
		{Record{"subtotal": 100.0}, false},
		{Record{"tax": 10.0}, false}, // "GST 10.00" is the tax even though CHANGE is 10.00 too
		{Record{"subtotal": 110.0}, true},
	}
	for _, tc := range cases {
		rep := RunHeuristics(text, s, tc.rec)
		for name, c := range rep {
			if tc.rec[name] == nil {
				continue // omissions: the document labels every role
			}
			if got := c.Factor < 1; got != tc.penalty {
				t.Errorf("%v: %s factor %v reasons %q, want penalty=%v", tc.rec, name, c.Factor, c.Reasons, tc.penalty)
			}
		}
	}
	rep := RunHeuristics(text, s, Record{"total": 100.0})
	if r := rep["total"].Reasons; len(r) != 2 || !strings.Contains(r[0], `it appears labelled "SUBTOTAL"`) ||
		r[1] != "cash 120.00 − change 10.00 = 110.00, not the total 100.00" {
		t.Errorf("reasons = %q", r)
	}
}

func TestHeuristicsArithmetic(t *testing.T) {
	s := Invoice()
	// Every operand is where the source labels it, yet they do not add up:
	// the source disagrees with itself, so only the result is mildly lowered.
	text := "Subtotal: 100.00\nTax: 8.00\nTotal: 109.00"
	rep := RunHeuristics(text, s, Record{"subtotal": 100.0, "tax": 8.0, "total": 109.0})
	if f := rep["total"].Factor; f != 0.8 {
		t.Errorf("total factor = %v, want 0.8 (%q)", f, rep["total"].Reasons)
	}
	if f := rep["subtotal"].Factor * rep["tax"].Factor; f != 1 {
		t.Errorf("operands penalized: %v %v", rep["subtotal"], rep["tax"])
	}
	// An invented tax breaks the sum: only the tax is blamed.
	rep = RunHeuristics("Subtotal: 100.00\nTotal: 108.00", s, Record{"subtotal": 100.0, "tax": 9.0, "total": 108.0})
	if rep["tax"].Factor > 0.3 || rep["total"].Factor != 1 || rep["subtotal"].Factor != 1 {
		t.Errorf("blame: tax %v total %v subtotal %v", rep["tax"], rep["total"], rep["subtotal"])
	}
	if !strings.Contains(strings.Join(rep["tax"].Reasons, ";"), "subtotal(100.0) + tax(9.0) != total(108.0)") {
		t.Errorf("tax reasons = %q", rep["tax"].Reasons)
	}
	// A null operand skips the relation.
	rep = RunHeuristics("Subtotal: 100.00\nTotal: 108.00", s, Record{"subtotal": 100.0, "tax": nil, "total": 108.0})
	if rep["total"].Factor != 1 {
		t.Errorf("relation with a null operand was checked: %v", rep["total"])
	}
}

func TestHeuristicsDates(t *testing.T) {
	s := Invoice()
	cases := []struct {
		text, date string
		maxF, minF float64
		reason     string
	}{
		{"Invoice date 2026-02-30", "2026-02-30", 0.1, 0, `invalid date "2026-02-30"`},
		{"Invoice date 03/04/2026", "2026-04-03", 0.85, 0.85, `ambiguous day/month order in "03/04/2026"`},
		{"Invoice date 03/04/2026", "2026-03-04", 0.85, 0.85, `ambiguous day/month order in "03/04/2026"`},
		{"Date 03/04/2026\nDue 15/04/2026", "2026-04-03", 1, 1, ""},
		{"Date 03/04/2026\nDue 15/04/2026", "2026-03-04", 0.25, 0, `2026-03-04 reads "03/04/2026" month-first, but "15/04/2026" in the same document is day-first`},
		{"Date 03/04/2026\nDue 04/15/2026", "2026-03-04", 1, 1, ""},
		{"Dated March 14, 2026", "2026-03-14", 1, 1, ""},
		{"Dated 14.03.2026", "2026-03-14", 1, 1, ""},
		{"Dated 14 March 2026", "2026-03-15", 0.3, 0.3, "date 2026-03-15 not found in source text"},
		{"DATE : 15/01/2019 11:05:16 AM", "2019-01-15", 1, 1, ""},
		// Shapes FindDates does not offer, grounded next to a time or a
		// date label: glued to the time, ISO 8601 basic, day-first compact.
		{"12/06/2016-13:30:10-28-NORBAIZURA", "2016-06-12", 1, 1, ""},
		{"DATE/TIME : 20180428/191204", "2018-04-28", 1, 1, ""},
		{"00440010036 25032018 13:11:54 0003", "2018-03-25", 1, 1, ""},
		{"Rechnungsdatum 20240131", "2024-01-31", 1, 1, ""},
		// Without a time or a label, eight digits are an identifier.
		{"REF 20180428 QTY 2", "2018-04-28", 0.3, 0.3, "date 2018-04-28 not found in source text"},
		{"12/06/2016-4471", "2016-06-12", 0.3, 0.3, "date 2016-06-12 not found in source text"},
	}
	for _, tc := range cases {
		rep := RunHeuristics(tc.text, s, Record{"invoice_date": tc.date})
		c := rep["invoice_date"]
		if c.Factor > tc.maxF || c.Factor < tc.minF {
			t.Errorf("%q / %s: factor %v, want in [%v,%v] (%q)", tc.text, tc.date, c.Factor, tc.minF, tc.maxF, c.Reasons)
		}
		if tc.reason != "" && (len(c.Reasons) == 0 || c.Reasons[0] != tc.reason) {
			t.Errorf("%q / %s: reasons %q, want %q", tc.text, tc.date, c.Reasons, tc.reason)
		}
		if tc.reason == "" && len(c.Reasons) != 0 {
			t.Errorf("%q / %s: unexpected reasons %q", tc.text, tc.date, c.Reasons)
		}
	}
}

func TestHeuristicsGroundingText(t *testing.T) {
	s := Invoice()
	text := "CONTOSO   PHARMACY SDN. BHD.\nInvoice No: INV 2024-001\nTotal RM 12.00"
	rep := RunHeuristics(text, s, Record{
		"vendor_name":    "contoso pharmacy sdn bhd",
		"invoice_number": "INV-2024001",
		"currency":       "MYR",
	})
	for name, c := range rep {
		if name == "total" {
			continue // an omission: "Total RM 12.00" is printed
		}
		if c.Factor != 1 || !c.Grounded || len(c.Spans) != 1 {
			t.Errorf("%s: %+v", name, c)
		}
	}
	if sp := rep["vendor_name"].Spans[0]; sp != (Span{Start: 0, End: 27}) {
		t.Errorf("vendor span = %v", sp)
	}
	if sp := rep["currency"].Spans[0]; sp != (Span{Start: 60, End: 62}) {
		t.Errorf("currency span = %v (want the RM marker)", sp)
	}
	rep = RunHeuristics(text, s, Record{"vendor_name": "Contoso", "invoice_number": "2024", "currency": "EUR"})
	if c := rep["vendor_name"]; c.Factor != 1 {
		t.Errorf("prefix of a vendor is in the text: %+v", c)
	}
	if c := rep["currency"]; c.Factor != 0.2 || c.Reasons[0] != `the document prints "RM" next to its amounts (MYR), not EUR` {
		t.Errorf("EUR: %+v", c)
	}
	rep = RunHeuristics(text, s, Record{"vendor_name": "Contoso Ltd"})
	if c := rep["vendor_name"]; c.Factor != 0.3 || c.Reasons[0] != `"Contoso Ltd" not found in source text` || c.Grounded {
		t.Errorf("ungrounded vendor: %+v", c)
	}
	rep = RunHeuristics("Total $12.00", s, Record{"currency": "USD"})
	if c := rep["currency"]; c.Factor != 0.85 || !c.Grounded || !strings.HasPrefix(c.Reasons[0], `a bare "$" could be USD, AUD, CAD, …`) {
		t.Errorf("bare $ for USD should be grounded but noted: %+v", c)
	}
	for _, text := range []string{"Total USD 12.00", "Total US$12.00", "Amount in U.S. dollars: $12.00"} {
		if c := RunHeuristics(text, s, Record{"currency": "USD"})["currency"]; c.Factor != 1 {
			t.Errorf("%q states USD: %+v", text, c)
		}
	}
	rep = RunHeuristics("Total $12.00", s, Record{"currency": "CAD"})
	if c := rep["currency"]; c.Factor >= 1 || c.Factor < 0.7 || !c.Grounded {
		t.Errorf("$ for CAD should be grounded but noted: %+v", c)
	}
}

type receiptRow struct {
	ID         string            `json:"id"`
	Text       string            `json:"text"`
	Expected   map[string]any    `json:"expected"`
	LabelNotes map[string]string `json:"label_notes"`
	Source     map[string]string `json:"source"`
}

func loadReceipts(tb testing.TB) []receiptRow {
	return loadReceiptSet(tb, "dev")
}

// loadReceiptSet reads receipts-<set>.jsonl with the hand labels of the four
// fields SROIE does not label (golden/testdata/sroie) laid over by id, so
// every field of the invoice schema is checked.
func loadReceiptSet(tb testing.TB, set string) []receiptRow {
	tb.Helper()
	overlay := map[string]map[string]any{}
	if lf, err := os.Open("../golden/testdata/sroie/labels-" + set + ".jsonl"); err == nil {
		sc := bufio.NewScanner(lf)
		sc.Buffer(make([]byte, 1<<20), 1<<22)
		for sc.Scan() {
			var l struct {
				ID       string         `json:"id"`
				Expected map[string]any `json:"expected"`
			}
			if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
				tb.Fatalf("labels-%s: %v", set, err)
			}
			overlay[l.ID] = l.Expected
		}
		lf.Close()
	}
	f, err := os.Open("../../shared/data/receipts-" + set + ".jsonl")
	if err != nil {
		tb.Skipf("receipts not available: %v", err)
	}
	defer f.Close()
	var rows []receiptRow
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<22)
	for sc.Scan() {
		var r receiptRow
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			tb.Fatalf("receipts: %v", err)
		}
		for k, v := range overlay[r.ID] {
			r.Expected[k] = v
		}
		rows = append(rows, r)
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	return rows
}

// maxReceiptAlarms is the number of human-labelled receipts (all seven
// fields, with the hand labels of golden/testdata/sroie) on which some field
// still scores below 0.7. Two print no currency and no place that implies
// one; one prints "GST 6% 15.00" in its tax column for a 15.00 receipt. A
// rise is a regression.
const maxReceiptAlarms = 3

func TestHeuristicsReceipts(t *testing.T) {
	rows := loadReceipts(t)
	s := Invoice()
	alarms := 0
	for _, r := range rows {
		rec, err := s.NormalizeRecord(r.Expected, Strict)
		if err != nil {
			t.Fatalf("%s: %v", r.ID, err)
		}
		rep := RunHeuristics(r.Text, s, rec)
		var bad []string
		for _, name := range s.FieldNames() {
			if c, ok := rep[name]; ok && c.Factor < 0.7 {
				bad = append(bad, name+"="+FormatValue(rec[name])+": "+strings.Join(c.Reasons, "; "))
			}
		}
		if len(bad) > 0 {
			alarms++
			t.Logf("%s (%s): %s", r.ID, r.Source["text_fidelity"], strings.Join(bad, " | "))
		}
	}
	t.Logf("%d of %d receipts have a field below 0.7", alarms, len(rows))
	if alarms > maxReceiptAlarms {
		t.Errorf("%d receipts alarm, want <= %d", alarms, maxReceiptAlarms)
	}
}

// TestHeuristicsReceiptsCatchWrongValues plants plausible wrong values in the
// labelled receipts and counts how many the heuristics push below 0.7: a
// different amount from the same receipt as the total (cash tendered, the
// subtotal, an item), a date one day off, another receipt's vendor.
func TestHeuristicsReceiptsCatchWrongValues(t *testing.T) {
	rows := loadReceipts(t)
	s := Invoice()
	type tally struct{ tried, caught int }
	var amounts, dates, vendors tally
	for i, r := range rows {
		rec, err := s.NormalizeRecord(r.Expected, Strict)
		if err != nil {
			t.Fatal(err)
		}
		total := rec["total"].(float64)
		for _, a := range FindAmounts(r.Text) {
			if a.Value <= 0 || a.Value == total || a.Value != float64(int(a.Value*100))/100 || !strings.Contains(a.Raw, ".") {
				continue
			}
			amounts.tried++
			if RunHeuristics(r.Text, s, Record{"total": a.Value})["total"].Factor < 0.7 {
				amounts.caught++
			}
		}
		if d, ok := rec["invoice_date"].(string); ok {
			wrong := shiftDay(t, d)
			dates.tried++
			if RunHeuristics(r.Text, s, Record{"invoice_date": wrong})["invoice_date"].Factor < 0.7 {
				dates.caught++
			}
		}
		other := rows[(i+37)%len(rows)]
		if other.Source["vendor_group"] != r.Source["vendor_group"] {
			vendors.tried++
			if RunHeuristics(r.Text, s, Record{"vendor_name": other.Expected["vendor_name"]})["vendor_name"].Factor < 0.7 {
				vendors.caught++
			}
		}
	}
	t.Logf("wrong totals caught: %d/%d; wrong dates: %d/%d; wrong vendors: %d/%d",
		amounts.caught, amounts.tried, dates.caught, dates.tried, vendors.caught, vendors.tried)
	if dates.caught != dates.tried || vendors.caught != vendors.tried {
		t.Errorf("every planted date and vendor must be caught")
	}
	if amounts.caught*100 < amounts.tried*minAmountCatchPercent {
		t.Errorf("caught %d/%d planted totals, want >= %d%%", amounts.caught, amounts.tried, minAmountCatchPercent)
	}
}

const minAmountCatchPercent = 85

func shiftDay(t *testing.T, iso string) string {
	t.Helper()
	d, err := time.Parse("2006-01-02", iso)
	if err != nil {
		t.Fatal(err)
	}
	return d.AddDate(0, 0, 1).Format("2006-01-02")
}

// A rate written with a space before the percent sign, as German and French
// invoices do, is not an amount: the tax is the amount after it.
func TestSpacedPercentIsARate(t *testing.T) {
	text := "Nettobetrag:         1.234,56 €\nMwSt. 19 %:            234,57 €\nTVA 20\u00a0% : 0,00\nGesamtbetrag:        1.469,13 €"
	rep := RunHeuristics(text, Invoice(), Record{"subtotal": 1234.56, "tax": 234.57, "total": 1469.13, "currency": "EUR"})
	for f, c := range rep {
		if c.Factor < 0.9 {
			t.Errorf("%s: factor %v %v", f, c.Factor, c.Reasons)
		}
	}
}

// A total label followed by a unit word totals that unit: "Total hours: 40"
// is no money total, so 40 as the total must lose to the labelled amount.
func TestHeuristicsUnitTotalsAreNotMoney(t *testing.T) {
	for _, text := range []string{
		"Consulting, March\nTotal hours: 40\nRate: 50.00\nAmount due: 2,000.00",
		"Order\nTotal qty: 40\nTotal: 2000.00",
		"Shipment\nTotal items 40\nTotal pcs 40\nTotal kg: 40\nTotal weight: 40\nBalance due 2000.00",
		"Timesheet\nTotal: 40 hours\nAmount due: 2000.00",
		"Print job\nTotal pages: 40\nTotal units: 40\nGrand total: 2000.00",
	} {
		rep := RunHeuristics(text, Invoice(), Record{"total": 40.0})
		if c := rep["total"]; c.Factor > factorWrongRole {
			t.Errorf("%q: total 40 passes with factor %v (%v)", text, c.Factor, c.Reasons)
		}
		rep = RunHeuristics(text, Invoice(), Record{"total": 2000.0})
		if c := rep["total"]; c.Factor != 1 {
			t.Errorf("%q: right total 2000 penalized: %v", text, c.Reasons)
		}
	}
}

// "1.500" reads 1.5 in English and 1500 in German: an amount grounded only
// through such a token is doubtful either way.
func TestHeuristicsDotThousandsIsAmbiguous(t *testing.T) {
	text := "Rechnung\nTotal: 1.500 EUR"
	for _, v := range []float64{1.5, 1500} {
		c := RunHeuristics(text, Invoice(), Record{"total": v})["total"]
		if c.Factor > 0.6 || !c.Grounded || len(c.Reasons) == 0 || c.Reasons[0] != `"1.500" may be 1.5 or 1,500` {
			t.Errorf("total %v: %+v", v, c)
		}
	}
	// A token that settles the reading is not ambiguous.
	for text, v := range map[string]float64{"Total: 1.500,00 EUR": 1500, "Total: 1.50 EUR": 1.5, "Total: 0.500": 0.5} {
		if c := RunHeuristics(text, Invoice(), Record{"total": v})["total"]; c.Factor != 1 {
			t.Errorf("%q: %v penalized: %v", text, v, c.Reasons)
		}
	}
	// A second, unambiguous occurrence grounds the value on its own.
	if c := RunHeuristics("Subtotal 1.500\nTotal: 1.50", Invoice(), Record{"total": 1.5})["total"]; c.Factor != 1 {
		t.Errorf("unambiguous occurrence: %v", c.Reasons)
	}
}

// A "$" document with a clear non-US hint is not in USD.
func TestHeuristicsDollarHints(t *testing.T) {
	s := Invoice()
	for text, hint := range map[string]string{
		"Koala Supplies Pty Ltd\nABN 12 345 678 901\nTotal $110.00 incl. GST": "ABN",
		"Koala Supplies Pty Ltd\nTotal $110.00":                               "Pty Ltd",
		"Maple Co\nToronto, Ontario\nGST/HST 13%\nTotal $113.00":              "HST",
		"Maple Co\n12 King St, Toronto ON M5H 1A1\nGST 5%\nTotal $105.00":     `GST" and "ON`,
		"Kiwi Ltd\nTotal NZ$50.00 ($50)":                                      "NZ$",
		"Lion Pte Ltd\nTotal S$50.00":                                         "S$",
		"Harbour Ltd\nAmounts in HKD\nTotal $50.00":                           "HKD",
		"Bondi Cafe\nTotal $11.00\nGST included $1.00":                        "GST",
	} {
		c := RunHeuristics(text, s, Record{"currency": "USD"})["currency"]
		if c.Factor > 0.3 || len(c.Reasons) != 1 || !strings.Contains(c.Reasons[0], `"`+hint+`"`) {
			t.Errorf("%q: USD %+v, want a 0.3 penalty naming %q", text, c, hint)
		}
	}
	if c := RunHeuristics("Acme Inc, Austin TX\nSales tax $8.25\nTotal $108.25", s, Record{"currency": "USD"})["currency"]; c.Factor != 0.85 {
		t.Errorf("no hint: %+v", c)
	}
}

// The user's case: the PO number as the invoice number and the due date as the
// invoice date are in the source, but under another field's label.
func TestHeuristicsLabelledFields(t *testing.T) {
	text := "Harbor Consulting\nInvoice: HC-1001\nPO: PO-5521\nDate: 2026-04-01\nDue date: 2026-04-30\nTotal: 500.00 USD"
	s := Invoice()
	rep := RunHeuristics(text, s, Record{"invoice_number": "PO-5521", "invoice_date": "2026-04-30"})
	wantReasons := map[string]string{
		"invoice_number": `PO-5521 is labelled "PO"; the document's invoice number is HC-1001`,
		"invoice_date":   `2026-04-30 is labelled "Due date"; the document's invoice date is 2026-04-01`,
	}
	for name, want := range wantReasons {
		c := rep[name]
		if c.Factor != factorWrongLabel || !c.Grounded || len(c.Reasons) != 1 || c.Reasons[0] != want {
			t.Errorf("%s: %+v, want factor %v and %q", name, c, factorWrongLabel, want)
		}
	}
	rep = RunHeuristics(text, s, Record{"invoice_number": "HC-1001", "invoice_date": "2026-04-01"})
	for _, name := range []string{"invoice_number", "invoice_date"} {
		if c := rep[name]; c.Factor != 1 || !c.Grounded {
			t.Errorf("right %s penalized: %+v", name, c)
		}
	}
	// Nothing to compare with: the source labels no invoice number or date.
	// A PO number is still the buyer's order, never this document's number,
	// and a date the label names as due is never the issue date: both are
	// flagged, naming their label and no other value.
	rep = RunHeuristics("ACME\nDue date: 2026-04-30\nPO: PO-5521", s, Record{"invoice_number": "PO-5521", "invoice_date": "2026-04-30"})
	if c := rep["invoice_number"]; c.Factor != factorWrongLabel || len(c.Reasons) != 1 || !strings.Contains(c.Reasons[0], `labelled "PO"`) {
		t.Errorf("PO number as the invoice number with nothing to go on: %+v", c)
	}
	if c := rep["invoice_date"]; c.Factor != factorWrongLabel {
		t.Errorf("due date as the invoice date with no invoice date printed: %+v", c)
	}
	// "Invoice date" is the longer label: it names the date, not the number.
	rep = RunHeuristics("Invoice date: 2026-04-01 Order date: 2026-03-28\nInvoice no: 77-100", s,
		Record{"invoice_number": "77-100", "invoice_date": "2026-03-28"})
	if c := rep["invoice_date"]; c.Factor != factorWrongLabel {
		t.Errorf("order date as invoice date: %+v", c)
	}
	if c := rep["invoice_number"]; c.Factor != 1 {
		t.Errorf("invoice no: %+v", c)
	}
}

// From a black-box run on a custom schema: a date the document does not label
// for the field is flagged when it labels another one, whatever label stands
// before the wrong one; a truncated identifier is not the identifier.
func TestLabelledDateAndWholeIdentifier(t *testing.T) {
	s, err := ParseSchema([]byte("name: lab\nfields:\n  - {name: specimen_id, kind: identifier, labels: [specimen]}\n  - {name: collected_date, kind: date, labels: [collected]}\n"), "lab.yaml")
	if err != nil {
		t.Fatal(err)
	}
	text := "Printed 2026-04-20\nCollected: 2026-04-18\nSpecimen: KM/55/2026\nRef SCH-88-2231-DE"
	rep := RunHeuristics(text, s, Record{"collected_date": "2026-04-20", "specimen_id": "KM/55"})
	for _, f := range []string{"collected_date", "specimen_id"} {
		if c := rep[f]; c.Factor > 0.3 {
			t.Errorf("%s should be penalised: %+v", f, c)
		}
	}
	rep = RunHeuristics(text, s, Record{"collected_date": "2026-04-18", "specimen_id": "KM/55/2026"})
	for f, c := range rep {
		if c.Factor < 0.9 {
			t.Errorf("right %s penalised: %+v", f, c)
		}
	}
}

// Labels on a text field are checked like those on dates and identifiers.
func TestLabelledTextField(t *testing.T) {
	s, err := ParseSchema([]byte("name: lab\nfields:\n  - {name: patient_name, kind: text, labels: [patient]}\n"), "lab.yaml")
	if err != nil {
		t.Fatal(err)
	}
	text := "CITY GENERAL HOSPITAL\nPatient: Maria Gonzalez\nTest: Blood Count"
	if c := RunHeuristics(text, s, Record{"patient_name": "CITY GENERAL HOSPITAL"})["patient_name"]; c.Factor > 0.3 {
		t.Errorf("the hospital is not the patient: %+v", c)
	}
	if c := RunHeuristics(text, s, Record{"patient_name": "Maria Gonzalez"})["patient_name"]; c.Factor < 0.9 {
		t.Errorf("the labelled name must pass: %+v", c)
	}
}

// "$880.00 USD" is not CAD, although CAD also writes "$".
func TestSharedSignWithAnotherCodeStated(t *testing.T) {
	text := "customs value $880.00 USD, freight charge $32.10"
	if c := RunHeuristics(text, Invoice(), Record{"currency": "CAD"})["currency"]; c.Factor > 0.3 {
		t.Errorf("CAD should be penalised when USD is stated: %+v", c)
	}
	if c := RunHeuristics(text, Invoice(), Record{"currency": "USD"})["currency"]; c.Factor < 0.9 {
		t.Errorf("USD is stated: %+v", c)
	}
}

// Two labelled amounts in one sentence are not a table row: the first keeps
// its label even when the schema does not know the second's.
func TestLabelledAmountsInOneSentence(t *testing.T) {
	s, err := ParseSchema([]byte("name: ship\nfields:\n  - {name: declared_value, kind: money, role: total, labels: [declared value]}\n  - {name: freight, kind: money}\n"), "ship.yaml")
	if err != nil {
		t.Fatal(err)
	}
	text := "Declared value: 1,250.00 EUR. Freight: 45.50 EUR."
	if c := RunHeuristics(text, s, Record{"declared_value": 45.5})["declared_value"]; c.Factor > 0.3 {
		t.Errorf("the freight is not the declared value: %+v", c)
	}
	if c := RunHeuristics(text, s, Record{"declared_value": 1250.0})["declared_value"]; c.Factor < 0.9 {
		t.Errorf("the declared value must pass: %+v", c)
	}
}
