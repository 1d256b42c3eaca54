package local_test

import (
	"context"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/reflect-mcp/reflect/golden"
	"github.com/reflect-mcp/reflect/pipeline"
	"github.com/reflect-mcp/reflect/providers/local"
)

// repoPath resolves a path relative to the module root from this file.
func repoPath(t testing.TB, rel string) string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("cannot locate test file")
	}
	return filepath.Join(filepath.Dir(file), "..", "..", rel)
}

func loadRows(t testing.TB, path string) []golden.Row {
	rows, lineErrs, err := golden.LoadDataset(path)
	if err != nil {
		t.Skipf("dataset not available: %v", err)
	}
	if len(lineErrs) > 0 {
		t.Fatalf("dataset %s: %v", path, lineErrs)
	}
	return rows
}

// fieldStats are one field's figures over a dataset.
type fieldStats struct {
	scored, correct, wrong, wrongFlagged, silentWrong, rightFlagged int
}

type evalStats struct {
	rows, needsReview int
	fields            map[string]*fieldStats
	flagged           map[string]int // every flagged field, scored or not
	order             []string
}

func (s *evalStats) accuracy(f string) float64 {
	fs := s.fields[f]
	if fs == nil || fs.scored == 0 {
		return 0
	}
	return float64(fs.correct) / float64(fs.scored)
}

func (s *evalStats) silentWrong() int {
	n := 0
	for _, fs := range s.fields {
		n += fs.silentWrong
	}
	return n
}

func (s *evalStats) reviewRate() float64 { return float64(s.needsReview) / float64(s.rows) }

// evaluate runs every row through the real pipeline (local extractor,
// heuristics, default gate, no Critic) and scores the labelled fields.
func evaluate(t *testing.T, rows []golden.Row) *evalStats {
	t.Helper()
	schema := pipeline.Invoice()
	p, err := pipeline.New(pipeline.Config{Schema: schema, Generator: local.New(), Gate: pipeline.DefaultGate()})
	if err != nil {
		t.Fatalf("pipeline.New: %v", err)
	}
	st := &evalStats{fields: map[string]*fieldStats{}, flagged: map[string]int{}}
	for _, f := range schema.Fields {
		st.order = append(st.order, f.Name)
		st.fields[f.Name] = &fieldStats{}
	}
	for _, row := range rows {
		res, err := p.Extract(context.Background(), pipeline.Document{ID: row.ID, Text: row.Text})
		if err != nil {
			t.Fatalf("%s: Extract: %v", row.ID, err)
		}
		st.rows++
		if res.Status == pipeline.StatusNeedsReview {
			st.needsReview++
		}
		for _, ff := range res.FlaggedFields {
			st.flagged[ff.Field]++
		}
		for _, f := range schema.Fields {
			want, labelled := row.Expected[f.Name]
			if !labelled {
				continue
			}
			fs := st.fields[f.Name]
			fs.scored++
			got := res.Data[f.Name]
			flagged := res.Flagged(f.Name)
			if golden.FieldCorrect(f, want, got) {
				fs.correct++
				if flagged {
					fs.rightFlagged++
				}
				continue
			}
			fs.wrong++
			switch {
			case got == nil:
				// A null is honest: nothing to confirm, nothing silently wrong.
			case flagged:
				fs.wrongFlagged++
			default:
				fs.silentWrong++
			}
			state := "flagged"
			if !flagged {
				state = "NOT flagged"
			}
			if got == nil {
				state = "null"
			}
			t.Logf("wrong %s %-14s want %v got %v (%s, conf %.3f)", row.ID, f.Name, want, got, state, res.FieldConfidence[f.Name])
		}
	}
	return st
}

func (s *evalStats) log(t *testing.T, name string) {
	t.Logf("%s: %d rows, needs_review %.1f%%, silent-wrong %d", name, s.rows, 100*s.reviewRate(), s.silentWrong())
	t.Logf("  flagged fields: %v", s.flagged)
	for _, f := range s.order {
		fs := s.fields[f]
		if fs.scored == 0 {
			continue
		}
		t.Logf("  %-14s accuracy %5.1f%% (%d/%d)  wrong-flagged %d  silent-wrong %d  right-but-flagged %d",
			f, 100*s.accuracy(f), fs.correct, fs.scored, fs.wrongFlagged, fs.silentWrong, fs.rightFlagged)
	}
}

// The floors are what the rules reach today, so a regression fails. Total and
// date must stay at or above the 85% aim; silent-wrong (a wrong value
// the gate lets through) must stay at zero.
func TestReceiptsThroughGate(t *testing.T) {
	st := evaluate(t, loadRows(t, repoPath(t, "../shared/data/receipts-dev.jsonl")))
	st.log(t, "receipts-dev")
	floors := map[string]float64{"total": 0.97, "invoice_date": 0.98, "vendor_name": 0.93}
	for f, floor := range floors {
		if got := st.accuracy(f); got < floor {
			t.Errorf("%s accuracy %.1f%% below the floor %.0f%%", f, 100*got, 100*floor)
		}
	}
	if sw := st.silentWrong(); sw > 0 {
		t.Errorf("silent-wrong %d: every wrong field must be flagged", sw)
	}
	// The ceiling is what the rules reach today (44% of receipts-dev), the
	// price of honest tiers (tiers.go): a value nothing corroborates is sent
	// to review, however often it was right. Most of the rest are a brand
	// line above the company line, which the labels themselves resolve both
	// ways.
	if r := st.reviewRate(); r > 0.45 {
		t.Errorf("needs_review rate %.0f%% above the ceiling 45%%", 100*r)
	}
}

func TestGoldenInvoicesThroughGate(t *testing.T) {
	st := evaluate(t, loadRows(t, repoPath(t, "golden/dataset.jsonl")))
	st.log(t, "golden/dataset.jsonl")
	for _, f := range st.order {
		if fs := st.fields[f]; fs.scored > 0 && st.accuracy(f) < 0.93 {
			t.Errorf("%s accuracy %.1f%% below the floor 93%%", f, 100*st.accuracy(f))
		}
	}
	if sw := st.silentWrong(); sw > 0 {
		t.Errorf("silent-wrong %d: every wrong field must be flagged", sw)
	}
	if r := st.reviewRate(); r > 0.50 {
		t.Errorf("needs_review rate %.0f%% above the ceiling 50%%", 100*r)
	}
}

// Invoices written after the rules were, in formats they were not tuned on:
// the extractor may abstain (a null), but a wrong value must be flagged.
func TestUnseenInvoicesNoSilentWrongValue(t *testing.T) {
	noSilentWrongValue(t, "golden/testdata/unseen_invoices.jsonl", pipeline.Invoice())
}

// Two schemas that are not invoices (a shipping notice, a lab report), with
// documents a black-box tester wrote: same rule.
func TestCustomSchemasNoSilentWrongValue(t *testing.T) {
	for _, name := range []string{"ship", "lab"} {
		s, err := pipeline.LoadSchema(repoPath(t, "golden/testdata/custom/"+name+".yaml"))
		if err != nil {
			t.Fatal(err)
		}
		noSilentWrongValue(t, "golden/testdata/custom/"+name+".jsonl", s)
	}
}

func noSilentWrongValue(t *testing.T, dataset string, s *pipeline.Schema) {
	t.Helper()
	rows := loadRows(t, repoPath(t, dataset))
	p, err := pipeline.New(pipeline.Config{Schema: s, Generator: local.New(), Gate: pipeline.DefaultGate()})
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range rows {
		res, err := p.Extract(context.Background(), pipeline.Document{ID: row.ID, Text: row.Text})
		if err != nil {
			t.Fatalf("%s: %v", row.ID, err)
		}
		for name, want := range row.Expected {
			f, _ := s.Field(name)
			got := res.Data[name]
			switch {
			case golden.FieldCorrect(f, want, got):
			case got == nil && !res.Flagged(name):
				t.Logf("%s %s: abstained (null), expected %v", row.ID, name, want)
			case !res.Flagged(name):
				t.Errorf("%s %s: %v returned as fine, expected %v", row.ID, name, got, want)
			}
		}
	}
}

// BenchmarkLocalExtract measures the extractor alone over receipts-dev.
func BenchmarkLocalExtract(b *testing.B) {
	rows := loadRows(b, repoPath(b, "../shared/data/receipts-dev.jsonl"))
	e := local.New()
	s := pipeline.Invoice()
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for _, row := range rows {
			if _, err := e.Generate(ctx, pipeline.Document{ID: row.ID, Text: row.Text}, s); err != nil {
				b.Fatal(err)
			}
		}
	}
	if sec := b.Elapsed().Seconds(); sec > 0 {
		b.ReportMetric(float64(b.N*len(rows))/sec, "docs/s")
	}
}
