package main

import (
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

// The end-to-end day, on SROIE receipts (CC-BY-4.0) and their hand
// labels: review receipts-dev, export it, calibrate on the export (grouped
// by the reviewed vendor; a refused 0.5% names the tightest budget, which is
// then written), run receipts-check under the new profile (--gate), audit a
// sample of what it auto-accepted in the real workstation, and read the
// estimate in `reflect stats` — which must be exactly what the labels say
// the gate let through on the audited documents. The audited decisions then
// feed the next calibration.
func TestCalibrateAuditEndToEnd(t *testing.T) {
	dev, devL, check, checkL := sroiePaths(t)
	d := newDay(t)
	d.reviewAsLabelled(dev, devL)
	export := d.export(dev, "dev.golden.jsonl")
	gate := filepath.Join(t.TempDir(), "gate.yaml")
	budget, prof := d.calibrateSupported(export, gate)
	labels := d.runUnder(check, checkL, gate, prof)
	sample, wantWrong, wantN := d.auditInWorkstation(check, prof, labels)
	est := d.statsEstimate(check, prof, len(sample))
	if est.All.N != wantN || est.All.SilentWrong != wantWrong {
		t.Fatalf("stats' audit: %d/%d wrong; the labels say %d/%d", est.All.SilentWrong, est.All.N, wantWrong, wantN)
	}
	// The audited decisions feed the next calibration: the check export
	// marks them, and calibrate on both exports counts them.
	audited := d.export(check, "check.golden.jsonl")
	r := run(t, "", "calibrate", "--dataset", export, "--dataset", audited, "--max-silent-wrong", budget, "--allow-unsupported", "--out", gate)
	if want := fmt.Sprintf("check.golden.jsonl: %d of %d rows are audited auto-accepted documents", len(sample), len(sample)); r.code != ExitOK || !strings.Contains(r.err, want) ||
		!strings.Contains(r.out, fmt.Sprintf("calibrate: %d documents", 100+len(sample))) {
		t.Fatalf("recalibrating with the audit: exit %d, want %q\n%s\n%s", r.code, want, r.out, r.err)
	}
	if p2, err := pipeline.LoadGateProfile(gate); err != nil || p2.ID == prof.ID {
		t.Fatalf("the recalibrated profile %v (%v) is the old one", p2, err)
	}
	okWrong, okN, okDocs, docs := d.labelledPassRate(check, labels)
	t.Logf("profile %s (by field, budget %s): receipts-check auto-accepted %d of %d; audit of %d: %d/%d wrong = %.2f%%, upper %.2f%% (breached %v); labels over all %d auto-accepted: %d/%d wrong = %.2f%%",
		prof.ID, budget, okDocs, docs, len(sample), est.All.SilentWrong, est.All.N, 100*est.All.Rate, 100*est.All.Upper, est.Breached,
		okDocs, okWrong, okN, 100*float64(okWrong)/float64(max(okN, 1)))
}

// day is one store through the end-to-end day.
type day struct {
	t         *testing.T
	ctx       context.Context
	schema    *pipeline.Schema
	storePath string
	st        *store.Store
}

func newDay(t *testing.T) *day {
	d := &day{t: t, ctx: context.Background(), schema: pipeline.Invoice(), storePath: filepath.Join(t.TempDir(), "reflect.db")}
	st, err := store.Open(d.storePath, store.Options{Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	d.st = st
	return d
}

// extract runs a corpus file through the local extractor into the store.
func (d *day) extract(path string, args ...string) []pipeline.Result {
	d.t.Helper()
	r := run(d.t, "", append([]string{"extract", "--batch", "--save", "--file", path, "--store", d.storePath, "--provider", "local", "--log-level", "error"}, args...)...)
	if r.code > ExitNeedsReview {
		d.t.Fatalf("extract %s: exit %d\n%s", path, r.code, r.err)
	}
	return decodeLines(d.t, r.out)
}

func (d *day) corpus(path string) store.Corpus {
	d.t.Helper()
	c, _, _, err := golden.LoadCorpus(path, "invoice")
	if err != nil {
		d.t.Fatal(err)
	}
	if c, err = d.st.Corpus(d.ctx, c.ID); err != nil {
		d.t.Fatal(err)
	}
	return c
}

func (d *day) labels(path, overlay string) map[string]map[string]any {
	d.t.Helper()
	rows, err := loadEvalRows(evalFlags{dataset: path, labels: overlay}, Stdio{Out: io.Discard, Err: io.Discard})
	if err != nil {
		d.t.Fatal(err)
	}
	out := map[string]map[string]any{}
	for _, row := range rows {
		out[row.ID] = row.Expected
	}
	return out
}

// reviewAsLabelled extracts a corpus and settles every field of every
// document as the labels say.
func (d *day) reviewAsLabelled(path, overlay string) {
	d.t.Helper()
	d.extract(path)
	c := d.corpus(path)
	for id, want := range d.labels(path, overlay) {
		res, ok, err := d.st.Result(d.ctx, c.ID, id)
		if err != nil || !ok {
			d.t.Fatalf("%s: no stored result (%v)", id, err)
		}
		if _, err := d.st.Decide(d.ctx, labelledReview(d.schema, c.ID, id, "ann", res, want)...); err != nil {
			d.t.Fatal(err)
		}
	}
}

func (d *day) export(corpusPath, name string) string {
	d.t.Helper()
	out := filepath.Join(d.t.TempDir(), name)
	if r := run(d.t, "", "export", "--golden", out, "--corpus", corpusPath, "--store", d.storePath); r.code != ExitOK {
		d.t.Fatalf("export %s: exit %d\n%s", corpusPath, r.code, r.err)
	}
	return out
}

// calibrateSupported calibrates on the export at 0.5%: 100 receipts cannot
// support it, the refusal names the tightest budget they do, and that one
// is written. The export's rows group by their reviewed vendor.
func (d *day) calibrateSupported(export, gate string) (string, *pipeline.GateProfile) {
	t := d.t
	t.Helper()
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
	return budget, prof
}

// runUnder extracts a corpus under the profile: every result names it and
// its thresholds. It returns the corpus's labels.
func (d *day) runUnder(path, overlay, gate string, prof *pipeline.GateProfile) map[string]map[string]any {
	d.t.Helper()
	for _, res := range d.extract(path, "--gate", gate) {
		if !strings.Contains(res.Notes, "Gate profile "+prof.ID+" (by field: ") {
			d.t.Fatalf("a result gated without naming the profile's thresholds: %q", res.Notes)
		}
	}
	return d.labels(path, overlay)
}

// auditInWorkstation opens the real workstation on the corpus: 6 draws the
// sample from what the profile auto-accepted; the reviewer reads one
// sampled receipt there (A: every value stands), the rest are read as the
// labels say, and the tab's estimate follows each decision. It returns the
// sample and what the labels say of it: wrong values passed, and values.
func (d *day) auditInWorkstation(path string, prof *pipeline.GateProfile, labels map[string]map[string]any) ([]string, int, int) {
	t := d.t
	t.Helper()
	c := d.corpus(path)
	w := startWorkstation(t, tui.Config{Store: d.st, Corpus: c, Schema: d.schema, Reviewer: "bo", NoColor: true, Gate: prof, Poll: 50 * time.Millisecond})
	w.wait("the queue", "need review")
	w.keys("6")
	w.wait("the drawn sample", "audit 0/")
	draws, err := d.st.AuditDraws(d.ctx, c.ID)
	if err != nil || len(draws) != 1 || draws[0].Profile != prof.ID || draws[0].Budget != prof.Budget {
		t.Fatalf("draws %+v (%v), want one under %s at %v", draws, err, prof.ID, prof.Budget)
	}
	sample := draws[0].IDs
	results := map[string]pipeline.Result{}
	for _, id := range sample {
		res, _, err := d.st.Result(d.ctx, c.ID, id)
		if err != nil || res.Status != pipeline.StatusOK || !strings.Contains(res.Notes, prof.ID) {
			t.Fatalf("sampled %s: status %s (%v), notes %q: want auto-accepted under the profile", id, res.Status, err, res.Notes)
		}
		results[id] = res
	}
	// The tab lists the sample as the queue sorts it: the reviewer moves to
	// the first receipt whose values all stand and accepts them there.
	order := d.tabOrder(c.ID, sample)
	byKeys := slices.IndexFunc(order, func(id string) bool {
		wrong, _ := wrongPassed(d.schema, results[id], labels[id])
		return wrong == 0 && len(results[id].Data) == len(d.schema.Fields)
	})
	if byKeys < 0 {
		t.Fatal("no sampled receipt with every value right")
	}
	w.keys(slices.Repeat([]string{"j"}, byKeys)...)
	w.keys("enter")
	w.wait("the receipt", order[byKeys])
	w.keys("A", "q")
	w.wait("one read", fmt.Sprintf("audit 1/%d read", len(sample)))
	if ds, _ := d.st.Decisions(d.ctx, c.ID, order[byKeys]); len(ds) != len(d.schema.Fields) || ds["total"].Reviewer != "bo" {
		t.Fatalf("A in the workstation stored %d decisions", len(ds))
	}
	wantWrong, wantN := 0, 0
	for _, id := range sample {
		wrong, n := wrongPassed(d.schema, results[id], labels[id])
		wantWrong, wantN = wantWrong+wrong, wantN+n
		if id == order[byKeys] {
			continue
		}
		if _, err := d.st.Decide(d.ctx, labelledReview(d.schema, c.ID, id, "cy", results[id], labels[id])...); err != nil {
			t.Fatal(err)
		}
	}
	w.wait("every audited receipt read", fmt.Sprintf("audit %d/%d read · %d/%d wrong", len(sample), len(sample), wantWrong, wantN))
	w.quit()
	return sample, wantWrong, wantN
}

// tabOrder is the sample as the queue sorts it: lowest confidence first,
// then corpus order.
func (d *day) tabOrder(corpusID string, sample []string) []string {
	sums, err := d.st.Summaries(d.ctx, corpusID)
	if err != nil {
		d.t.Fatal(err)
	}
	var rows []store.Summary
	for _, s := range sums {
		if slices.Contains(sample, s.DocID) {
			rows = append(rows, s)
		}
	}
	sort.SliceStable(rows, func(i, j int) bool {
		if rows[i].Confidence != rows[j].Confidence {
			return rows[i].Confidence < rows[j].Confidence
		}
		return rows[i].Seq < rows[j].Seq
	})
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = r.DocID
	}
	return out
}

// statsEstimate reads the audit from `reflect stats --json` (exit 1 exactly
// when breached) and checks the text form names it.
func (d *day) statsEstimate(path string, prof *pipeline.GateProfile, sample int) golden.AuditReport {
	t := d.t
	t.Helper()
	r := run(t, "", "stats", "--corpus", path, "--store", d.storePath, "--json")
	var js struct {
		Audits []struct {
			Sample, Audited int
			Estimate        golden.AuditReport
		}
	}
	if err := json.Unmarshal([]byte(r.out), &js); err != nil || len(js.Audits) != 1 {
		t.Fatalf("stats --json: %v\n%s", err, r.out)
	}
	a := js.Audits[0]
	if a.Audited != sample || a.Sample != sample || a.Estimate.Budget != prof.Budget {
		t.Fatalf("stats' audit: %d read of %d at budget %v; want %d of %d at %v", a.Audited, a.Sample, a.Estimate.Budget, sample, sample, prof.Budget)
	}
	if wantExit := map[bool]int{true: ExitNeedsReview, false: ExitOK}[a.Estimate.Breached]; r.code != wantExit {
		t.Fatalf("stats exit %d with breached %v", r.code, a.Estimate.Breached)
	}
	text := run(t, "", "stats", "--corpus", path, "--store", d.storePath)
	if !strings.Contains(text.out, fmt.Sprintf("%d read", sample)) || !strings.Contains(text.out, "budget "+ratePct(prof.Budget)) {
		t.Fatalf("stats text:\n%s", text.out)
	}
	t.Logf("reflect stats:\n%s", text.out)
	return a.Estimate
}

// labelledPassRate is what the labels say the gate let through on every
// document it auto-accepted: wrong values passed, values, documents, of all.
func (d *day) labelledPassRate(path string, labels map[string]map[string]any) (wrong, n, okDocs, docs int) {
	c := d.corpus(path)
	sums, err := d.st.Summaries(d.ctx, c.ID)
	if err != nil {
		d.t.Fatal(err)
	}
	for _, s := range sums {
		if s.Status != pipeline.StatusOK {
			continue
		}
		res, _, _ := d.st.Result(d.ctx, c.ID, s.DocID)
		w, k := wrongPassed(d.schema, res, labels[s.DocID])
		wrong, n, okDocs = wrong+w, n+k, okDocs+1
	}
	return wrong, n, okDocs, len(sums)
}

// workstation is tui.Run's model under teatest, with its whole screen
// published after every update: the terminal stream holds only what changed,
// so waits read the view instead.
type workstation struct {
	t      *testing.T
	tm     *teatest.TestModel
	screen *atomic.Pointer[string]
}

func startWorkstation(t *testing.T, cfg tui.Config) *workstation {
	screen := &atomic.Pointer[string]{}
	tm := teatest.NewTestModel(t, watched{m: tui.New(cfg), screen: screen}, teatest.WithInitialTermSize(120, 35))
	return &workstation{t: t, tm: tm, screen: screen}
}

func (w *workstation) wait(what, text string) {
	w.t.Helper()
	var last string
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if p := w.screen.Load(); p != nil {
			if last = *p; strings.Contains(last, text) {
				return
			}
		}
	}
	w.t.Fatalf("waiting for %s (%q); the screen:\n%s", what, text, last)
}

func (w *workstation) keys(ks ...string) {
	for _, k := range ks {
		switch k {
		case "enter":
			w.tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
		default:
			r := []rune(k)[0]
			w.tm.Send(tea.KeyPressMsg{Code: r, Text: k})
		}
	}
}

func (w *workstation) quit() {
	w.tm.Send(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	w.tm.WaitFinished(w.t, teatest.WithFinalTimeout(10*time.Second))
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
