package golden

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/reflect-mcp/reflect/pipeline"
)

const confText = "GLOBEX TRADING SDN BHD\nTAX INVOICE\nLOT 5, JALAN SEK U2, 40150 SHAH ALAM\nTEL: 03-5555 1234\n" +
	"INVOICE NO: INV-20771   DATE: 03/04/2026\nDUE 30/04/2026\nWIDGET 2 x 20.00 40.00 RM\n9556939040116 BARCODE\nSERVICE 6% 2.40\n" +
	"SUB TOTAL RM 40.00\nGST 6% RM 2.40\nTOTAL RM 42.40\nCASH RM 50.00\nCHANGE RM 7.60\n"

func field(t *testing.T, s *pipeline.Schema, name string) pipeline.Field {
	t.Helper()
	f, ok := s.Field(name)
	if !ok {
		t.Fatalf("no field %s", name)
	}
	return f
}

func candValues(cs []Candidate) []string {
	var out []string
	for _, c := range cs {
		out = append(out, fmt.Sprint(c.Value))
	}
	return out
}

func TestCandidatesByKind(t *testing.T) {
	s := pipeline.Invoice()
	cases := []struct {
		field string
		want  any
		has   []string
		not   []string
	}{
		// Every other amount, once each; not the label, not quantities,
		// postcodes or the 6% rate.
		{"total", 42.4, []string{"20", "40", "2.4", "50", "7.6"}, []string{"42.4", "2", "6", "40150", "1234", "9.556939040116e+12"}},
		// A labelled null: every amount is wrong.
		{"tax", nil, []string{"42.4", "2.4"}, []string{"6"}},
		// The other printed date, and the month-first reading of the label's token.
		{"invoice_date", "2026-04-03", []string{"2026-04-30", "2026-03-04"}, []string{"2026-04-03"}},
		{"invoice_number", "INV-20771", []string{"03/04/2026", "40150", "03-5555"}, []string{"INV-20771", "40.00", "6%"}},
		{"vendor_name", "GLOBEX TRADING SDN BHD", []string{"TAX INVOICE", "GLOBEX TRADING SDN BHD TAX INVOICE"}, []string{"GLOBEX TRADING SDN BHD", "TEL: 03-5555 1234"}},
		// "SEK" in the address is an ISO code printed as a word; RM is MYR's sign.
		{"currency", "MYR", []string{"SEK"}, []string{"MYR", "BHD-not"}},
	}
	for _, c := range cases {
		got := candValues(Candidates(field(t, s, c.field), confText, c.want))
		seen := map[string]int{}
		for _, v := range got {
			seen[v]++
		}
		for _, h := range c.has {
			if seen[h] != 1 {
				t.Errorf("%s: candidates %v should hold %q once", c.field, got, h)
			}
		}
		for _, n := range c.not {
			if seen[n] > 0 {
				t.Errorf("%s: candidates %v should not hold %q", c.field, got, n)
			}
		}
	}
	// With no symbol for the label, the printed sign is a candidate too.
	got := candValues(Candidates(field(t, s, "currency"), confText, "EUR"))
	if !strings.Contains(strings.Join(got, " "), "MYR") {
		t.Errorf("currency candidates for a EUR label %v should offer MYR (RM is printed)", got)
	}
	// The line a candidate came from is reported, 1-based.
	for _, c := range Candidates(field(t, s, "total"), confText, 42.4) {
		if c.Value == 7.6 && (c.Line != 14 || c.LineText != "CHANGE RM 7.60") {
			t.Errorf("7.60 reported from line %d %q", c.Line, c.LineText)
		}
	}
}

// The candidates of a schema that is not an invoice come from kinds alone.
func TestCandidatesCustomSchema(t *testing.T) {
	s, err := pipeline.ParseSchema([]byte(`name: lab
fields:
  - {name: patient, kind: text}
  - {name: sample_id, kind: identifier}
  - {name: drawn, kind: date}
  - {name: fee, kind: money}
`), "lab.yaml")
	if err != nil {
		t.Fatal(err)
	}
	text := "CITY LAB\nPatient Jane Roe\nSample S-1187 drawn 2026-05-02, reported 2026-05-04\nFee EUR 35,00 paid 12,50\n"
	if got := candValues(Candidates(field(t, s, "fee"), text, 35.0)); len(got) != 1 || got[0] != "12.5" {
		t.Errorf("fee candidates %v", got)
	}
	if got := candValues(Candidates(field(t, s, "drawn"), text, "2026-05-02")); len(got) != 1 || got[0] != "2026-05-04" {
		t.Errorf("date candidates %v", got)
	}
	if got := candValues(Candidates(field(t, s, "patient"), text, "Jane Roe")); !strings.Contains(strings.Join(got, "|"), "CITY LAB") {
		t.Errorf("name candidates %v", got)
	}
}

func TestParseBarSpec(t *testing.T) {
	m, err := ParseBarSpec("0.9, total=0.98,tax=1")
	if err != nil || m[AllFields] != 0.9 || m["total"] != 0.98 || m["tax"] != 1 || len(m) != 3 {
		t.Fatalf("%v %v", m, err)
	}
	for _, bad := range []string{"98", "total=x", "=0.5", "-0.1"} {
		if _, err := ParseBarSpec(bad); err == nil {
			t.Errorf("%q should be refused", bad)
		}
	}
}

// The harness through the real heuristics-only gate: a validate-only
// pipeline, as `validate --heuristics-only` builds it.
func TestConfusionsThroughTheGate(t *testing.T) {
	p, err := pipeline.New(pipeline.Config{Schema: pipeline.Invoice(), Gate: pipeline.DefaultGate()})
	if err != nil {
		t.Fatal(err)
	}
	right := map[string]any{"vendor_name": "GLOBEX TRADING SDN BHD", "invoice_number": "INV-20771", "invoice_date": "2026-04-03",
		"subtotal": 40.0, "tax": 2.4, "total": 42.4, "currency": "MYR"}
	wrongTotal := map[string]any{"total": 583.2}
	rows := []Row{
		{ID: "right", Text: confText, Expected: right},
		// A label that is not in the text at all is flagged: a false alarm.
		{ID: "mislabelled", Text: confText, Expected: wrongTotal},
	}
	rep := Confusions(context.Background(), p, pipeline.Invoice(), rows, ConfusionOptions{Concurrency: 2,
		Bars: ConfusionBars{MinCatch: map[string]float64{"total": 0.5}, MaxFalseAlarm: map[string]float64{AllFields: 0.6}}})
	if rep.Records != 2 || len(rep.ErrorRows) != 0 {
		t.Fatalf("records %d, errors %v", rep.Records, rep.ErrorRows)
	}
	total := rep.PerField[len(rep.PerField)-2]
	if total.Field != "total" || total.Labelled != 2 || total.FalseAlarms != 1 || total.FalseAlarmList[0].ID != "mislabelled" {
		t.Fatalf("total figures %+v", total)
	}
	if rep.RecordsFalseAlarm != 1 || rep.FalseAlarmRate != 0.5 {
		t.Errorf("record false alarms %d (%v)", rep.RecordsFalseAlarm, rep.FalseAlarmRate)
	}
	sumCand, sumCaught := 0, 0
	for _, pf := range rep.PerField {
		if pf.Caught+len(pf.Missed) != pf.Candidates {
			t.Errorf("%s: caught %d + missed %d != candidates %d", pf.Field, pf.Caught, len(pf.Missed), pf.Candidates)
		}
		sumCand += pf.Candidates
		sumCaught += pf.Caught
		for _, m := range pf.Missed {
			if m.LineText == "" || m.Line < 1 || !strings.Contains(confText, m.LineText) {
				t.Errorf("%s miss without its line: %+v", pf.Field, m)
			}
		}
	}
	if sumCand != rep.Candidates || sumCaught != rep.Caught || rep.Candidates == 0 {
		t.Errorf("totals %d/%d vs per-field %d/%d", rep.Caught, rep.Candidates, sumCaught, sumCand)
	}
	// The cash tendered and the change offered as the total are amounts the
	// source labels for other roles: the gate flags them today.
	for _, m := range total.Missed {
		if m.ID == "right" && (m.Value == 50.0 || m.Value == 7.6) {
			t.Errorf("an amount labelled for another role passed as the total: %+v", m)
		}
	}
	if rep.CatchRate == nil || !rep.Pass || rep.Check() != nil {
		t.Errorf("bars should hold: %v", rep.Check())
	}
	var b bytes.Buffer
	if err := rep.WriteText(&b, 3); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"reflect eval --confusions", "records           : 2  (0 error rows)",
		"false alarms      : 50.0%  (1/2 labelled records flagged on a labelled field)", "[mislabelled] total = 583.2:",
		"PASS: false alarms on labelled records 50.0% (1/2) <= allowed 60.0%", "PASS: total caught"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, b.String())
		}
	}
	js, err := json.Marshal(rep)
	if err != nil || !bytes.Contains(js, []byte(`"line_text"`)) {
		t.Errorf("JSON report: %v %s", err, js)
	}

	strict := rep
	strict.Bars = ConfusionBars{MinCatch: map[string]float64{AllFields: 1}, MaxFalseAlarm: map[string]float64{"total": 0.1, "nope": 0.5}}
	err = strict.Check()
	if err == nil || !strings.Contains(err.Error(), "total false alarms 50.0% (1/2) > allowed 10.0%") || !strings.Contains(err.Error(), "nope: not a field") {
		t.Errorf("strict bars: %v", err)
	}
}

func TestConfusionsCancelledAndBadLabels(t *testing.T) {
	p, err := pipeline.New(pipeline.Config{Schema: pipeline.Invoice(), Gate: pipeline.DefaultGate()})
	if err != nil {
		t.Fatal(err)
	}
	rows := []Row{{ID: "bad", Text: confText, Expected: map[string]any{"total": "lots"}}}
	rep := Confusions(context.Background(), p, pipeline.Invoice(), rows, ConfusionOptions{})
	if len(rep.ErrorRows) != 1 || rep.Records != 0 || len(rep.Warnings) != 1 {
		t.Fatalf("a label that does not fit the schema is an error row: %+v", rep)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	rows = []Row{{ID: "a", Text: confText, Expected: map[string]any{"total": 42.4}}}
	rep = Confusions(ctx, p, pipeline.Invoice(), rows, ConfusionOptions{})
	if len(rep.ErrorRows) != 1 || rep.Candidates != 0 {
		t.Fatalf("cancelled run: %+v", rep)
	}
}
