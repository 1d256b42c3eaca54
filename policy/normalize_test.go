package policy

import (
	"slices"
	"strings"
	"testing"
)

func TestEnvelope400Classes(t *testing.T) {
	cases := []struct{ name, env, detail string }{
		{"not an object", `null`, "envelope must be a JSON object"},
		{"no action", `{"agent":{"session_id":"s"},"target":{"environment":"prod"}}`, "action must be an object"},
		{"action not object", `{"agent":{"session_id":"s"},"action":"delete","target":{"environment":"prod"}}`, "action must be an object"},
		{"no verb", `{"agent":{"session_id":"s"},"action":{},"target":{"environment":"prod"}}`, "action.verb must be a non-empty string"},
		{"empty verb", `{"agent":{"session_id":"s"},"action":{"verb":""},"target":{"environment":"prod"}}`, "action.verb must be a non-empty string"},
		{"verb number", `{"agent":{"session_id":"s"},"action":{"verb":3},"target":{"environment":"prod"}}`, "action.verb must be a non-empty string"},
		{"no target", `{"agent":{"session_id":"s"},"action":{"verb":"read"}}`, "target must be an object"},
		{"no environment", `{"agent":{"session_id":"s"},"action":{"verb":"read"},"target":{}}`, "target.environment must be a non-empty string"},
		{"environment list", `{"agent":{"session_id":"s"},"action":{"verb":"read"},"target":{"environment":["prod"]}}`, "target.environment must be a non-empty string"},
		{"axes string", `{"agent":{"session_id":"s"},"action":{"verb":"read"},"target":{"environment":"prod"},"axes":"x"}`, "axes must be an object when present"},
		{"axes list", `{"agent":{"session_id":"s"},"action":{"verb":"read"},"target":{"environment":"prod"},"axes":[]}`, "axes must be an object when present"},
		{"no agent", `{"action":{"verb":"read"},"target":{"environment":"prod"}}`, "agent must be an object"},
		{"no session", `{"agent":{},"action":{"verb":"read"},"target":{"environment":"prod"}}`, "agent.session_id must be a non-empty string"},
		{"blank session", `{"agent":{"session_id":" \u3000"},"action":{"verb":"read"},"target":{"environment":"prod"}}`, "agent.session_id must be a non-empty string"},
		{"session number", `{"agent":{"session_id":7},"action":{"verb":"read"},"target":{"environment":"prod"}}`, "agent.session_id must be a non-empty string"},
		{"magnitude string", `{"agent":{"session_id":"s"},"action":{"verb":"read"},"target":{"environment":"prod"},"magnitude":"3"}`, "magnitude must be an object when present"},
		{"count bool", `{"agent":{"session_id":"s"},"action":{"verb":"read"},"target":{"environment":"prod"},"magnitude":{"count":true}}`, "magnitude.count must be an integer >= 1"},
		{"count 2.0", `{"agent":{"session_id":"s"},"action":{"verb":"read"},"target":{"environment":"prod"},"magnitude":{"count":2.0}}`, "magnitude.count must be an integer >= 1"},
		{"count 1e2", `{"agent":{"session_id":"s"},"action":{"verb":"read"},"target":{"environment":"prod"},"magnitude":{"count":1e2}}`, "magnitude.count must be an integer >= 1"},
		{"count string", `{"agent":{"session_id":"s"},"action":{"verb":"read"},"target":{"environment":"prod"},"magnitude":{"count":"3"}}`, "magnitude.count must be an integer >= 1"},
		{"count 0", `{"agent":{"session_id":"s"},"action":{"verb":"read"},"target":{"environment":"prod"},"magnitude":{"count":0}}`, "magnitude.count must be an integer >= 1"},
		{"count negative huge", `{"agent":{"session_id":"s"},"action":{"verb":"read"},"target":{"environment":"prod"},"magnitude":{"count":-99999999999999999999}}`, "magnitude.count must be an integer >= 1"},
		{"amount infinite", `{"agent":{"session_id":"s"},"action":{"verb":"pay"},"target":{"environment":"prod"},"params":{"amount":1e400}}`, "params.amount must be a finite number"},
		{"amount huge int", `{"agent":{"session_id":"s"},"action":{"verb":"pay"},"target":{"environment":"prod"},"params":{"amount":1` + strings.Repeat("0", 400) + `}}`, "params.amount is too large"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, nil)
			_, err := h.decideErr(c.env)
			if !isEnvelopeErr(err, c.detail) {
				t.Fatalf("err = %v, want invalid_envelope %q", err, c.detail)
			}
		})
	}
}

func TestNullsCountAsAbsent(t *testing.T) {
	h := newHarness(t, nil)
	d := h.decide(`{"agent":{"session_id":"s"},"action":{"verb":"read"},"target":{"environment":"dev"},"axes":null,"magnitude":null,"params":null,"approval":null}`)
	if d.Decision != Allow {
		t.Fatalf("got %+v", d)
	}
	// A huge count saturates rather than failing: it is a real, enormous action.
	h.expect(`{"agent":{"session_id":"s2"},"action":{"verb":"read"},"target":{"environment":"dev"},"axes":{"externality":"internal"},"magnitude":{"count":99999999999999999999}}`,
		RequireApproval, "reeflex.policy/cumulative_budget")
}

func TestNonceReplaySpentEvenOnRejection(t *testing.T) {
	h := newHarness(t, nil)
	bad := `{"agent":{"session_id":"s"},"action":{"verb":"read"},"target":{"environment":"dev"},"magnitude":{"count":0},"meta":{"nonce":"n1"}}`
	if _, err := h.decideErr(bad); !isEnvelopeErr(err, "magnitude.count must be an integer >= 1") {
		t.Fatalf("first: %v", err)
	}
	good := `{"agent":{"session_id":"s"},"action":{"verb":"read"},"target":{"environment":"dev"},"meta":{"nonce":"n1"}}`
	if _, err := h.decideErr(good); !isEnvelopeErr(err, "replay: nonce already seen") {
		t.Fatalf("replay: %v", err)
	}
	// An empty nonce is no nonce.
	for range 2 {
		h.decide(`{"agent":{"session_id":"s"},"action":{"verb":"read"},"target":{"environment":"dev"},"meta":{"nonce":""}}`)
	}
}

func TestFold(t *testing.T) {
	cases := []struct{ in, want string }{
		{"Prod ", "prod"}, {"ＰＲＯＤ", "prod"}, {"pr\u200bod", "prod"}, {"\ufeffprod", "prod"}, {"Straße", "strasse"},
		{"\u00a0prod\u3000", "prod"}, {"prod\u1680", "prod"}, {"\x1cprod\x1f", "prod"}, {"hard\tdelete", "harddelete"},
		{"p\u202erod", "prod"}, {"ﬁle", "file"}, {"ΣΊΣΥΦΟΣ", "σίσυφοσ"}, {"Ⅳ", "iv"},
	}
	for _, c := range cases {
		if got := Fold(c.in); got != c.want {
			t.Errorf("Fold(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestEnvironmentAliases(t *testing.T) {
	cases := []struct {
		in, want string
		declared bool
	}{
		{"production", "production", true}, {"prod", "production", true}, {"Prod ", "production", true}, {"PRODS", "production", true},
		{"prd", "production", true}, {"live", "production", true}, {"ＬＩＶＥ", "production", true}, {"\ufeffprd", "production", true},
		{"staging", "staging", true}, {"Stage", "staging", true}, {"stg", "staging", true},
		{"dev", "dev", true}, {"development", "dev", true}, {"develop", "dev", true}, {"test", "dev", true}, {"TESTING", "dev", true},
		{"d\u200bev", "dev", true},
		{"qa-eu", "production", false}, {"prodd", "production", false}, {"pro d", "production", false}, {"sandbox", "production", false},
		{"dev-1", "production", false},
	}
	for _, c := range cases {
		got, decl := canonEnv(c.in)
		if got != c.want || decl != c.declared {
			t.Errorf("canonEnv(%q) = %s,%v want %s,%v", c.in, got, decl, c.want, c.declared)
		}
	}
}

func TestVerbCanon(t *testing.T) {
	cases := []struct {
		in, rev, want string
		hit           bool
	}{
		{"read", "reversible", "read", true}, {"DeleteObject", "reversible", "delete", true}, {"hard-delete", "reversible", "delete", true},
		{"hard_delete", "reversible", "delete", true}, {"Frobnicate", "irreversible", "delete", false}, {"Frobnicate", "reversible", "update", false},
		{"Frobnicate", "recoverable", "update", false}, {"getUser", "reversible", "read", true}, {"send.email", "reversible", "emit", true},
		{"mark-read", "reversible", "update", true}, {"post_message", "reversible", "emit", true}, {"bulk/delete", "reversible", "delete", true},
		{"hard\tdelete", "reversible", "update", false}, {"ＤＥＬＥＴＥ", "reversible", "delete", true}, {"del\u200bete", "reversible", "delete", true},
		{"list2Items", "reversible", "update", false}, {"Ship", "reversible", "update", false}, {"s3:PutObject", "irreversible", "delete", false}, {"Put:Object", "reversible", "update", true},
		{"delete_notes", "reversible", "update", false}, {"refund", "reversible", "transact", true}, {"RollBack", "reversible", "execute", true},
		{"  Send  ", "reversible", "emit", true}, {"Publish-Draft", "reversible", "update", true},
	}
	for _, c := range cases {
		got, hit := canonVerb(c.in, c.rev)
		if got != c.want || hit != c.hit {
			t.Errorf("canonVerb(%q,%s) = %s,%v want %s,%v", c.in, c.rev, got, hit, c.want, c.hit)
		}
	}
	for _, v := range Verbs {
		if verbTable[v] != v {
			t.Errorf("canonical verb %s does not map to itself", v)
		}
	}
}

func TestAbilityEscalation(t *testing.T) {
	cases := []struct {
		verb, ability, want string
	}{
		{"update", "wordpress/delete-post", "delete"}, {"read", "s3/list-deleted-objects", "read"},
		{"update", "s3/DeleteObject", "delete"}, {"create", "remove", "delete"}, {"emit", "x/y/purge_all", "emit"},
		{"execute", "k8s/Terminate-Pod", "delete"},
	}
	for _, c := range cases {
		n, err := Normalize(decode(t, `{"agent":{"session_id":"s"},"action":{"verb":"`+c.verb+`","ability":"`+c.ability+`"},"target":{"environment":"dev"}}`))
		if err != nil {
			t.Fatal(err)
		}
		if got := n["action"].(map[string]any)["verb"]; got != c.want {
			t.Errorf("%s + %s -> %v, want %s", c.verb, c.ability, got, c.want)
		}
	}
}

func TestAxisCoercionAndProvenance(t *testing.T) {
	n, err := Normalize(decode(t, `{"agent":{"session_id":"s"},"action":{"verb":"delete"},"target":{"environment":"prod"},
		"axes":{"reversibility":"Irreversible","blast_radius":"Broad","externality":5,"extra":1.50},"provenance":{"undeclared":[]}}`))
	if err != nil {
		t.Fatal(err)
	}
	ax := n["axes"].(map[string]any)
	if ax["reversibility"] != "irreversible" || ax["blast_radius"] != "systemic" || ax["externality"] != "physical" {
		t.Fatalf("axes = %v", ax)
	}
	if string(CanonicalJSON(ax["extra"])) != "1.5" {
		t.Fatalf("extra axis key lost: %v", ax)
	}
	und := n["provenance"].(map[string]any)["undeclared"].([]any)
	if !slices.Equal(und, []any{"axes.externality"}) {
		t.Fatalf("undeclared = %v (Irreversible and Broad fold to members, so they count as declared)", und)
	}
	// The quirk the reference accepts: "Broad" is coerced to systemic and
	// counts as declared, so it is R3's deny, not R2's hold nor R0.
	h := newHarness(t, nil)
	h.expect(envSpec{verb: "delete", rev: "irreversible", blast: "Broad", ext: "internal"}.json(), Deny, "reeflex.policy/irreversible_systemic_prod")
}

func TestParamsAndCurrency(t *testing.T) {
	cases := []struct {
		params, currency string
	}{
		{`{"amount":10,"currency":"eur"}`, "EUR"}, {`{"amount":10,"currency":"ＵＳＤ "}`, "USD"}, {`{"amount":10,"currency":"€"}`, "XXX"},
		{`{"amount":10,"currency":"euros"}`, "XXX"}, {`{"amount":10,"currency":42}`, "XXX"}, {`{"amount":10}`, "XXX"},
		{`{"amount":"10","currency":"eur"}`, "eur"}, {`{"amount":true,"currency":"eur"}`, "eur"}, {`{"currency":"eur"}`, "eur"},
	}
	for _, c := range cases {
		n, err := Normalize(decode(t, `{"agent":{"session_id":"s"},"action":{"verb":"pay"},"target":{"environment":"dev"},"params":`+c.params+`}`))
		if err != nil {
			t.Fatal(err)
		}
		if got := n["params"].(map[string]any)["currency"]; got != c.currency {
			t.Errorf("params %s: currency %v, want %s", c.params, got, c.currency)
		}
	}
	n, _ := Normalize(decode(t, `{"agent":{"session_id":"s"},"action":{"verb":"pay"},"target":{"environment":"dev"},"params":[1]}`))
	if p := n["params"].(map[string]any); len(p) != 0 {
		t.Errorf("a non-object params must become {}, got %v", p)
	}
	n, _ = Normalize(decode(t, `{"agent":{"session_id":"s"},"action":{"verb":"pay"},"target":{"environment":"dev"},"approval":{"present":"yes"}}`))
	if a := n["approval"].(map[string]any); a["present"] != false || a["hold_id"] != nil {
		t.Errorf("approval defaults: %v", a)
	}
}
