package store_test

import (
	"context"
	"testing"

	"github.com/reflect-mcp/reflect/store"
)

// TestUndoActionTakesBackOneAction: "accept all" on one document is one
// action, so one UndoAction takes back all of it and nothing else: not the
// reviewer's earlier decision in the same document, not another document,
// not another reviewer's.
func TestUndoActionTakesBackOneAction(t *testing.T) {
	ctx := context.Background()
	s := populated(t, 5)
	const doc, other = "doc-000004", "doc-000003"
	d := func(doc, field, who string) store.Decision {
		return store.Decision{CorpusID: "c", DocID: doc, Field: field, Action: store.ActionAccept, Reviewer: who}
	}
	mustDecide := func(ds ...store.Decision) {
		t.Helper()
		if _, err := s.Decide(ctx, ds...); err != nil {
			t.Fatal(err)
		}
	}
	mustDecide(d(doc, "total", "ann"))
	mustDecide(d(doc, "vendor_name", "ann"), d(doc, "tax", "ann"), d(doc, "subtotal", "ann"))
	mustDecide(d(other, "total", "ann"))
	mustDecide(d(doc, "invoice_number", "bob"))

	u, err := s.UndoAction(ctx, "c", doc, "ann")
	if err != nil || !u.Found || len(u.Decisions) != 3 || u.Decisions[0].Field != "vendor_name" || u.Decisions[2].Field != "subtotal" {
		t.Fatalf("UndoAction = %+v %v, want the 3 accepts of one action in order", u, err)
	}
	decs, _ := s.Decisions(ctx, "c", doc)
	if _, ok := decs["total"]; !ok || len(decs) != 2 {
		t.Fatalf("after one undo: %v, want ann's earlier total and bob's invoice_number", decs)
	}
	if od, _ := s.Decisions(ctx, "c", other); len(od) != 1 {
		t.Errorf("the other document lost its decision: %v", od)
	}
	if u.Row.DocID != doc || u.Row.Decisions != 2 {
		t.Errorf("row = %+v", u.Row)
	}
	if u, err := s.UndoAction(ctx, "c", doc, "ann"); err != nil || len(u.Decisions) != 1 || u.Decisions[0].Field != "total" {
		t.Fatalf("second undo = %+v %v, want ann's total", u, err)
	}
	if u, err := s.UndoAction(ctx, "c", doc, "ann"); err != nil || u.Found {
		t.Fatalf("third undo = %+v %v, want nothing left for ann here", u, err)
	}
	if decs, _ := s.Decisions(ctx, "c", doc); len(decs) != 1 || decs["invoice_number"].Reviewer != "bob" {
		t.Errorf("bob's decision must stand: %v", decs)
	}
}

// TestChangedSince: a decision and a new result are reported once, after
// the number they were asked with, and nothing is reported twice.
func TestChangedSince(t *testing.T) {
	ctx := context.Background()
	s := populated(t, 5)
	seq, err := s.ChangeSeq(ctx)
	if err != nil {
		t.Fatal(err)
	}
	rows, next, err := s.ChangedSince(ctx, "c", seq)
	if err != nil || len(rows) != 0 || next != seq {
		t.Fatalf("nothing changed: %v %d %v", rows, next, err)
	}
	if _, err := s.Decide(ctx, store.Decision{CorpusID: "c", DocID: "doc-000002", Field: "total", Action: store.ActionAccept, Reviewer: "ann"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Decide(ctx, store.Decision{CorpusID: "c", DocID: "doc-000002", Field: "tax", Action: store.ActionAccept, Reviewer: "ann"}); err != nil {
		t.Fatal(err)
	}
	rows, next2, err := s.ChangedSince(ctx, "c", next)
	if err != nil || len(rows) != 1 || rows[0].DocID != "doc-000002" || rows[0].Decisions != 2 || next2 <= next {
		t.Fatalf("after two decisions on one document: %+v %d %v", rows, next2, err)
	}
	if rows, _, _ := s.ChangedSince(ctx, "c", next2); len(rows) != 0 {
		t.Errorf("reported again: %+v", rows)
	}
	if rows, _, _ := s.ChangedSince(ctx, "other", 0); len(rows) != 0 {
		t.Errorf("another corpus sees c's changes: %+v", rows)
	}
}
