package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/reflect-mcp/reflect/golden"
	"github.com/reflect-mcp/reflect/pipeline"
	"github.com/reflect-mcp/reflect/store"
	"github.com/reflect-mcp/reflect/store/storetest"
)

// stats reads the audit from the store: per field the values read, the
// silent-wrong found, its upper bound next to the budget; a budget the
// audit proves breached says BUDGET BREACHED and exits 1, in text and JSON.
func TestStatsReportsTheAudit(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "s.db")
	st, err := store.Open(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := storetest.Populate(ctx, st, "c", 30); err != nil {
		t.Fatal(err)
	}
	if r := run(t, "", "stats", "--store", path); r.code != 0 || strings.Contains(r.out, "audit of") {
		t.Fatalf("stats before any audit: exit %d\n%s", r.code, r.out)
	}
	sp := golden.AuditSpecFor(pipeline.Invoice(), nil, "ann")
	d, _, err := golden.DrawAudit(ctx, st, "c", sp, false)
	if err != nil || len(d.IDs) < 2 {
		t.Fatalf("draw: %+v, %v", d, err)
	}
	// The first sampled document is read and every value stands.
	read := func(doc string, correct string) int {
		t.Helper()
		res, _, err := st.Result(ctx, "c", doc)
		if err != nil {
			t.Fatal(err)
		}
		var ds []store.Decision
		for f := range res.Data {
			dec := store.Decision{CorpusID: "c", DocID: doc, Field: f, Action: store.ActionAccept, Reviewer: "ann"}
			if f == correct {
				dec.Action, dec.Value = store.ActionCorrect, "SOMEONE ELSE"
			}
			ds = append(ds, dec)
		}
		if _, err := st.Decide(ctx, ds...); err != nil {
			t.Fatal(err)
		}
		return len(ds)
	}
	n := read(d.IDs[0], "")
	r := run(t, "", "stats", "--store", path)
	if r.code != 0 {
		t.Fatalf("stats with nothing wrong found: exit %d\n%s%s", r.code, r.out, r.err)
	}
	for _, want := range []string{"audit of c (c): " + strconv.Itoa(len(d.IDs)) + " auto-accepted documents drawn in 1 draw(s)", "1 read",
		"budget 0.50% silent-wrong", "all", "unproven"} {
		if !strings.Contains(r.out, want) {
			t.Errorf("stats lacks %q:\n%s", want, r.out)
		}
	}
	// The second is read and its vendor was wrong: one of two vendors passed
	// wrong bounds the rate far over 0.5% from below as well.
	n += read(d.IDs[1], "vendor_name")
	r = run(t, "", "stats", "--store", path)
	if r.code != ExitNeedsReview || !strings.Contains(r.err, "budget breached") {
		t.Fatalf("stats after a wrong vendor passed: exit %d, stderr %q", r.code, r.err)
	}
	var vendor string
	for _, l := range strings.Split(r.out, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "vendor_name") {
			vendor = l
		}
	}
	if f := strings.Fields(vendor); len(f) < 7 || f[1] != "2" || f[2] != "1" || f[3] != "50.00%" || f[5] != "0.50%" || !strings.Contains(vendor, "BUDGET BREACHED") {
		t.Errorf("vendor_name line %q: want 2 audited, 1 silent, 50.00%%, budget 0.50%%, BUDGET BREACHED", vendor)
	}
	r = run(t, "", "stats", "--store", path, "--json")
	if r.code != ExitNeedsReview {
		t.Fatalf("stats --json exit %d", r.code)
	}
	var js struct {
		Audits []struct {
			Sample, Audited int
			Estimate        golden.AuditReport
		}
	}
	if err := json.Unmarshal([]byte(r.out), &js); err != nil {
		t.Fatal(err)
	}
	if len(js.Audits) != 1 {
		t.Fatalf("json audits: %+v", js.Audits)
	}
	a := js.Audits[0]
	if a.Audited != 2 || a.Sample != len(d.IDs) || a.Estimate.All.N != n || a.Estimate.All.SilentWrong != 1 || !a.Estimate.Breached || a.Estimate.Budget != 0.005 {
		t.Errorf("json audit %+v, want 2 read of %d, %d values, 1 silent, breached at 0.005", a, len(d.IDs), n)
	}
	if a.Estimate.All.Upper <= a.Estimate.All.Rate {
		t.Errorf("upper bound %v not above the rate %v", a.Estimate.All.Upper, a.Estimate.All.Rate)
	}
}

// New user report #11: a null the gate passed and a reviewer filled in is
// not silent-wrong, in the gate-vs-reviewers line as in the audit table;
// both say so in the same words.
func TestStatsCountsAFilledNullOnceTheSameWay(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "s.db")
	st, err := store.Open(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	c := store.Corpus{ID: "c", Name: "c", Kind: "file", Schema: "invoice"}
	var docs []store.Document
	for i, id := range []string{"a", "b"} {
		docs = append(docs, store.Document{ID: id, Seq: i, Text: "Globex Ltd\nRef GLX-1\nTotal 583.20 GBP"})
	}
	if err := st.PutCorpus(ctx, c, docs); err != nil {
		t.Fatal(err)
	}
	for _, d := range docs {
		res := pipeline.Result{ID: d.ID, Status: pipeline.StatusOK, Schema: "invoice", OverallConfidence: 0.95,
			Data: pipeline.Record{"vendor_name": "Globex", "invoice_number": nil, "total": 583.2}}
		if _, err := st.PutResult(ctx, "c", d.ID, "v1", res); err != nil {
			t.Fatal(err)
		}
	}
	sp := golden.AuditSpecFor(pipeline.Invoice(), nil, "ann")
	if d, _, err := golden.DrawAudit(ctx, st, "c", sp, false); err != nil || len(d.IDs) != 2 {
		t.Fatalf("draw: %+v, %v", d, err)
	}
	dec := func(doc, f string, v any) store.Decision {
		return store.Decision{CorpusID: "c", DocID: doc, Field: f, Action: store.ActionCorrect, Value: v, Reviewer: "ann"}
	}
	if _, err := st.Decide(ctx, dec("a", "vendor_name", "Globex Ltd"), dec("b", "invoice_number", "GLX-1")); err != nil {
		t.Fatal(err)
	}
	r := run(t, "", "stats", "--store", path, "--corpus", "c")
	if !strings.Contains(r.out, "catch rate 0.0% (0 of 2 corrected values flagged), silent-wrong 1\n") {
		t.Errorf("gate vs reviewers counts the filled null as silent-wrong:\n%s", r.out)
	}
	if strings.Count(r.out, "(1 "+missedNote+")") != 2 {
		t.Errorf("want the filled null said apart, in the same words, in both blocks:\n%s", r.out)
	}
	var all []string
	for _, l := range strings.Split(r.out, "\n") {
		if f := strings.Fields(l); len(f) > 2 && f[0] == "all" {
			all = f
		}
	}
	if len(all) < 3 || all[2] != "1" {
		t.Errorf("audit table's all line %q: want 1 silent", all)
	}
}
