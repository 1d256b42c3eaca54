package policy

import (
	"fmt"
	"slices"
	"strings"
)

// A pack's field paths are checked against the envelope a rule can read,
// so a misspelt sub-field (action.bogus, params.argumnts.branch) is refused
// at load rather than loading as a rule that never matches. What is known
// comes from the spec: the envelope's fields (§1.1), those the gateway
// sets (§5.3: params.upstream/tool_name/arguments, context.gateway/
// upstream/classification_source) and the ledger's cumulative view (§3.4).
// Only what lies below params.arguments is open: those are a tool's own
// argument names, which no pack can know at load. params and context are
// free-form on the wire, but nothing in reflect sets other keys there, so
// a rule on one would never match either.

// fieldSubs are each root's known sub-fields; a root not listed takes none.
var fieldSubs = map[string][]string{
	"agent":      {"id", "on_behalf_of", "session_id"},
	"action":     {"verb", "namespace", "ability"},
	"target":     {"environment", "kind", "ref", "system"},
	"params":     {"amount", "currency", "upstream", "tool_name", "arguments"},
	"magnitude":  {"count"},
	"axes":       {"reversibility", "blast_radius", "externality"},
	"approval":   {"present", "hold_id", "parent_decision_id"},
	"context":    {"gateway", "upstream", "classification_source", "traceparent", "mode"},
	"meta":       {"timestamp", "nonce", "signature"},
	"provenance": {"undeclared"},
	"cumulative": {"window_seconds", "total_count", "count_by_verb", "count_by_ability", "count_by_externality", "amount_by_currency"},
}

// checkFieldPath returns why parts is not a field a rule can read, or nil.
func checkFieldPath(parts []string) error {
	root := parts[0]
	subs, hasSubs := fieldSubs[root]
	switch {
	case !slices.Contains(fieldRoots, root) || slices.Contains(parts, ""):
		return fmt.Errorf("paths start with one of %s", strings.Join(fieldRoots, ", "))
	case !hasSubs:
		if len(parts) > 1 {
			return fmt.Errorf("%s has no sub-fields", root)
		}
		return nil
	case len(parts) == 1:
		return fmt.Errorf("%s is an object: name one of its fields, %s", root, strings.Join(subs, ", "))
	case !slices.Contains(subs, parts[1]):
		return fmt.Errorf("%s has only %s", root, strings.Join(subs, ", "))
	}
	sub := root + "." + parts[1]
	switch sub {
	case "params.arguments":
		return nil // the tool's own arguments, at any depth
	case "cumulative.count_by_verb":
		return keyedBy(parts, sub, "a verb", Verbs)
	case "cumulative.count_by_externality":
		return keyedBy(parts, sub, "an externality", externalities)
	case "cumulative.count_by_ability":
		return keyedBy(parts, sub, "an ability", nil)
	case "cumulative.amount_by_currency":
		if err := keyedBy(parts, sub, "a currency", nil); err != nil {
			return err
		}
		if c := parts[2]; canonCurrency(c) != c {
			return fmt.Errorf("%s is keyed by a three-letter upper-case currency, not %q", sub, c)
		}
		return nil
	}
	if len(parts) > 2 {
		return fmt.Errorf("%s has no sub-fields", sub)
	}
	return nil
}

// keyedBy checks a cumulative count read as sub.KEY: one key, from values
// when they are known.
func keyedBy(parts []string, sub, what string, values []string) error {
	if len(parts) != 3 {
		return fmt.Errorf("%s is read as %s.KEY, KEY %s", sub, sub, what)
	}
	if values != nil && !slices.Contains(values, parts[2]) {
		return fmt.Errorf("%s is keyed by %s: one of %s", sub, what, strings.Join(values, ", "))
	}
	return nil
}
