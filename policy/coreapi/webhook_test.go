package coreapi

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reflect-mcp/reflect/policy"
)

func TestWebhookEvents(t *testing.T) {
	var mu sync.Mutex
	var got []string
	sink := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		got = append(got, string(b))
		mu.Unlock()
	}))
	defer sink.Close()
	wh := NewWebhook(sink.URL, 10, nil)
	now := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	vars := map[string]string{}
	e, err := policy.New(policy.Options{OnEvent: wh.Send, Now: func() time.Time { return now }, Getenv: func(k string) string { return vars[k] }})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	dec := func(body string) policy.Decision {
		d, err := e.Decide(ctx, decodeEnv(t, body))
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	d1 := dec(bulkEnv)
	d2 := dec(strings.Replace(bulkEnv, `"s1"`, `"s2"`, 1))
	if _, err := e.Resolve(ctx, d1.HoldID, policy.Resolution{Decision: "approve", Principal: policy.Principal{Type: "human", ID: "ana", Source: "local"}}); err != nil {
		t.Fatal(err)
	}
	now = now.Add(5 * time.Hour)
	e.Hold(ctx, d2.HoldID) // lazily expires
	vars["REEFLEX_FREEZE"] = "1"
	dec(readEnv)
	wh.Close()
	want := []string{
		`{"event":"hold.created","ts":"2026-12-01T10:00:00Z","hold_id":"` + d1.HoldID + `","rule_id":"reeflex.policy/irreversible_broad_prod","status":"pending","expires_ts":"2026-12-01T14:00:00Z"}`,
		`{"event":"hold.created","ts":"2026-12-01T10:00:00Z","hold_id":"` + d2.HoldID + `"`,
		`{"event":"hold.resolved","ts":"2026-12-01T10:00:00Z","hold_id":"` + d1.HoldID + `","rule_id":"reeflex.policy/irreversible_broad_prod","status":"approved","decided_by":"human:ana","decided_by_verified":true,"principal_source":"local"}`,
		`{"event":"hold.expired","ts":"2026-12-01T15:00:00Z","hold_id":"` + d2.HoldID + `","rule_id":"reeflex.policy/irreversible_broad_prod","status":"expired","expired_ts":"2026-12-01T14:00:00Z","observed_ts":"2026-12-01T15:00:00Z"}`,
		`{"event":"freeze.flipped","ts":"2026-12-01T15:00:00Z","freeze_on":true}`,
	}
	mu.Lock()
	defer mu.Unlock()
	if len(got) != len(want) {
		t.Fatalf("%d events: %v", len(got), got)
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("event %d\n got %s\nwant %s", i, got[i], want[i])
		}
	}
	wh.Send(policy.Event{Name: "late"}) // after Close: ignored, no panic
}

func TestWebhookDropsWhenFull(t *testing.T) {
	block := make(chan struct{})
	sink := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-block }))
	defer sink.Close()
	wh := NewWebhook(sink.URL, 2, nil)
	for range 10 {
		wh.Send(policy.Event{Name: "hold.created"})
	}
	if wh.Dropped() < 7 {
		t.Fatalf("dropped %d of 10 with a queue of 2", wh.Dropped())
	}
	close(block)
	wh.Close()
}

func decodeEnv(t *testing.T, s string) policy.Envelope {
	t.Helper()
	v, err := decodeStrict([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return v.(map[string]any)
}
