package tui

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

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

// The poll waits off the Update path, one stat of the store file per
// interval, and wakes Update only when the file changed: a write by
// another process wakes it, and its reading shows the change. A quiet wake
// (pollQuiet passed with the file as it was) reads nothing.
func TestPollWakesOnlyWhenTheStoreChanged(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	m := loaded(t, f.config())
	// As if the last commit were a minute old, so the stamp vouches for it.
	old := time.Now().Add(-time.Minute)
	if err := os.Chtimes(f.st.Path(), old, old); err != nil {
		t.Fatal(err)
	}
	stamp, err := f.st.Stamp()
	if err != nil {
		t.Fatal(err)
	}
	m.pollStamp = stamp
	m.svc.poll = time.Millisecond
	wait := m.pollLoop()
	m.svc.poll = 0 // the reading's own pollLoop is not run here
	woke := make(chan tea.Msg, 1)
	go func() { woke <- wait() }()

	other, err := store.Open(f.st.Path(), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := other.SetPresence(ctx, f.corpus.ID, "bob", "inv-002", time.Now()); err != nil {
		t.Fatal(err)
	}
	var msg tea.Msg
	select {
	case msg = <-woke:
	case <-time.After(30 * time.Second):
		t.Fatal("the poll did not wake after another process wrote the store")
	}
	if msg != (pollMsg{}) {
		t.Fatalf("woke with %#v, want a poll that reads", msg)
	}
	m = apply(t, m, msg)
	if !strings.Contains(rowLine(t, m, "inv-002"), "open by bob") {
		t.Fatal("the reading after the wake does not show bob on inv-002")
	}

	// Eve's write comes after the loop's last stat: a quiet wake leaves it
	// for the next poll that reads.
	if err := other.SetPresence(ctx, f.corpus.ID, "eve", "inv-001", time.Now()); err != nil {
		t.Fatal(err)
	}
	m = apply(t, m, pollMsg{Quiet: true})
	if strings.Contains(rowLine(t, m, "inv-001"), "open by eve") {
		t.Fatal("a quiet wake read the store")
	}
	m = apply(t, m, pollMsg{})
	if !strings.Contains(rowLine(t, m, "inv-001"), "open by eve") {
		t.Fatal("the next poll did not read eve's presence")
	}
}
