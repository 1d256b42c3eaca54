package tui

import (
	"slices"
	"strings"
	"testing"

	"github.com/reflect-mcp/reflect/pipeline"
)

// / matches ids and first lines as typed; enter adds documents whose full
// text, values or flag reasons match, found in the background.
func TestFilterSearchesTextValuesAndReasons(t *testing.T) {
	f := newFixture(t)
	m := press(t, loaded(t, f.config()), "5", "/")
	if v := viewText(m); !strings.Contains(v, "enter also searches text, values, reasons") {
		t.Fatalf("placeholder does not say what / matches:\n%s", v)
	}
	for _, c := range []struct{ query, want string }{
		{"receipt 5521", "inv-003"},  // second line of the text
		{"ambiguous day", "inv-002"}, // a flag's reason
		{"inv-005", "inv-005"},       // the id
	} {
		m = typeText(t, m, c.query)
		m = press(t, m, "enter")
		if ids := queueIDs(m); !slices.Equal(ids, []string{c.want}) {
			t.Fatalf("%q matched %v, want [%s]\n%s", c.query, ids, c.want, viewText(m))
		}
		m = press(t, m, "esc", "/")
	}
	m = typeText(t, m, "no such words")
	if m = press(t, m, "enter"); len(queueIDs(m)) != 0 {
		t.Fatalf("nonsense matched %v", queueIDs(m))
	}
}

func TestResultMatchesValues(t *testing.T) {
	r := pipeline.Result{Data: pipeline.Record{"total": 683.2, "vendor_name": "Café Müller"},
		FlaggedFields: []pipeline.FlaggedField{{Field: "total", Reason: "Sum Differs"}}}
	for needle, want := range map[string]bool{"683.2": true, "café mü": true, "sum differs": true, "tax": false} {
		if got := resultMatches(&r, needle); got != want {
			t.Errorf("%q: %v, want %v", needle, got, want)
		}
	}
}

// A search that lands after the reviewer opened a document still reaches the
// queue.
func TestDeepSearchLandsWhileADocumentIsOpen(t *testing.T) {
	m := typeText(t, press(t, loaded(t, newFixture(t).config()), "5", "/"), "receipt 5521")
	nm, cmd := m.Update(keyMsg("enter"))
	m = nm.(Model)
	if cmd == nil || !strings.Contains(viewText(m), "searching text, values and reasons") {
		t.Fatalf("enter started no search:\n%s", viewText(m))
	}
	msg := cmd()
	m = openDoc(t, m, "inv-001")
	m = apply(t, m, msg)
	if ids := queueIDs(m); !slices.Equal(ids, []string{"inv-003"}) || m.queue.searching != "" {
		t.Fatalf("queue after the search landed: %v (searching %q)", ids, m.queue.searching)
	}
}
