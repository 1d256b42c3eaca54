package policy

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

type harness struct {
	t     testing.TB
	e     *Engine
	mu    sync.Mutex
	now   time.Time
	env   map[string]string
	state State
	audit *MemAudit
}

var t0 = time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)

func newHarness(t testing.TB, mod func(*Options)) *harness {
	t.Helper()
	h := &harness{t: t, now: t0, env: map[string]string{}, audit: &MemAudit{}}
	o := Options{
		Audit:  h.audit,
		Now:    func() time.Time { h.mu.Lock(); defer h.mu.Unlock(); return h.now },
		Getenv: func(k string) string { h.mu.Lock(); defer h.mu.Unlock(); return h.env[k] },
	}
	if mod != nil {
		mod(&o)
	}
	e, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	h.e, h.state = e, e.State()
	return h
}

func (h *harness) advance(d time.Duration) { h.mu.Lock(); h.now = h.now.Add(d); h.mu.Unlock() }
func (h *harness) setenv(k, v string)      { h.mu.Lock(); h.env[k] = v; h.mu.Unlock() }

func (h *harness) decideErr(js string) (Decision, error) {
	h.t.Helper()
	var env Envelope
	if js != "null" {
		env = decode(h.t, js)
	}
	return h.e.Decide(context.Background(), env)
}

func (h *harness) decide(js string) Decision {
	h.t.Helper()
	d, err := h.decideErr(js)
	if err != nil {
		h.t.Fatalf("Decide(%s): %v", js, err)
	}
	return d
}

func (h *harness) expect(js, decision, rule string) Decision {
	h.t.Helper()
	d := h.decide(js)
	if d.Decision != decision || d.Rule != rule {
		h.t.Fatalf("Decide(%s) = %s %s (%s), want %s %s", js, d.Decision, d.Rule, d.Reason, decision, rule)
	}
	return d
}

func (h *harness) approve(holdID, who string) Hold {
	h.t.Helper()
	hd, err := h.e.Resolve(context.Background(), holdID, Resolution{Decision: "approve", Principal: Principal{Type: "human", ID: who, Source: "local"}})
	if err != nil {
		h.t.Fatalf("approve %s: %v", holdID, err)
	}
	return hd
}

// env builds an envelope JSON from a few knobs.
type envSpec struct {
	session, agent, verb, ability, environment string
	rev, blast, ext                            string
	count                                      int
	params, approval, extra                    string
}

func (s envSpec) json() string {
	if s.session == "" {
		s.session = "s1"
	}
	if s.environment == "" {
		s.environment = "production"
	}
	if s.verb == "" {
		s.verb = "read"
	}
	var b strings.Builder
	fmt.Fprintf(&b, `{"agent":{"session_id":%q`, s.session)
	if s.agent != "" {
		fmt.Fprintf(&b, `,"id":%q`, s.agent)
	}
	fmt.Fprintf(&b, `},"action":{"verb":%q`, s.verb)
	if s.ability != "" {
		fmt.Fprintf(&b, `,"ability":%q`, s.ability)
	}
	fmt.Fprintf(&b, `},"target":{"environment":%q},"axes":{`, s.environment)
	var ax []string
	for _, kv := range [][2]string{{"reversibility", s.rev}, {"blast_radius", s.blast}, {"externality", s.ext}} {
		if kv[1] != "" {
			ax = append(ax, fmt.Sprintf("%q:%q", kv[0], kv[1]))
		}
	}
	b.WriteString(strings.Join(ax, ",") + "}")
	if s.count > 0 {
		fmt.Fprintf(&b, `,"magnitude":{"count":%d}`, s.count)
	}
	if s.params != "" {
		fmt.Fprintf(&b, `,"params":%s`, s.params)
	}
	if s.approval != "" {
		fmt.Fprintf(&b, `,"approval":%s`, s.approval)
	}
	if s.extra != "" {
		b.WriteString("," + s.extra)
	}
	b.WriteString("}")
	return b.String()
}

// Common envelopes.
var (
	readInternal = envSpec{verb: "read", rev: "reversible", blast: "single", ext: "internal"}
	deleteOne    = envSpec{verb: "delete", rev: "irreversible", blast: "single", ext: "internal"}
	bulkDelete   = envSpec{verb: "delete", rev: "irreversible", blast: "broad", ext: "internal", count: 5}
)

func with(s envSpec, f func(*envSpec)) envSpec { f(&s); return s }

func isEnvelopeErr(err error, detail string) bool {
	var ee *EnvelopeError
	return errors.As(err, &ee) && ee.Code == "invalid_envelope" && (detail == "" || ee.Detail == detail)
}
