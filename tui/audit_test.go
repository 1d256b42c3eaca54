package tui

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/reflect-mcp/reflect/golden"
	"github.com/reflect-mcp/reflect/pipeline"
	"github.com/reflect-mcp/reflect/store"
	"github.com/reflect-mcp/reflect/store/storetest"
)

func auditDraws(t *testing.T, st *store.Store, corpusID string) []store.AuditDraw {
	t.Helper()
	ds, err := st.AuditDraws(context.Background(), corpusID)
	if err != nil {
		t.Fatal(err)
	}
	return ds
}

// The audit tab draws its sample the first time it opens: at the default
// 0.5% budget it wants more documents than the fixture's two auto-accepted
// ones, so it takes both, and records the draw. Opening it again, or in a
// second workstation, finds that draw rather than drawing anew. A sampled
// document is reviewed like any other, and the tab counts it read.
func TestAuditTabDrawsOnceAndReviews(t *testing.T) {
	f := newFixture(t)
	m := press(t, loaded(t, f.config()), "6")
	if m.queue.tab != TabAudit {
		t.Fatalf("6 opened %v", m.queue.tab)
	}
	if got := queueIDs(m); !slices.Equal(got, []string{"inv-005", "inv-003"}) {
		t.Fatalf("audit tab = %v, want the two auto-accepted documents", got)
	}
	ds := auditDraws(t, f.st, f.corpus.ID)
	if len(ds) != 1 || ds[0].Budget != 0.005 || ds[0].Confidence != 0.95 || ds[0].Eligible != 2 || ds[0].Reviewer != "tester" {
		t.Fatalf("recorded draws %+v, want one at 0.5%%/95%% of 2 eligible", ds)
	}
	if v := viewText(m); !strings.Contains(v, "audit 0/2 read") || !strings.Contains(v, "6 audit 2") {
		t.Fatalf("audit tab before any review:\n%s", v)
	}
	m = press(t, m, "1", "6")
	other := press(t, loaded(t, f.config()), "6")
	if n := len(auditDraws(t, f.st, f.corpus.ID)); n != 1 {
		t.Fatalf("reopening the tab, here and in a second workstation, made %d draws", n)
	}
	if got := queueIDs(other); !slices.Equal(got, []string{"inv-005", "inv-003"}) {
		t.Fatalf("second workstation's audit tab = %v", got)
	}
	m = press(t, m, "enter")
	if m.page != pageDoc || m.doc.DocID() != "inv-005" {
		t.Fatalf("enter on the audit tab opened %q", m.doc.DocID())
	}
	m = press(t, m, "A", "q")
	if r, _ := m.queue.Row("inv-005"); !r.Reviewed {
		t.Fatalf("inv-005 not reviewed after A: %+v", r)
	}
	// Read documents stay on the tab: the sample is what was drawn.
	if got := queueIDs(m); !slices.Equal(got, []string{"inv-005", "inv-003"}) {
		t.Fatalf("audit tab after a review = %v", got)
	}
	if v := viewText(m); !strings.Contains(v, "audit 1/2 read · 0/7 wrong") {
		t.Fatalf("audit line after one document read:\n%s", v)
	}
	// The stats panel (s) carries the audit too.
	if v := viewText(press(t, m, "s")); !strings.Contains(v, "audit: read / drawn            1 / 2 · read more") || !strings.Contains(v, "audit: wrong · upper · budget  0/7 · 34.82% · 0.50%") {
		t.Fatalf("stats panel:\n%s", v)
	}
}

// The estimate follows each decision on a sampled document: a correction
// is a wrong value the gate passed, one among seven bounds the rate over the
// 0.5% budget from below (BUDGET BREACHED), and undoing it takes it back.
func TestAuditTabEstimateFollowsDecisions(t *testing.T) {
	f := newFixture(t)
	m := press(t, loaded(t, f.config()), "6")
	m = openDoc(t, m, "inv-003")
	m = selectField(t, m, "total")
	m = press(t, m, "e", "ctrl+u")
	m = typeText(t, m, "125.00")
	m = press(t, m, "enter")
	if d := decisions(t, f, "inv-003")["total"]; d.Action != store.ActionCorrect {
		t.Fatalf("total decision %+v", d)
	}
	a := m.queue.audit.audit
	if a.Report.All.N != 1 || a.Report.All.SilentWrong != 1 {
		t.Fatalf("estimate after the correction: %+v", a.Report.All)
	}
	m = press(t, m, "A", "q", "6")
	v := viewText(m)
	if !strings.Contains(v, "audit 1/2 read · 1/7 wrong · BUDGET BREACHED (total) · 14.29%, upper") {
		t.Fatalf("audit line after a wrong total:\n%s", v)
	}
	m = openDoc(t, m, "inv-003")
	m = press(t, m, "u") // takes back A (the four accepts)
	m = press(t, m, "u") // and the correction
	if n := len(decisions(t, f, "inv-003")); n != 0 {
		t.Fatalf("%d decisions left after two undos", n)
	}
	if all := m.queue.audit.audit.Report.All; all.N != 0 || all.SilentWrong != 0 || m.queue.audit.audit.Audited != 0 {
		t.Fatalf("estimate after the undos: %+v (audited %d)", all, m.queue.audit.audit.Audited)
	}
}

// populatedConfig is a workstation on storetest's synthetic corpus (30
// documents, 24 auto-accepted) gated under a profile whose loose budget
// (30%) wants only two documents a draw.
func populatedConfig(t *testing.T) (Config, *store.Store) {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(filepath.Join(t.TempDir(), "reflect.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := storetest.Populate(ctx, st, "c", 30); err != nil {
		t.Fatal(err)
	}
	c, err := st.Corpus(ctx, "c")
	if err != nil {
		t.Fatal(err)
	}
	prof := &pipeline.GateProfile{Schema: "invoice", By: pipeline.ProfileByField, Budget: 0.3, Default: 0.8}
	prof.ID = prof.ComputeID()
	return Config{Store: st, Corpus: c, Schema: pipeline.Invoice(), PipelineVersion: storetest.Version,
		Reviewer: "tester", NoColor: true, Gate: prof}, st
}

// D on the audit tab draws as many again from the auto-accepted documents
// no draw took, and records it as a second draw under the same profile.
func TestAuditTabDrawsMore(t *testing.T) {
	cfg, st := populatedConfig(t)
	m := press(t, loaded(t, cfg), "6")
	first := queueIDs(m)
	if len(first) != 2 {
		t.Fatalf("a 30%% budget drew %v, want 2 documents", first)
	}
	m = press(t, m, "D")
	got := queueIDs(m)
	if len(got) != 4 || !strings.Contains(viewText(m), "audit: drew 2 documents more of 22 auto-accepted not yet drawn (draw 2)") {
		t.Fatalf("after D the tab holds %v:\n%s", got, viewText(m))
	}
	for _, id := range first {
		if !slices.Contains(got, id) {
			t.Errorf("D dropped %s of the first draw", id)
		}
	}
	ds := auditDraws(t, st, "c")
	if len(ds) != 2 || ds[1].N != 2 || ds[1].Profile != cfg.Gate.ID || ds[1].Budget != 0.3 || slices.ContainsFunc(ds[1].IDs, func(id string) bool { return slices.Contains(ds[0].IDs, id) }) {
		t.Fatalf("draws %+v", ds)
	}
	// D works on the audit tab only.
	press(t, m, "2", "D")
	if n := len(auditDraws(t, st, "c")); n != 2 {
		t.Fatalf("D on the ok tab drew (%d draws)", n)
	}
}

// Bulk accept on the ok tab settles every auto-accepted document except
// those of the audit sample: an audit must be read, and the note says so.
func TestBulkAcceptLeavesTheAuditSample(t *testing.T) {
	cfg, st := populatedConfig(t)
	m := press(t, loaded(t, cfg), "6")
	sample := queueIDs(m)
	m = press(t, m, "2", "B", "ctrl+u")
	m = typeText(t, m, "0")
	m = press(t, m, "enter")
	if v := viewText(m); !strings.Contains(v, "in 22 documents") {
		t.Fatalf("bulk confirmation:\n%s", v)
	}
	m = press(t, m, "y")
	if v := viewText(m); !strings.Contains(v, "in 22 docs; 2 audit docs left to read one by one") {
		t.Fatalf("after the bulk accept:\n%s", v)
	}
	ctx := context.Background()
	for _, id := range sample {
		ds, err := st.Decisions(ctx, "c", id)
		if err != nil || len(ds) != 0 {
			t.Fatalf("bulk accept settled %d fields of audit document %s (%v)", len(ds), id, err)
		}
	}
	if got := queueIDs(m); !slices.Equal(got, sample) {
		t.Fatalf("ok tab after the bulk accept = %v, want only the audit sample %v", got, sample)
	}
}

// The audit tab at 80x24 and 120x35: the sample and the estimate line after
// one of its documents was read.
func TestGoldenAuditView(t *testing.T) {
	m := press(t, loaded(t, newFixture(t).config()), "6", "enter", "A", "q")
	teatest.RequireEqualOutput(t, []byte(ansi.Strip(m.View().Content)))
}

func TestGoldenAuditView120(t *testing.T) {
	m := press(t, wide(t, loaded(t, newFixture(t).config())), "6", "enter", "A", "q")
	teatest.RequireEqualOutput(t, []byte(ansi.Strip(m.View().Content)))
}

// Estimate reads run concurrently: one that read the store earlier but
// arrives later does not put the older estimate back.
func TestAuditEstimateIgnoresAnOverTakenRead(t *testing.T) {
	m := loaded(t, newFixture(t).config())
	draw := store.AuditDraw{N: 1, IDs: []string{"inv-003", "inv-005"}}
	newer := golden.Audit{Draws: []store.AuditDraw{draw}, Sample: 2, Audited: 2}
	older := golden.Audit{Draws: []store.AuditDraw{draw}, Sample: 2, Audited: 1}
	m.queue.applyAudit(AuditMsg{Seq: 9, Audit: newer})
	m.queue.applyAudit(AuditMsg{Seq: 7, Audit: older})
	if got := m.queue.audit.audit.Audited; got != 2 {
		t.Fatalf("an overtaken read put back %d read, want 2", got)
	}
	// A later draw is news even at the same change number.
	more := golden.Audit{Draws: []store.AuditDraw{draw, {N: 2, IDs: []string{"inv-001"}}}, Sample: 3, Audited: 2}
	m.queue.applyAudit(AuditMsg{Seq: 9, Audit: more})
	if m.queue.audit.audit.Sample != 3 || !m.queue.audit.ids["inv-001"] {
		t.Fatalf("the second draw was not taken: %+v", m.queue.audit.audit)
	}
}

// A bulk accept before the audit tab was ever opened leaves nothing the gate
// passed unread, so the tab has nothing to draw; it says why instead of
// showing an empty list.
func TestAuditTabSaysWhyNothingIsDrawn(t *testing.T) {
	cfg, _ := populatedConfig(t)
	m := press(t, loaded(t, cfg), "2", "B", "ctrl+u")
	m = typeText(t, m, "0")
	m = press(t, m, "enter", "y", "6")
	if got := queueIDs(m); len(got) != 0 {
		t.Fatalf("audit tab after accepting every ok document = %v, want none", got)
	}
	v := viewText(m)
	for _, want := range []string{"nothing to audit", "no reviewer has decided", "accepted by hand or with B"} {
		if !strings.Contains(v, want) {
			t.Fatalf("audit tab does not say %q:\n%s", want, v)
		}
	}
}
