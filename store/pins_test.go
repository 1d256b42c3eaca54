package store

import (
	"context"
	"path/filepath"
	"testing"
)

func TestPinsAcrossOpens(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "r.db")
	st, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, first, err := st.Pin(ctx, "fs__write_file", "h1"); err != nil || !first {
		t.Fatalf("first sight: %v %v", first, err)
	}
	if rec, first, err := st.Pin(ctx, "fs__write_file", "h1"); err != nil || first || rec.Seen != "" {
		t.Fatalf("same: %+v %v %v", rec, first, err)
	}
	// Another process sees the change: the pin stays, the change is recorded.
	st2, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	rec, _, err := st2.Pin(ctx, "fs__write_file", "h2")
	if err != nil || rec.Hash != "h1" || rec.Seen != "h2" {
		t.Fatalf("changed: %+v %v", rec, err)
	}
	if _, err := st.AcceptPin(ctx, "fs__write_file", "h3", "ana"); err == nil {
		t.Fatal("accepted a definition nobody saw")
	}
	if rec, err := st.AcceptPin(ctx, "fs__write_file", "", "ana"); err != nil || rec.Hash != "h2" || rec.Seen != "" || rec.AcceptedBy != "ana" {
		t.Fatalf("accept: %+v %v", rec, err)
	}
	if rec, _, _ := st2.Pin(ctx, "fs__write_file", "h2"); rec.Seen != "" || rec.Hash != "h2" {
		t.Fatalf("after accept: %+v", rec)
	}
	if _, err := st.AcceptPin(ctx, "nope__x", "", "ana"); err == nil {
		t.Fatal("accepted an unknown tool")
	}
	pins, err := st.Pins(ctx)
	if err != nil || len(pins) != 1 {
		t.Fatalf("pins %v %v", pins, err)
	}
}

func TestGatewayHoldsSurviveReopen(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "r.db")
	st, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok, err := st.GatewayHold(ctx, "k"); ok || err != nil {
		t.Fatalf("empty store: %v %v", ok, err)
	}
	if err := st.PutGatewayHold(ctx, "k", []byte(`{"hold_id":"h"}`)); err != nil {
		t.Fatal(err)
	}
	st2, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if v, ok, err := st2.GatewayHold(ctx, "k"); !ok || err != nil || string(v) != `{"hold_id":"h"}` {
		t.Fatalf("reopened: %s %v %v", v, ok, err)
	}
	if err := st2.DeleteGatewayHold(ctx, "k"); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := st.GatewayHold(ctx, "k"); ok {
		t.Fatal("deleted hold still there")
	}
}
