package tui

import (
	"context"
	"strings"
	"testing"

	"github.com/reflect-mcp/reflect/pipeline"
	"github.com/reflect-mcp/reflect/store"
)

// A poll brings in a result another process stored and a decision another
// reviewer made, without moving the cursor; on the open document the other
// reviewer's decision shows with their name.
func TestPollShowsOtherProcessesChanges(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	m := press(t, loaded(t, f.config()), "5", "j", "j")
	before, _ := m.queue.Selected()

	// Another process queues a new document with a result.
	doc := store.Document{CorpusID: f.corpus.ID, ID: "inv-100", Seq: 9, Text: textAcme}
	if err := f.st.PutCorpus(ctx, f.corpus, append(f.docs, doc)); err != nil {
		t.Fatal(err)
	}
	res := buildResult(t, "inv-100", textAcme, pipeline.Record{"vendor_name": "ACME Supplies", "total": 99.0},
		map[string]string{"total": "check me"}, 0.2)
	if _, err := f.st.PutResult(ctx, f.corpus.ID, "inv-100", "mcp", res); err != nil {
		t.Fatal(err)
	}
	m = apply(t, m, pollMsg{})
	if _, ok := m.queue.Row("inv-100"); !ok {
		t.Fatal("the new result is not in the queue after a poll")
	}
	if after, _ := m.queue.Selected(); after != before {
		t.Fatalf("the cursor moved from %s to %s", before, after)
	}

	m = openDoc(t, m, "inv-002")
	if _, err := f.st.Decide(ctx, store.Decision{CorpusID: f.corpus.ID, DocID: "inv-002", Field: "invoice_date",
		Action: store.ActionAccept, Reviewer: "bob"}); err != nil {
		t.Fatal(err)
	}
	m = apply(t, m, pollMsg{})
	if !strings.Contains(m.status, "bob accepted invoice_date on inv-002") {
		t.Fatalf("status %q", m.status)
	}
	if m.doc.fieldStatus("invoice_date") != "accepted" {
		t.Errorf("open document shows %q for bob's decision", m.doc.fieldStatus("invoice_date"))
	}
	if row, _ := m.queue.Row("inv-002"); !row.Reviewed {
		t.Errorf("row %+v", row)
	}
	// Nothing new: a poll changes nothing.
	seq := m.changeSeq
	m = apply(t, m, pollMsg{})
	if m.changeSeq != seq {
		t.Errorf("an idle poll moved the sequence %d -> %d", seq, m.changeSeq)
	}
}
