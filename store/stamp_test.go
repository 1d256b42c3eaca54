package store_test

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"reflect"
	"testing"
	"time"

	"github.com/reflect-mcp/reflect/store"
)

// TestStampSeesEveryCommit: the live poll opens the store only when its
// stamp changed, so every commit, from any handle, must change it; a stamp
// taken right after a write vouches for nothing (a second write in the same
// clock tick could leave the file's time and size as they were), and the
// zero Stamp matches nothing.
func TestStampSeesEveryCommit(t *testing.T) {
	ctx := context.Background()
	s := populated(t, 3)
	stamp := func() store.Stamp {
		t.Helper()
		st, err := s.Stamp()
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	// As if the last commit were a minute old.
	old := time.Now().Add(-time.Minute)
	if err := os.Chtimes(s.Path(), old, old); err != nil {
		t.Fatal(err)
	}
	before := stamp()
	if !stamp().Unchanged(before) {
		t.Fatal("a file nobody wrote reads as changed")
	}
	if stamp().Unchanged(store.Stamp{}) || (store.Stamp{}).Unchanged(before) {
		t.Fatal("the zero Stamp matched a real one")
	}
	// A read changes nothing.
	if _, err := s.PresenceIn(ctx, "c", time.Now()); err != nil {
		t.Fatal(err)
	}
	if !stamp().Unchanged(before) {
		t.Fatal("a read made the file look changed")
	}

	// A commit through another handle, as another process would make it.
	other, err := store.Open(s.Path(), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := other.SetPresence(ctx, "c", "bob", "doc-000001", time.Now()); err != nil {
		t.Fatal(err)
	}
	after := stamp()
	if after.Unchanged(before) {
		t.Fatal("a commit left the stamp as it was")
	}
	if stamp().Unchanged(after) {
		t.Fatal("a stamp taken just after a write vouched for the file")
	}
}

// TestStampOfMissingFile: a removed store is an error the poll reports,
// not a stamp that matches.
func TestStampOfMissingFile(t *testing.T) {
	s := populated(t, 1)
	if err := os.Remove(s.Path()); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Stamp(); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("stamp of a removed store: %v", err)
	}
}

// TestPollReadsWhatTheThreeReadsWould: one poll answers what ChangedSince,
// PresenceIn and the open document's Decisions answer, and reads the
// decisions only when the open document's row changed.
func TestPollReadsWhatTheThreeReadsWould(t *testing.T) {
	ctx := context.Background()
	s := populated(t, 3)
	now := time.Now()
	seq, err := s.ChangeSeq(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.SetPresence(ctx, "c", "bob", "doc-000001", now); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Decide(ctx, store.Decision{CorpusID: "c", DocID: "doc-000002", Field: "total", Action: store.ActionAccept, Reviewer: "ann"}); err != nil {
		t.Fatal(err)
	}
	rows, next, err := s.ChangedSince(ctx, "c", seq)
	if err != nil {
		t.Fatal(err)
	}
	ps, err := s.PresenceIn(ctx, "c", now)
	if err != nil {
		t.Fatal(err)
	}
	decs, err := s.Decisions(ctx, "c", "doc-000002")
	if err != nil {
		t.Fatal(err)
	}

	p, err := s.Poll(ctx, "c", seq, "doc-000002", now)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(p.Rows, rows) || p.Next != next || !reflect.DeepEqual(p.Presence, ps) {
		t.Fatalf("poll %+v, want rows %+v next %d presence %+v", p, rows, next, ps)
	}
	if len(p.Rows) != 1 || p.Rows[0].DocID != "doc-000002" {
		t.Fatalf("changed rows %+v, want doc-000002's", p.Rows)
	}
	if !p.DecisionsRead || !reflect.DeepEqual(p.Decisions, decs) {
		t.Fatalf("open document's decisions %v (read %v), want %v", p.Decisions, p.DecisionsRead, decs)
	}
	// doc-000001 is open but its row did not change: its decisions are not read.
	if p, err = s.Poll(ctx, "c", seq, "doc-000001", now); err != nil || p.DecisionsRead {
		t.Fatalf("poll with an unchanged open document: read %v, err %v", p.DecisionsRead, err)
	}
}
