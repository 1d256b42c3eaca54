package tui

import (
	"context"
	"strings"
	"testing"

	"github.com/reflect-mcp/reflect/store"
)

// The s box says what reflect stats says: when the reviewer accepted both of
// the gate's flags as they were, nothing wrong was found, so there is no
// catch rate to claim, and both flags were false alarms.
func TestStatsBoxFlagsAcceptedUnchangedAreFalseAlarmsAndNoCatchRate(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	// inv-001 has its total flagged, inv-002 its invoice date: one flag each.
	var ds []store.Decision
	for _, doc := range []string{"inv-001", "inv-002"} {
		res, ok, err := f.st.Result(ctx, f.corpus.ID, doc)
		if err != nil || !ok || len(res.FlaggedFields) != 1 {
			t.Fatalf("%s: %v %v %+v", doc, ok, err, res.FlaggedFields)
		}
		ds = append(ds, store.Decision{CorpusID: f.corpus.ID, DocID: doc, Field: res.FlaggedFields[0].Field,
			Action: store.ActionAccept, Reviewer: "tester"})
	}
	if _, err := f.st.Decide(ctx, ds...); err != nil {
		t.Fatal(err)
	}

	m := press(t, loaded(t, f.config()), "s")
	v := viewText(m)
	for _, want := range []string{
		"catch rate                     n/a (no reviewer has corrected a value yet)",
		"false alarms                   2 of 2 flags (100.0%) accepted as they were",
	} {
		if !strings.Contains(v, want) {
			t.Errorf("stats box lacks %q:\n%s", want, v)
		}
	}
}
