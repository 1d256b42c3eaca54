package policy

import "context"

// Backend is the narrow seam for another rule evaluator (OPA for operators
// who bring Rego): it gets what the reference's OPA gets, the normalized
// envelope with `cumulative` and approval.present forced false, and answers
// a verdict. An error, an unknown decision or an empty rule fails closed.
type Backend interface {
	Evaluate(ctx context.Context, input Envelope) (Verdict, error)
}

// Verdict is a backend's answer.
type Verdict struct {
	Decision    string
	Rule        string
	Reason      string
	Obligations []string
}

func validVerdict(v string) bool { return v == Allow || v == Deny || v == RequireApproval }

func (e *Engine) backendInput(f *facts, c *Cumulative) Envelope {
	in := f.normalized()
	in["cumulative"] = c.Object()
	ap := in["approval"].(map[string]any)
	ap["present"] = false
	return in
}
