package policy

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func loadTestPack(t *testing.T, src string) *Pack {
	t.Helper()
	p, err := LoadPack("ops.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestPackAddReplaceDisable(t *testing.T) {
	p := loadTestPack(t, `
rules:
  # replace R2 by its short name: broad deletes in production are denied outright
  - id: reeflex.policy/irreversible_broad_prod
    name: R2
    priority: 400
    verdict: deny
    reason: no broad deletes in production
    when:
      all:
        - {field: axes.reversibility, eq: irreversible}
        - {field: axes.blast_radius, eq: broad}
        - {field: target.environment, eq: production}
  - id: acme/payments_need_a_human
    priority: 350
    verdict: require_approval
    reason: payments over 100 need a human
    when:
      all:
        - {field: action.verb, eq: transact}
        - {field: params.amount, gt: 100}
disable: [R1]
`)
	h := newHarness(t, func(o *Options) { o.Pack = p })
	d := h.expect(bulkDelete.json(), Deny, rR2)
	if d.Reason != "no broad deletes in production" {
		t.Fatal(d.Reason)
	}
	h.expect(readInternal.json(), Allow, rR4) // R1 disabled: R4 answers
	h.expect(envSpec{verb: "pay", rev: "recoverable", blast: "single", ext: "outbound", params: `{"amount":150,"currency":"EUR"}`}.json(), RequireApproval, "acme/payments_need_a_human")
	h.expect(envSpec{verb: "pay", rev: "recoverable", blast: "single", ext: "outbound", params: `{"amount":50,"currency":"EUR"}`}.json(), Allow, rR4)
	// R0 reuses R2 and still sees the replaced rule's condition.
	h.expect(with(bulkDelete, func(s *envSpec) { s.rev = "" }).json(), RequireApproval, rR0)
}

func TestPackBudgets(t *testing.T) {
	p := loadTestPack(t, `
budgets:
  default_budgets:
    deletions: {limit: 3}
    money: {limits: {EUR: 100}}
  principal_budgets:
    ci-bot: {deletions: {limit: 1}}
`)
	h := newHarness(t, func(o *Options) { o.Pack = p })
	for range 3 {
		h.expect(deleteOne.json(), Allow, rR4)
	}
	h.expect(deleteOne.json(), RequireApproval, rDel)
	ci := with(deleteOne, func(s *envSpec) { s.session = "ci-bot" })
	h.expect(ci.json(), Allow, rR4)
	h.expect(ci.json(), RequireApproval, rDel)
	pay := envSpec{session: "payer", verb: "pay", rev: "recoverable", blast: "single", ext: "outbound", params: `{"amount":101,"currency":"EUR"}`}
	h.expect(pay.json(), RequireApproval, rBudg)
	pay.params = `{"amount":5400,"currency":"USD"}` // USD keeps its default 5500
	pay.session = "payer2"
	h.expect(pay.json(), Allow, rR4)
	// --budgets on top of the pack (the reference's JSON shape).
	b, err := ParseBudgets([]byte(`{"default_budgets":{"deletions":{"limit":5}},"principal_budgets":{}}`))
	if err != nil {
		t.Fatal(err)
	}
	h2 := newHarness(t, func(o *Options) { o.Pack = p; o.Budgets = &b })
	for range 5 {
		h2.expect(deleteOne.json(), Allow, rR4)
	}
	h2.expect(deleteOne.json(), RequireApproval, rDel)
	if _, err := ParseBudgets([]byte(`{"default_budgets":{"deletes":{"limit":5}}}`)); err == nil || !strings.Contains(err.Error(), "unknown budget dimension") {
		t.Fatal(err)
	}
	if _, err := ParseBudgets([]byte(`{"default_budget":{}}`)); err == nil {
		t.Fatal("unknown key accepted")
	}
}

func TestWhenTree(t *testing.T) {
	p := loadTestPack(t, `
base: false
rules:
  - id: t/not_and_in
    priority: 10
    verdict: deny
    reason: not staging, verb in create/update
    when:
      all:
        - not: {field: target.environment, eq: staging}
        - {field: action.verb, in: [create, update]}
  - id: t/tool_glob
    priority: 20
    verdict: require_approval
    reason: merges
    when: {tool: "github__merge_*"}
  - id: t/args
    priority: 30
    verdict: deny
    reason: touches /etc
    when:
      any:
        - {field: params.arguments.path, contains_any: ["/etc/"]}
        - {field: params.arguments.paths, contains_any: ["/etc/passwd"]}
  - id: t/count
    priority: 40
    verdict: require_approval
    reason: big batch
    when: {field: magnitude.count, gt: 10}
  - id: t/reuse
    priority: 5
    verdict: deny
    reason: reuses t/count negated
    when:
      all:
        - not: {rule: t/count}
        - {field: agent.id, eq: "agent:x"}
  - id: t/night
    priority: 50
    verdict: deny
    reason: no writes at night in Berlin
    when:
      all:
        - {field: action.verb, in: [delete, update, create]}
        - time: {zone: Europe/Berlin, from: "22:00", to: "06:00"}
  - id: t/weekend
    priority: 60
    verdict: deny
    reason: no deploys on a Tokyo weekend
    when:
      all:
        - {field: action.verb, eq: execute}
        - time: {zone: Asia/Tokyo, from: "00:00", to: "24:00", days: [sat, sun]}
  - id: t/cumulative
    priority: 70
    verdict: require_approval
    reason: third send
    when: {field: cumulative.count_by_externality.outbound, gt: 1}
  - id: t/fallback
    priority: 0
    verdict: allow
    reason: ok
`)
	mcp := func(tool, args string) string {
		return `{"agent":{"session_id":"m"},"action":{"verb":"read"},"target":{"environment":"staging","kind":"` + tool + `"},
			"params":{"upstream":"github","tool_name":"` + tool + `","arguments":` + args + `},"axes":{"externality":"internal"}}`
	}
	// 2026-12-01 10:00 UTC is a Tuesday, 11:00 in Berlin.
	cases := []struct {
		name, env, rule string
		at              time.Time
	}{
		{"in + not", envSpec{verb: "create", environment: "prod"}.json(), "t/not_and_in", t0},
		{"not excludes", envSpec{verb: "create", environment: "staging"}.json(), "t/fallback", t0},
		{"upstream__tool glob", mcp("merge_pull_request", `{}`), "t/tool_glob", t0},
		{"bare tool does not match", mcp("list_prs", `{}`), "t/fallback", t0},
		{"params path string", mcp("read_file", `{"path":"/etc/shadow"}`), "t/args", t0},
		{"params path list", mcp("read_files", `{"paths":["/tmp/a","/etc/passwd"]}`), "t/args", t0},
		{"gt on count", envSpec{verb: "read", environment: "staging", count: 11}.json(), "t/count", t0},
		{"reuse negated", envSpec{verb: "read", environment: "staging", agent: "agent:x"}.json(), "t/reuse", t0},
		{"night window wraps midnight", envSpec{verb: "delete", environment: "staging"}.json(), "t/night", time.Date(2026, 12, 1, 22, 30, 0, 0, time.UTC)},
		{"early morning", envSpec{verb: "delete", environment: "staging"}.json(), "t/night", time.Date(2026, 12, 2, 4, 59, 0, 0, time.UTC)},
		{"day time", envSpec{verb: "delete", environment: "staging"}.json(), "t/fallback", time.Date(2026, 12, 2, 5, 0, 0, 0, time.UTC)},
		{"Tokyo saturday starts friday 15:00 UTC", envSpec{verb: "deploy", environment: "staging"}.json(), "t/weekend", time.Date(2026, 12, 4, 15, 0, 0, 0, time.UTC)},
		{"Tokyo friday", envSpec{verb: "deploy", environment: "staging"}.json(), "t/fallback", time.Date(2026, 12, 4, 14, 59, 0, 0, time.UTC)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, func(o *Options) { o.Pack = p })
			h.now = c.at
			if d := h.decide(c.env); d.Rule != c.rule {
				t.Fatalf("rule %s, want %s", d.Rule, c.rule)
			}
		})
	}
	h := newHarness(t, func(o *Options) { o.Pack = p })
	send := envSpec{verb: "send", environment: "staging", ext: "outbound"}.json()
	h.expect(send, Allow, "t/fallback")
	h.expect(send, Allow, "t/fallback")
	h.expect(send, RequireApproval, "t/cumulative")
}

func TestPackLoadErrors(t *testing.T) {
	rule := func(body string) string {
		return "rules:\n  - id: a/b\n    priority: 1\n    verdict: deny\n    reason: r\n" + body
	}
	cases := []struct{ name, src, want string }{
		{"unknown top field", "rulez: []\n", `ops.yaml:1: unknown field "rulez" in the pack`},
		{"unknown rule field", rule("    prio: 2\n"), `ops.yaml:6: unknown field "prio" in a rule`},
		{"missing priority", "rules:\n  - id: a/b\n    verdict: deny\n    reason: r\n", "ops.yaml:2: rule a/b is missing priority"},
		{"priority string", "rules:\n  - id: a/b\n    priority: high\n    verdict: deny\n    reason: r\n", `ops.yaml:3: priority must be an integer, got "high"`},
		{"unknown verdict", "rules:\n  - id: a/b\n    priority: 1\n    verdict: block\n    reason: r\n", `ops.yaml:4: unknown verdict "block"`},
		{"unknown operator", rule("    when: {field: action.verb, equals: read}\n"), `ops.yaml:6: unknown field "equals" in a condition`},
		{"no operator", rule("    when: {field: action.verb}\n"), "ops.yaml:6: field action.verb needs a comparison"},
		{"two operators", rule("    when: {field: action.verb, eq: read, in: [read]}\n"), "ops.yaml:6: field action.verb has more than one comparison"},
		{"unknown field path", rule("    when: {field: actor.id, eq: x}\n"), `ops.yaml:6: unknown field "actor.id"`},
		{"misspelt sub-field", rule("    when: {field: action.bogus, eq: execute}\n"), `ops.yaml:6: unknown field "action.bogus" (action has only verb, namespace, ability)`},
		{"misspelt arguments", rule("    when: {field: params.argumnts.branch, in: [main]}\n"), `ops.yaml:6: unknown field "params.argumnts.branch" (params has only`},
		{"below a scalar", rule("    when: {field: action.verb.name, eq: x}\n"), `ops.yaml:6: unknown field "action.verb.name" (action.verb has no sub-fields)`},
		{"an object compared whole", rule("    when: {field: axes, eq: x}\n"), `ops.yaml:6: unknown field "axes" (axes is an object`},
		{"under a leaf root", rule("    when: {field: trajectory_ref.id, eq: x}\n"), `ops.yaml:6: unknown field "trajectory_ref.id" (trajectory_ref has no sub-fields)`},
		{"cumulative verb", rule("    when: {field: cumulative.count_by_verb.remove, gt: 3}\n"), `cumulative.count_by_verb is keyed by a verb`},
		{"cumulative currency", rule("    when: {field: cumulative.amount_by_currency.euro, gt: 3}\n"), `keyed by a three-letter upper-case currency`},
		{"unknown enum value", rule("    when: {field: action.verb, eq: remove}\n"), `ops.yaml:6: unknown value "remove" for action.verb`},
		{"unknown env value", rule("    when:\n      field: target.environment\n      in: [production, prod]\n"), `ops.yaml:8: unknown value "prod" for target.environment`},
		{"gt with a string", rule("    when: {field: magnitude.count, gt: many}\n"), `ops.yaml:6: gt needs a number, got "many"`},
		{"count compared to a string", rule("    when: {field: magnitude.count, eq: \"3\"}\n"), "ops.yaml:6: magnitude.count is an integer"},
		{"in needs a list", rule("    when: {field: action.verb, in: read}\n"), "ops.yaml:6: in needs a list"},
		{"bool field", rule("    when: {field: approval.present, eq: yes please}\n"), "ops.yaml:6: approval.present is true or false"},
		{"unknown zone", rule("    when:\n      time: {zone: Mars/Olympus, from: \"09:00\", to: \"17:00\"}\n"), `ops.yaml:7: unknown time zone "Mars/Olympus"`},
		{"bad time", rule("    when:\n      time: {zone: UTC, from: \"9am\", to: \"17:00\"}\n"), `ops.yaml:7: from must be HH:MM, got "9am"`},
		{"bad day", rule("    when:\n      time: {zone: UTC, from: \"09:00\", to: \"17:00\", days: [monday]}\n"), `ops.yaml:7: unknown day "monday"`},
		{"unknown reuse", rule("    when: {rule: nope}\n"), `ops.yaml:6: rule "nope": no such rule to reuse`},
		{"bad glob", rule("    when: {tool: \"[\"}\n"), `ops.yaml:6: tool "[" is not a valid glob`},
		{"unknown budget", rule("    when: {budget: spending}\n"), `ops.yaml:6: unknown budget "spending"`},
		{"two kinds", rule("    when: {tool: x, budget: exceeded}\n"), "ops.yaml:6: a condition needs exactly one of"},
		{"disable unknown", "disable: [R9]\n", `ops.yaml:1: disable: no rule "R9"`},
		{"budget dimension", "budgets:\n  default_budgets:\n    deletes: {limit: 3}\n", `ops.yaml:3: unknown field "deletes"`},
		{"budget type", "budgets:\n  default_budgets:\n    deletions: {limit: lots}\n", `ops.yaml:3: default_budgets.deletions.limit must be a number, got "lots"`},
		{"currency code", "budgets:\n  default_budgets:\n    money: {limits: {euro: 3}}\n", `ops.yaml:3: "euro" is not a three-letter`},
		{"undeclared value", rule("    when: {field: provenance.undeclared, contains_any: [axes.colour]}\n"), "ops.yaml:6: provenance.undeclared never lists axes.colour"},
		{"yaml syntax", "rules: [\n", "ops.yaml:"},
		{"cycle", "rules:\n  - {id: a/x, priority: 1, verdict: deny, reason: r, when: {rule: a/y}}\n  - {id: a/y, priority: 1, verdict: deny, reason: r, when: {rule: a/x}}\n", "reuses itself (a cycle)"},
		{"example verdict", "examples:\n  - envelope: {}\n    expect: {decision: block}\n", `ops.yaml:3: unknown decision "block"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := LoadPack("ops.yaml", []byte(c.src))
			var pe *PackError
			if err == nil || !errors.As(err, &pe) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want %q", err, c.want)
			}
		})
	}
}

// Every field a rule can read loads, down to a tool's own argument names
// below params.arguments, which no pack can know in advance.
func TestPackKnownFieldsLoad(t *testing.T) {
	for _, f := range []string{"agent.id", "agent.on_behalf_of", "agent.session_id", "action.verb", "action.namespace", "action.ability",
		"target.environment", "target.kind", "target.ref", "target.system", "params.amount", "params.currency", "params.upstream",
		"params.tool_name", "params.arguments.branch", "params.arguments.options.force", "magnitude.count", "axes.reversibility",
		"axes.blast_radius", "axes.externality", "approval.present", "approval.hold_id", "approval.parent_decision_id",
		"context.classification_source", "context.traceparent", "meta.nonce", "reeflex_version", "trajectory_ref",
		"cumulative.total_count", "cumulative.count_by_verb.delete", "cumulative.count_by_externality.outbound",
		"cumulative.count_by_ability.github/merge_pull_request", "cumulative.amount_by_currency.EUR"} {
		op := "eq: x"
		switch f {
		case "action.verb":
			op = "eq: read"
		case "target.environment":
			op = "eq: dev"
		case "axes.reversibility":
			op = "eq: reversible"
		case "axes.blast_radius":
			op = "eq: single"
		case "axes.externality":
			op = "eq: internal"
		case "approval.present":
			op = "eq: true"
		case "params.currency":
			op = "eq: EUR"
		case "magnitude.count", "params.amount", "cumulative.total_count", "cumulative.count_by_verb.delete",
			"cumulative.count_by_externality.outbound", "cumulative.count_by_ability.github/merge_pull_request", "cumulative.amount_by_currency.EUR":
			op = "gt: 3"
		}
		src := "rules:\n  - {id: a/b, priority: 1, verdict: deny, reason: r, when: {field: " + f + ", " + op + "}}\n"
		if _, err := LoadPack("ops.yaml", []byte(src)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}

func TestPackJSONAndExamples(t *testing.T) {
	p, err := LoadPack("ops.json", []byte(`{
  "rules": [{"id": "acme/no_emails", "priority": 450, "verdict": "deny", "reason": "no email",
             "when": {"field": "action.verb", "eq": "emit"}}],
  "examples": [
    {"name": "email denied", "envelope": {"agent": {"session_id": "s"}, "action": {"verb": "email"}, "target": {"environment": "dev"}},
     "expect": {"decision": "deny", "rule": "acme/no_emails"}},
    {"name": "wrong on purpose", "envelope": {"agent": {"session_id": "s"}, "action": {"verb": "read"}, "target": {"environment": "dev"}, "axes": {"externality": "internal"}},
     "expect": {"decision": "deny"}}
  ]
}`))
	if err != nil {
		t.Fatal(err)
	}
	res := RunExamples(t.Context(), p)
	if len(res) != 2 || !res[0].Pass || res[1].Pass || res[1].Got.Rule != rR1 || res[1].Source != "ops.json:7" {
		t.Fatalf("%+v", res)
	}
	if _, err := LoadPack("bad.json", []byte(`{"rules": [{"id": "x", "priority": 1, "verdict": "deny",
  "reason": "r", "when": {"field": "axes.blast_radius", "eq": "huge"}}]}`)); err == nil || !strings.HasPrefix(err.Error(), "bad.json:2:") {
		t.Fatalf("JSON pack error: %v", err)
	}
}

func TestBasePackIsTheSpec(t *testing.T) {
	p, err := BasePack()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range p.Rules() {
		got = append(got, r.Name)
	}
	if strings.Join(got, ">") != "R0>R3>R2>R5>R1>R4" {
		t.Fatalf("precedence %v", got)
	}
	b := p.Budgets()
	if *b.Default["deletions"].Limit != 20 || *b.Default["external_sends"].Limit != 50 || *b.Default["objects_touched"].Limit != 200 ||
		b.Default["money"].Limits["JPY"] != 800000 || *b.Default["money"].Limit != 5000 {
		t.Fatalf("budgets %+v", b)
	}
}
