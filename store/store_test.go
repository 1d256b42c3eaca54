package store_test

import (
	"context"
	"errors"
	"fmt"
	"github.com/reflect-mcp/reflect/store"
	"github.com/reflect-mcp/reflect/store/storetest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reflect-mcp/reflect/pipeline"
	"go.etcd.io/bbolt"
)

func openTemp(t *testing.T) *store.Store {
	t.Helper()
	s, err := store.Open(filepath.Join(t.TempDir(), "sub", "reflect.db"), store.Options{})
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	return s
}

// checkFile runs bbolt's consistency check over the whole file.
func checkFile(t *testing.T, path string) {
	t.Helper()
	db, err := bbolt.Open(path, 0o600, &bbolt.Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("open for check: %v", err)
	}
	defer db.Close()
	err = db.View(func(tx *bbolt.Tx) error {
		for err := range tx.Check() {
			return err
		}
		return nil
	})
	if err != nil {
		t.Fatalf("bbolt check: %v", err)
	}
}

func TestStoreMigratesEmptyFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v0.db")
	// A bare bbolt file: what a crash during the very first Open leaves.
	db, err := bbolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	if _, err := store.Open(path, store.Options{}); err != nil {
		t.Fatalf("Open v0 file: %v", err)
	}
	db, err = bbolt.Open(path, 0o600, &bbolt.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	err = db.View(func(tx *bbolt.Tx) error {
		v := tx.Bucket(store.BktMeta).Get(store.KeyVersion)
		if got := store.U64(store.SchemaVersion()); string(v) != string(got) {
			t.Errorf("schema version = %x, want %x", v, got)
		}
		for _, b := range [][]byte{store.BktCorpora, store.BktDocs, store.BktSummaries, store.BktResults, store.BktLatest, store.BktDecisions, store.BktAudit, store.BktTraces} {
			if tx.Bucket(b) == nil {
				t.Errorf("bucket %s missing after migration", b)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestStoreRejectsNewerSchema(t *testing.T) {
	path := filepath.Join(t.TempDir(), "future.db")
	db, err := bbolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *bbolt.Tx) error {
		b, err := tx.CreateBucket(store.BktMeta)
		if err != nil {
			return err
		}
		return b.Put(store.KeyVersion, store.U64(store.SchemaVersion()+1))
	})
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.Open(path, store.Options{}); err == nil {
		t.Fatal("Open of a newer-schema file succeeded")
	}
}

func TestStoreCorpusUpsertKeepsWork(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	c := store.Corpus{ID: "c1", Name: "receipts", Kind: "file", Schema: "invoice"}
	docs := []store.Document{{ID: "b", Seq: 1, Text: "second\nline"}, {ID: "a", Seq: 0, Text: "  \nfirst"}}
	if err := s.PutCorpus(ctx, c, docs); err != nil {
		t.Fatal(err)
	}
	res := pipeline.Result{Status: pipeline.StatusOK, Data: pipeline.Record{"total": 5.0}, OverallConfidence: 0.9}
	if _, err := s.PutResult(ctx, "c1", "a", "v1", res); err != nil {
		t.Fatal(err)
	}
	// Re-opening the same corpus with one new document keeps a's result and
	// appends c after the existing documents.
	docs = append(docs, store.Document{ID: "c", Seq: 0, Text: "third"})
	if err := s.PutCorpus(ctx, c, docs); err != nil {
		t.Fatal(err)
	}
	sums, err := s.Summaries(ctx, "c1")
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, r := range sums {
		ids = append(ids, r.DocID)
	}
	if len(sums) != 3 || ids[0] != "a" || ids[1] != "b" || ids[2] != "c" {
		t.Fatalf("summaries order = %v, want [a b c]", ids)
	}
	if sums[0].Status != pipeline.StatusOK || sums[0].Confidence != 0.9 || sums[0].Snippet != "first" {
		t.Errorf("summary a = %+v", sums[0])
	}
	if sums[1].Status != "" || sums[1].Snippet != "second" {
		t.Errorf("summary b = %+v", sums[1])
	}
	ids, err = s.MissingResultIDs(ctx, "c1", "v1")
	if err != nil {
		t.Fatal(err)
	}
	missing, err := s.Documents(ctx, "c1", ids)
	if err != nil {
		t.Fatal(err)
	}
	if len(missing) != 2 || missing[0].ID != "b" || missing[1].ID != "c" || missing[1].Text != "third" {
		t.Errorf("missing = %+v", missing)
	}
	cs, err := s.Corpora(ctx)
	if err != nil || len(cs) != 1 || cs[0].Name != "receipts" || cs[0].Created.IsZero() {
		t.Errorf("corpora = %+v, %v", cs, err)
	}
	if _, err := s.Corpus(ctx, "nope"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Corpus(nope) err = %v, want ErrNotFound", err)
	}
	if _, err := s.Document(ctx, "c1", "nope"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Document(nope) err = %v, want ErrNotFound", err)
	}
	if _, err := s.PutResult(ctx, "c1", "nope", "v1", res); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("PutResult(nope) err = %v, want ErrNotFound", err)
	}
	if err := s.PutCorpus(ctx, store.Corpus{ID: "bad\x00id"}, nil); err == nil {
		t.Error("PutCorpus accepted a NUL in the id")
	}
}

func TestStoreResultVersions(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	if err := storetest.Populate(ctx, s, "c", 5); err != nil {
		t.Fatal(err)
	}
	r1, ok, err := s.Result(ctx, "c", "doc-000004")
	if err != nil || !ok {
		t.Fatalf("Result: %v %v", ok, err)
	}
	if r1.Status != pipeline.StatusNeedsReview || len(r1.FieldOrder) != 7 || r1.FieldOrder[0] != "vendor_name" {
		t.Fatalf("populated result = %+v", r1)
	}
	r2 := r1
	r2.Status = pipeline.StatusOK
	r2.FlaggedFields = nil
	if _, err := s.PutResult(ctx, "c", "doc-000004", "v2", r2); err != nil {
		t.Fatal(err)
	}
	got, _, err := s.Result(ctx, "c", "doc-000004")
	if err != nil || got.Status != pipeline.StatusOK {
		t.Errorf("latest = %v, %v; want the v2 result", got.Status, err)
	}
	old, ok, err := s.ResultVersion(ctx, "c", "doc-000004", storetest.Version)
	if err != nil || !ok || old.Status != pipeline.StatusNeedsReview {
		t.Errorf("old version = %v %v %v", old.Status, ok, err)
	}
	if _, ok, err := s.Result(ctx, "c", "doc-999999"); ok || err != nil {
		t.Errorf("Result of unknown doc = %v, %v", ok, err)
	}
	c, d, ok, err := s.FindTrace(ctx, "trace-synthetic-000002")
	if err != nil || !ok || c != "c" || d != "doc-000002" {
		t.Errorf("FindTrace = %q %q %v %v", c, d, ok, err)
	}
	if _, _, ok, err := s.FindTrace(ctx, "nope"); ok || err != nil {
		t.Errorf("FindTrace(nope) = %v %v", ok, err)
	}
	missing, err := s.MissingResultIDs(ctx, "c", "v2")
	if err != nil || len(missing) != 4 {
		t.Errorf("missing v2 = %d docs, %v; want 4", len(missing), err)
	}
}

func TestStoreEnqueue(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	res := pipeline.Result{Status: pipeline.StatusNeedsReview, TraceID: "t-1", Schema: "invoice",
		Data: pipeline.Record{"total": 3.0}, FlaggedFields: []pipeline.FlaggedField{{Field: "total"}}}
	cid, _, err := s.Enqueue(ctx, "default", store.Document{ID: "x", Text: "hello"}, "v1", res)
	if err != nil || cid != "mcp:default" {
		t.Fatalf("Enqueue = %q, %v", cid, err)
	}
	res.TraceID = "t-2"
	if _, _, err := s.Enqueue(ctx, "default", store.Document{ID: "x", Text: "different"}, "v1", res); err != nil {
		t.Fatal(err)
	}
	c, err := s.Corpus(ctx, cid)
	if err != nil || c.Kind != "mcp" || c.Schema != "invoice" {
		t.Errorf("corpus = %+v, %v", c, err)
	}
	_, d1, ok1, _ := s.FindTrace(ctx, "t-1")
	_, d2, ok2, _ := s.FindTrace(ctx, "t-2")
	if !ok1 || !ok2 || d1 != "x" || d2 == "x" {
		t.Fatalf("traces map to %q and %q, want x and a second document", d1, d2)
	}
	doc, err := s.Document(ctx, cid, d2)
	if err != nil || doc.Text != "different" || doc.TraceID != "t-2" {
		t.Errorf("second document = %+v, %v", doc, err)
	}
	sums, _ := s.Summaries(ctx, cid)
	if len(sums) != 2 || sums[0].Flagged != 1 || sums[1].Status != pipeline.StatusNeedsReview {
		t.Errorf("summaries = %+v", sums)
	}
}

func TestStoreDecideUndoStats(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	if err := storetest.Populate(ctx, s, "c", 10); err != nil {
		t.Fatal(err)
	}
	const doc = "doc-000004" // needs_review, total flagged
	if _, err := s.Decide(ctx, store.Decision{CorpusID: "c", DocID: doc, Field: "total", Action: store.ActionAccept}); err == nil {
		t.Fatal("Decide without a reviewer succeeded")
	}
	if _, err := s.Decide(ctx, store.Decision{CorpusID: "c", DocID: doc, Field: "nope", Action: store.ActionAccept, Reviewer: "ann"}); err == nil {
		t.Fatal("Decide on a field outside the result succeeded")
	}
	rec, reviewed, err := s.Settled(ctx, "c", doc)
	if err != nil || reviewed {
		t.Fatalf("Settled before review: reviewed=%v err=%v", reviewed, err)
	}
	pipelineTotal := rec["total"].(float64)

	// Accepting an unflagged field does not make the document reviewed.
	if _, err := s.Decide(ctx, store.Decision{CorpusID: "c", DocID: doc, Field: "vendor_name", Action: store.ActionAccept, Reviewer: "ann"}); err != nil {
		t.Fatal(err)
	}
	if _, reviewed, _ := s.Settled(ctx, "c", doc); reviewed {
		t.Fatal("reviewed with the flagged field undecided")
	}
	if _, err := s.Decide(ctx,
		store.Decision{CorpusID: "c", DocID: doc, Field: "total", Action: store.ActionCorrect, Value: 99.5, Reviewer: "ann"},
		store.Decision{CorpusID: "c", DocID: doc, Field: "tax", Action: store.ActionSetNull, Reviewer: "ann"},
	); err != nil {
		t.Fatal(err)
	}
	rec, reviewed, err = s.Settled(ctx, "c", doc)
	if err != nil || !reviewed || rec["total"] != 99.5 || rec["tax"] != nil || rec["vendor_name"] == nil {
		t.Fatalf("Settled = %v reviewed=%v err=%v", rec, reviewed, err)
	}
	decs, err := s.Decisions(ctx, "c", doc)
	if err != nil || len(decs) != 3 || decs["total"].Original != pipelineTotal || decs["total"].Reviewer != "ann" {
		t.Fatalf("decisions = %+v, %v", decs, err)
	}
	st, err := s.Stats(ctx, "c")
	if err != nil {
		t.Fatal(err)
	}
	// 10 docs: 4 and 9 needs_review, 49 would be the error; doc 4 is reviewed
	// with total (flagged) and tax (unflagged) changed.
	want := store.Stats{Documents: 10, WithResult: 10, Reviewed: 1, AutoAccepted: 8, NeedsReview: 1,
		DecidedFields: 3, CorrectedFields: 2, FlaggedFields: 2, CaughtWrong: 1, SilentWrong: 1, CatchRate: 0.5}
	if st != want {
		t.Errorf("stats = %+v\nwant    %+v", st, want)
	}

	// Correct total a second time, then undo twice: first back to 99.5, then
	// to undecided.
	if _, err := s.Decide(ctx, store.Decision{CorpusID: "c", DocID: doc, Field: "total", Action: store.ActionCorrect, Value: 12.0, Reviewer: "ann"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Decide(ctx, store.Decision{CorpusID: "c", DocID: "doc-000001", Field: "total", Action: store.ActionAccept, Reviewer: "bob"}); err != nil {
		t.Fatal(err)
	}
	u, err := s.Undo(ctx, "c", "ann")
	if err != nil || !u.Found || u.Decision.Value != 12.0 {
		t.Fatalf("first undo = %+v %v", u, err)
	}
	if sums, _ := s.Summaries(ctx, "c"); u.Row != sums[4] || u.Row.Decisions != 3 {
		t.Errorf("first undo's row = %+v, want the stored row %+v with 3 decisions", u.Row, sums[4])
	}
	if decs, _ := s.Decisions(ctx, "c", doc); decs["total"].Value != 99.5 {
		t.Errorf("after undo total = %v, want 99.5", decs["total"].Value)
	}
	for _, want := range []string{"tax", "total"} {
		u, err := s.Undo(ctx, "c", "ann")
		if err != nil || !u.Found || u.Decision.Field != want {
			t.Fatalf("undo = %+v %v, want field %s", u, err, want)
		}
	}
	decs, _ = s.Decisions(ctx, "c", doc)
	if _, ok := decs["total"]; ok || len(decs) != 1 {
		t.Errorf("after undos decisions = %+v, want only vendor_name", decs)
	}
	sums, _ := s.Summaries(ctx, "c")
	if sums[4].Reviewed || sums[4].Decisions != 1 || sums[4].Corrected != 0 {
		t.Errorf("summary after undo = %+v", sums[4])
	}
	if d, _ := s.Decisions(ctx, "c", "doc-000001"); d["total"].Reviewer != "bob" {
		t.Error("ann's undo touched bob's decision")
	}
	if u, err := s.Undo(ctx, "c", "carol"); u.Found || err != nil {
		t.Errorf("undo with no history = %+v %v", u, err)
	}

	audit, err := s.Audit(ctx, "c")
	if err != nil {
		t.Fatal(err)
	}
	var actions []store.Action
	for i, e := range audit {
		actions = append(actions, e.Action)
		if i > 0 && e.Seq <= audit[i-1].Seq {
			t.Errorf("audit not in sequence order at %d", i)
		}
	}
	wantActions := []store.Action{store.ActionAccept, store.ActionCorrect, store.ActionSetNull, store.ActionCorrect, store.ActionAccept, store.ActionUndo, store.ActionUndo, store.ActionUndo}
	if len(actions) != len(wantActions) {
		t.Fatalf("audit actions = %v, want %v", actions, wantActions)
	}
	for i := range actions {
		if actions[i] != wantActions[i] {
			t.Fatalf("audit actions = %v, want %v", actions, wantActions)
		}
	}
	if last := audit[len(audit)-1]; last.Before != 99.5 || last.After != pipelineTotal || last.Who != "ann" {
		t.Errorf("last undo audit = %+v", last)
	}
	checkFile(t, s.Path())
}

func TestStoreSameValue(t *testing.T) {
	cases := []struct {
		a, b any
		want bool
	}{
		{nil, nil, true}, {nil, "", false}, {1.0, 1.004, true}, {1.0, 1.01, false},
		// Exactly half a cent agrees, as golden.FieldCorrect scores it.
		{10.0, 10.005, true}, {0.0, 0.005, true}, {583.2, 583.2051, false},
		{"abc ", "abc", true}, {"abc", "abd", false}, {3, 3.0, true}, {"1", 1.0, true},
	}
	for _, c := range cases {
		if got := store.SameValue(c.a, c.b); got != c.want {
			t.Errorf("SameValue(%#v, %#v) = %v", c.a, c.b, got)
		}
	}
}

// An id given twice in one PutCorpus is stored once, with its first text,
// whether the ids come in order or not; a later call appends after it.
func TestPutCorpusRepeatedIDKeepsTheFirst(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	c := store.Corpus{ID: "c1", Name: "receipts", Kind: "file", Schema: "invoice"}
	docs := []store.Document{{ID: "b", Seq: 0, Text: "first b"}, {ID: "a", Seq: 1, Text: "a"}, {ID: "b", Seq: 2, Text: "second b"}}
	if err := s.PutCorpus(ctx, c, docs); err != nil {
		t.Fatal(err)
	}
	if err := s.PutCorpus(ctx, c, []store.Document{{ID: "c", Text: "c"}, {ID: "d", Text: "d"}, {ID: "d", Text: "d again"}}); err != nil {
		t.Fatal(err)
	}
	sums, err := s.Summaries(ctx, "c1")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range sums {
		got = append(got, fmt.Sprintf("%s@%d", r.DocID, r.Seq))
	}
	if want := "b@0 a@1 c@2 d@3"; strings.Join(got, " ") != want {
		t.Fatalf("rows %v, want %s", got, want)
	}
	if d, err := s.Document(ctx, "c1", "b"); err != nil || d.Text != "first b" {
		t.Fatalf("b = %+v, %v", d, err)
	}
}
