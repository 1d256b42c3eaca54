package policy

import (
	"context"
	"errors"
	"testing"
)

type fakeBackend struct {
	v     Verdict
	err   error
	input Envelope
}

func (b *fakeBackend) Evaluate(_ context.Context, in Envelope) (Verdict, error) {
	b.input = in
	return b.v, b.err
}

func TestBackendSeam(t *testing.T) {
	b := &fakeBackend{v: Verdict{Decision: RequireApproval, Rule: "rego/custom", Reason: "from rego", Obligations: []string{"audit:full"}}}
	h := newHarness(t, func(o *Options) { o.Backend = b })
	h.decide(readInternal.json())
	d := h.decide(with(readInternal, func(s *envSpec) { s.approval = `{"present":false}` }).json())
	if d.Rule != "rego/custom" || d.HoldID == "" || len(d.Obligations) != 1 {
		t.Fatalf("%+v", d)
	}
	cum := b.input["cumulative"].(map[string]any)
	if cum["total_count"] != int64(1) || b.input["approval"].(map[string]any)["present"] != false {
		t.Fatalf("backend input: %v", b.input)
	}
	// The hold it created is the engine's: approve and resubmit as usual.
	h.approve(d.HoldID, "ana")
	h.expect(resub(readInternal, d.HoldID), Allow, RuleApproved)
	for _, bad := range []*fakeBackend{{err: errors.New("opa down")}, {v: Verdict{Decision: "maybe", Rule: "x"}}, {v: Verdict{Decision: Allow}}} {
		h := newHarness(t, func(o *Options) { o.Backend = bad })
		d, err := h.decideErr(readInternal.json())
		if !errors.Is(err, ErrFailClosed) || d.Rule != RuleFailClosed {
			t.Errorf("%+v: %+v %v", bad, d, err)
		}
	}
}

func TestNonceMustBeAString(t *testing.T) {
	h := newHarness(t, nil)
	for _, n := range []string{`1`, `1.0`, `true`, `{}`} {
		if _, err := h.decideErr(with(readInternal, func(s *envSpec) { s.extra = `"meta":{"nonce":` + n + `}` }).json()); !isEnvelopeErr(err, "meta.nonce must be a string") {
			t.Errorf("nonce %s: %v", n, err)
		}
	}
	h.decide(with(readInternal, func(s *envSpec) { s.extra = `"meta":{"nonce":null}` }).json())
}
