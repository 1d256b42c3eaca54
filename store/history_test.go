package store_test

import (
	"context"
	"testing"

	"github.com/reflect-mcp/reflect/store"
)

// TestDocumentAudit: one document's trail, newest first, undo included,
// and nothing of another document.
func TestDocumentAudit(t *testing.T) {
	ctx := context.Background()
	s := populated(t, 12)
	const doc = "doc-000001"
	d := func(doc, field, who string) store.Decision {
		return store.Decision{CorpusID: "c", DocID: doc, Field: field, Action: store.ActionAccept, Reviewer: who}
	}
	for _, ds := range [][]store.Decision{
		{d(doc, "total", "ann")}, {d("doc-000011", "total", "ann")}, {d(doc, "tax", "bob")},
	} {
		if _, err := s.Decide(ctx, ds...); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.UndoAction(ctx, "c", doc, "ann"); err != nil {
		t.Fatal(err)
	}
	es, err := s.DocumentAudit(ctx, "c", doc)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range es {
		if e.DocID != doc {
			t.Errorf("entry of %s in %s's trail", e.DocID, doc)
		}
		got = append(got, e.Who+" "+string(e.Action)+" "+e.Field)
	}
	want := []string{"ann undo total", "bob accept tax", "ann accept total"}
	if len(got) != len(want) {
		t.Fatalf("trail %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("trail %q, want %q", got, want)
		}
	}
}
