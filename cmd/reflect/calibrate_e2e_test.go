package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/reflect-mcp/reflect/golden"
	"github.com/reflect-mcp/reflect/pipeline"
	"github.com/reflect-mcp/reflect/store"
	"github.com/reflect-mcp/reflect/tui"
)

// labelledReview is what a reviewer who knows the labels decides on one
// document: every field accepted when the pipeline had it right, else
// corrected to the label (set null when the label is null).
func labelledReview(s *pipeline.Schema, corpusID, docID, who string, res pipeline.Result, want map[string]any) []store.Decision {
	var ds []store.Decision
	for _, f := range s.Fields {
		w, ok := want[f.Name]
		if !ok {
			continue
		}
		d := store.Decision{CorpusID: corpusID, DocID: docID, Field: f.Name, Action: store.ActionAccept, Reviewer: who}
		if !golden.FieldCorrect(f, w, res.Data[f.Name]) {
			d.Action, d.Value = store.ActionCorrect, w
			if w == nil {
				d.Action = store.ActionSetNull
			}
		}
		ds = append(ds, d)
	}
	return ds
}

// wrongPassed counts, by the labels, one document's values the gate let
// through wrong (what an audit reviewer corrects on a non-null value) and
// its values.
func wrongPassed(s *pipeline.Schema, res pipeline.Result, want map[string]any) (wrong, n int) {
	for _, f := range s.Fields {
		w, ok := want[f.Name]
		if !ok {
			continue
		}
		n++
		got := res.Data[f.Name]
		if got != nil && !golden.FieldCorrect(f, w, got) && !store.SameValue(w, got) {
			wrong++
		}
	}
	return wrong, n
}

// watched is the workstation with its whole screen published after every
// update, for a test to wait on.
type watched struct {
	m      tea.Model
	screen *atomic.Pointer[string]
}

func (w watched) Init() tea.Cmd  { return w.m.Init() }
func (w watched) View() tea.View { return w.m.View() }
func (w watched) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	m, cmd := w.m.Update(msg)
	v := ansi.Strip(m.View().Content)
	w.screen.Store(&v)
	return watched{m: m, screen: w.screen}, cmd
}

// The end-to-end day, on SROIE receipts (CC-BY-4.0) and their hand
// labels: review receipts-dev, export it, calibrate on the export (grouped
// by the reviewed vendor; a refused 0.5% names the tightest budget, which is
// then written), run receipts-check under the new profile (--gate), audit a
// sample of what it auto-accepted in the real workstation, and read the
// estimate in `reflect stats` — which must be exactly what the labels say
// the gate let through on the audited documents.
func TestCalibrateAuditEndToEnd(t *testing.T) {
	dev, devL, check, checkL := sroiePaths(t)
	ctx := context.Background()
	schema := pipeline.Invoice()
	storePath := filepath.Join(t.TempDir(), "reflect.db")
	quiet := Stdio{Out: io.Discard, Err: io.Discard}

	// 1. Review receipts-dev: results stored, every field settled as the
	// labels say.
	if r := run(t, "", "extract", "--batch", "--save", "--file", dev, "--store", storePath, "--provider", "local", "--log-level", "error"); r.code > ExitNeedsReview {
		t.Fatalf("extract dev: exit %d\n%s", r.code, r.err)
	}
	st, err := store.Open(storePath, store.Options{Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	devCorpus, _, _, err := golden.LoadCorpus(dev, "invoice")
	if err != nil {
		t.Fatal(err)
	}
	devRows, err := loadEvalRows(evalFlags{dataset: dev, labels: devL}, quiet)
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range devRows {
		res, ok, err := st.Result(ctx, devCorpus.ID, row.ID)
		if err != nil || !ok {
			t.Fatalf("%s: no stored result (%v)", row.ID, err)
		}
		if _, err := st.Decide(ctx, labelledReview(schema, devCorpus.ID, row.ID, "ann", res, row.Expected)...); err != nil {
			t.Fatal(err)
		}
	}

	// 2. Export: every reviewed receipt, grouped by its reviewed vendor.
	export := filepath.Join(t.TempDir(), "dev.golden.jsonl")
	if r := run(t, "", "export", "--golden", export, "--corpus", dev, "--store", storePath); r.code != ExitOK {
		t.Fatalf("export: exit %d\n%s", r.code, r.err)
	}

	// 3. Calibrate on the export at 0.5%: 100 receipts cannot support it;
	// the refusal names the tightest budget they do, and that is written.
	gate := filepath.Join(t.TempDir(), "gate.yaml")
	r := run(t, "", "calibrate", "--dataset", export, "--max-silent-wrong", "0.005", "--out", gate)
	m := regexp.MustCompile(`calibrate: 100 documents in (\d+) groups`).FindStringSubmatch(r.out)
	if m == nil || m[1] == "100" {
		t.Fatalf("calibrate did not group the export's rows by vendor:\n%s", r.out)
	}
	budget := "0.005"
	if r.code != ExitOK {
		_, after, ok := strings.Cut(r.out, "--max-silent-wrong ")
		if r.code != ExitNeedsReview || !ok {
			t.Fatalf("calibrate at 0.5%%: exit %d, no supported budget named\n%s\n%s", r.code, r.out, r.err)
		}
		budget, _, _ = strings.Cut(after, " ")
		r = run(t, "", "calibrate", "--dataset", export, "--max-silent-wrong", budget, "--out", gate)
	}
	if r.code != ExitOK {
		t.Fatalf("calibrate at %s: exit %d\n%s\n%s", budget, r.code, r.out, r.err)
	}
	t.Logf("calibrate on the dev export at %s:\n%s", budget, r.out)
	prof, err := pipeline.LoadGateProfile(gate)
	if err != nil {
		t.Fatal(err)
	}

	// 4. Rerun: receipts-check under the profile; every result names it.
	r = run(t, "", "extract", "--batch", "--save", "--file", check, "--store", storePath, "--gate", gate, "--provider", "local", "--log-level", "error")
	if r.code > ExitNeedsReview {
		t.Fatalf("extract check under the profile: exit %d\n%s", r.code, r.err)
	}
	for _, line := range decodeLines(t, r.out) {
		if !strings.Contains(line.Notes, "Gate profile "+prof.ID+" (by field: ") {
			t.Fatalf("a result gated without naming the profile's thresholds: %q", line.Notes)
		}
	}
	checkCorpus, _, _, err := golden.LoadCorpus(check, "invoice")
	if err != nil {
		t.Fatal(err)
	}
	checkRows, err := loadEvalRows(evalFlags{dataset: check, labels: checkL}, quiet)
	if err != nil {
		t.Fatal(err)
	}
	labels := map[string]map[string]any{}
	for _, row := range checkRows {
		labels[row.ID] = row.Expected
	}

	// 5. The audit, in the workstation: 6 draws the sample from what the
	// profile auto-accepted; the reviewer reads the first audited receipt
	// there (A: every value stands), the rest are read as the labels say,
	// and the tab's estimate follows each decision.
	corpus, err := st.Corpus(ctx, checkCorpus.ID)
	if err != nil {
		t.Fatal(err)
	}
	tcfg := tui.Config{Store: st, Corpus: corpus, Schema: schema, Reviewer: "bo", NoColor: true, Gate: prof, Poll: 50 * time.Millisecond}
	screen := &atomic.Pointer[string]{}
	tm := teatest.NewTestModel(t, watched{m: tui.New(tcfg), screen: screen}, teatest.WithInitialTermSize(120, 35))
	// The terminal stream holds only what changed on screen, so the waits
	// read the workstation's whole view after each update instead.
	wait := func(what string, ok func(screen string) bool) {
		t.Helper()
		var last string
		for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			if p := screen.Load(); p != nil {
				if last = *p; ok(last) {
					return
				}
			}
		}
		t.Fatalf("waiting for %s; the screen:\n%s", what, last)
	}
	wait("queue", func(s string) bool { return strings.Contains(s, "need review") })
	tm.Send(tea.KeyPressMsg{Code: '6', Text: "6"})
	wait("the drawn sample", func(s string) bool { return strings.Contains(s, "audit 0/") })
	draws, err := st.AuditDraws(ctx, corpus.ID)
	if err != nil || len(draws) != 1 || draws[0].Profile != prof.ID || draws[0].Budget != prof.Budget {
		t.Fatalf("draws %+v (%v), want one under %s at %v", draws, err, prof.ID, prof.Budget)
	}
	sample := draws[0].IDs
	results := map[string]pipeline.Result{}
	for _, id := range sample {
		res, _, err := st.Result(ctx, corpus.ID, id)
		if err != nil || res.Status != pipeline.StatusOK || !strings.Contains(res.Notes, prof.ID) {
			t.Fatalf("sampled %s: status %s (%v), notes %q: want auto-accepted under the profile", id, res.Status, err, res.Notes)
		}
		results[id] = res
	}
	// The tab lists the sample as the queue sorts it (lowest confidence,
	// then corpus order): the reviewer moves to the first receipt whose
	// values all stand and accepts them in the workstation.
	sums, err := st.Summaries(ctx, corpus.ID)
	if err != nil {
		t.Fatal(err)
	}
	var order []store.Summary
	for _, s := range sums {
		if slices.Contains(sample, s.DocID) {
			order = append(order, s)
		}
	}
	sort.SliceStable(order, func(i, j int) bool {
		if order[i].Confidence != order[j].Confidence {
			return order[i].Confidence < order[j].Confidence
		}
		return order[i].Seq < order[j].Seq
	})
	byKeys := -1
	for i, s := range order {
		if w, _ := wrongPassed(schema, results[s.DocID], labels[s.DocID]); w == 0 && len(results[s.DocID].Data) == len(schema.Fields) {
			byKeys = i
			break
		}
	}
	if byKeys < 0 {
		t.Fatal("no sampled receipt with every value right")
	}
	for range byKeys {
		tm.Send(tea.KeyPressMsg{Code: 'j', Text: "j"})
	}
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	wait("the receipt", func(s string) bool { return strings.Contains(s, order[byKeys].DocID) })
	tm.Send(tea.KeyPressMsg{Code: 'A', Text: "A"})
	tm.Send(tea.KeyPressMsg{Code: 'q', Text: "q"})
	wait("one read", func(s string) bool { return strings.Contains(s, "audit 1/"+fmt.Sprint(len(sample))+" read") })
	if ds, _ := st.Decisions(ctx, corpus.ID, order[byKeys].DocID); len(ds) != len(schema.Fields) || ds["total"].Reviewer != "bo" {
		t.Fatalf("A in the workstation stored %d decisions", len(ds))
	}
	wantWrong, wantN := 0, 0
	for _, id := range sample {
		w, n := wrongPassed(schema, results[id], labels[id])
		wantWrong, wantN = wantWrong+w, wantN+n
		if id == order[byKeys].DocID {
			continue
		}
		if _, err := st.Decide(ctx, labelledReview(schema, corpus.ID, id, "cy", results[id], labels[id])...); err != nil {
			t.Fatal(err)
		}
	}
	all := fmt.Sprintf("audit %d/%d read · %d/%d wrong", len(sample), len(sample), wantWrong, wantN)
	wait("every audited receipt read", func(s string) bool { return strings.Contains(s, all) })
	tm.Send(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	tm.WaitFinished(t, teatest.WithFinalTimeout(10*time.Second))

	// 6. stats reads the same estimate, and it is what the labels say.
	r = run(t, "", "stats", "--corpus", check, "--store", storePath, "--json")
	var js struct {
		Audits []struct {
			Sample, Audited int
			Estimate        golden.AuditReport
		}
	}
	if err := json.Unmarshal([]byte(r.out), &js); err != nil || len(js.Audits) != 1 {
		t.Fatalf("stats --json: %v\n%s", err, r.out)
	}
	est := js.Audits[0].Estimate
	if js.Audits[0].Audited != len(sample) || est.All.N != wantN || est.All.SilentWrong != wantWrong || est.Budget != prof.Budget {
		t.Fatalf("stats' audit: %d read, %d/%d wrong at budget %v; the labels say %d read, %d/%d wrong at %v",
			js.Audits[0].Audited, est.All.SilentWrong, est.All.N, est.Budget, len(sample), wantWrong, wantN, prof.Budget)
	}
	if wantExit := map[bool]int{true: ExitNeedsReview, false: ExitOK}[est.Breached]; r.code != wantExit {
		t.Fatalf("stats exit %d with breached %v", r.code, est.Breached)
	}
	text := run(t, "", "stats", "--corpus", check, "--store", storePath)
	if !strings.Contains(text.out, fmt.Sprintf("%d read", len(sample))) || !bytes.Contains([]byte(text.out), []byte("budget "+ratePct(prof.Budget))) {
		t.Fatalf("stats text:\n%s", text.out)
	}
	// 7. The audited decisions feed the next calibration: the check export
	// marks them, and calibrate on both exports counts them.
	audited := filepath.Join(t.TempDir(), "check.golden.jsonl")
	if r := run(t, "", "export", "--golden", audited, "--corpus", check, "--store", storePath); r.code != ExitOK {
		t.Fatalf("export check: exit %d\n%s", r.code, r.err)
	}
	r = run(t, "", "calibrate", "--dataset", export, "--dataset", audited, "--max-silent-wrong", budget, "--allow-unsupported", "--out", gate)
	if want := fmt.Sprintf("check.golden.jsonl: %d of %d rows are audited auto-accepted documents", len(sample), len(sample)); r.code != ExitOK || !strings.Contains(r.err, want) ||
		!strings.Contains(r.out, fmt.Sprintf("calibrate: %d documents", 100+len(sample))) {
		t.Fatalf("recalibrating with the audit: exit %d, want %q\n%s\n%s", r.code, want, r.out, r.err)
	}
	if p2, err := pipeline.LoadGateProfile(gate); err != nil || p2.ID == prof.ID {
		t.Fatalf("the recalibrated profile %v (%v) is the old one", p2, err)
	}

	// What the labels say the profile let through on every receipt it
	// auto-accepted, beside the audit's estimate from its sample.
	okWrong, okN, okDocs := 0, 0, 0
	for _, s := range sums {
		if s.Status != pipeline.StatusOK {
			continue
		}
		res, _, _ := st.Result(ctx, corpus.ID, s.DocID)
		w, n := wrongPassed(schema, res, labels[s.DocID])
		okWrong, okN, okDocs = okWrong+w, okN+n, okDocs+1
	}
	t.Logf("profile %s (by field, budget %s): receipts-check auto-accepted %d of %d; audit of %d: %d/%d wrong = %.2f%%, upper %.2f%% (breached %v); labels over all %d auto-accepted: %d/%d wrong = %.2f%%\n%s",
		prof.ID, budget, okDocs, len(sums), len(sample), est.All.SilentWrong, est.All.N, 100*est.All.Rate, 100*est.All.Upper, est.Breached,
		okDocs, okWrong, okN, 100*float64(okWrong)/float64(max(okN, 1)), text.out)
}
