package tui

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/reflect-mcp/reflect/store"
)

// o cycles the queue's order through status, confidence, id and flags, and
// the line above the list names the one in force.
func TestQueueSortKeyCyclesOrders(t *testing.T) {
	q := syntheticQueue(300)
	q.setTab(TabAll)
	rowsOf := func() []*store.Summary {
		out := make([]*store.Summary, len(q.view))
		for i, r := range q.view {
			out[i] = &q.rows[r]
		}
		return out
	}
	for _, want := range []sortKey{sortConfidence, sortID, sortFlags, sortStatus} {
		q.Update(keyMsg("o"))
		if q.sortBy != want {
			t.Fatalf("after o: sorted by %v, want %v", q.sortBy, want)
		}
		rs := rowsOf()
		for i := 1; i < len(rs); i++ {
			a, b := rs[i-1], rs[i]
			var bad bool
			switch want {
			case sortConfidence:
				bad = a.Confidence > b.Confidence
			case sortID:
				bad = a.DocID > b.DocID
			case sortFlags:
				bad = a.Flagged < b.Flagged
			case sortStatus:
				bad = statusRank(a.Status) > statusRank(b.Status)
			}
			if bad {
				t.Fatalf("sorted by %v: %s before %s", want, a.DocID, b.DocID)
			}
		}
		if v := q.View(); !strings.Contains(v, "sorted by "+want.String()) {
			t.Fatalf("sorted by %v, view does not say so:\n%s", want, v)
		}
	}
}

// The ID column grows with the terminal as far as the longest id needs.
func TestQueueIDColumnGrowsWithWidth(t *testing.T) {
	q := syntheticQueue(3)
	long := "receipt-2026-11-30-store-0042-lane-7"
	q.Upsert(store.Summary{DocID: long, Seq: 99})
	q.Resort()
	q.setTab(TabAll)
	q.SetSize(80, 20)
	if strings.Contains(q.View(), long) {
		t.Fatalf("at 80 columns the id fits a %d-cell column?", q.idWidth())
	}
	q.SetSize(120, 20)
	if !strings.Contains(q.View(), long) {
		t.Fatalf("at 120 columns the id is still cut (column %d):\n%s", q.idWidth(), q.View())
	}
	if w := q.idWidth(); w != len(long) {
		t.Fatalf("id column %d, want the longest id %d", w, len(long))
	}
}

// q on the queue is described as what it does: clear the filter, then quit.
func TestQueueHelpSaysWhatQDoes(t *testing.T) {
	m := loaded(t, newFixture(t).config())
	if h := helpLine(m); !strings.HasSuffix(h, "q quit") {
		t.Fatalf("help: %q", h)
	}
	m = typeText(t, press(t, m, "/"), "inv")
	m = press(t, m, "enter")
	if h := helpLine(m); !strings.HasSuffix(h, "q unfilter") {
		t.Fatalf("filtered queue help: %q", h)
	}
	m = press(t, m, "q")
	if m.queue.query != "" {
		t.Fatal("q did not clear the filter")
	}
	if h := helpLine(m); !strings.HasSuffix(h, "q quit") {
		t.Fatalf("help after clearing: %q", h)
	}
	if _, cmd := m.Update(keyMsg("q")); cmd == nil || fmt.Sprint(cmd()) != fmt.Sprint(tea.Quit()) {
		t.Fatal("q on an unfiltered queue does not quit")
	}
	// With the full help open, q closes it, and the help says so.
	m = press(t, m, "?")
	if v := viewText(m); !strings.Contains(v, "sort status,conf,id,flags") || !slices.ContainsFunc(strings.Split(v, "\n"), func(l string) bool { return strings.Contains(strings.Join(strings.Fields(l), " "), "q close help") }) {
		t.Fatalf("full help:\n%s", v)
	}
}

// The FLAG column names the flagged fields, and / finds a document by them.
func TestQueueFlagColumnNamesFields(t *testing.T) {
	m := loaded(t, newFixture(t).config())
	v := viewText(m)
	if !strings.Contains(v, "1! total") || !strings.Contains(v, "1! invoice_date") {
		t.Fatalf("FLAG column does not name the fields:\n%s", v)
	}
	m = typeText(t, press(t, m, "/"), "invoice_date")
	if ids := queueIDs(m); !slices.Equal(ids, []string{"inv-002"}) {
		t.Fatalf("/invoice_date matched %v", ids)
	}
	// A row stored before the names existed still counts its flags.
	if got := flagCell(&store.Summary{Flagged: 2}); got != "2!" {
		t.Fatalf("row without names: %q", got)
	}
}
