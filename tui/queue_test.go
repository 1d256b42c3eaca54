package tui

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/reflect-mcp/reflect/pipeline"
	"github.com/reflect-mcp/reflect/store"
)

// syntheticQueue is a loaded queue page of n rows with mixed statuses and
// snippets, built without a store.
func syntheticQueue(n int) *queuePage {
	svc := &services{styles: new(NewStyles(true)), keys: new(DefaultKeyMap())}
	q := newQueuePage(svc)
	q.SetSize(80, 20)
	words := []string{"café müller", "acme supplies", "blue bottle", "lakeside hardware", "cafeteria"}
	statuses := []pipeline.Status{pipeline.StatusNeedsReview, pipeline.StatusOK, pipeline.StatusError, ""}
	rows := make([]store.Summary, n)
	for i := range rows {
		rows[i] = store.Summary{
			DocID: fmt.Sprintf("doc-%05d", i), Seq: i, Status: statuses[i%len(statuses)],
			Confidence: float64(i%97) / 97, Reviewed: i%7 == 0, Snippet: words[i%len(words)],
		}
	}
	q.SetRows(rows)
	return q
}

// bruteView is what the view of tab t must hold for query, by a full scan.
func bruteView(q *queuePage, t Tab, query string) []string {
	needle := strings.ToLower(strings.TrimSpace(query))
	var ids []string
	for _, i := range q.order {
		s := &q.rows[i]
		if strings.Contains(strings.ToLower(s.DocID+" "+s.Snippet), needle) && q.inTab(t, s) {
			ids = append(ids, s.DocID)
		}
	}
	return ids
}

func viewIDs(q *queuePage) []string {
	ids := make([]string, len(q.view))
	for i, r := range q.view {
		ids[i] = q.rows[r].DocID
	}
	return ids
}

// Typing, deleting and retyping a query, and switching tabs, always shows
// exactly what a full scan would, with counts for every tab.
func TestQueueFilterAndTabsMatchAFullScan(t *testing.T) {
	q := syntheticQueue(2000)
	q.audit.ids = map[string]bool{}
	for i := 0; i < len(q.rows); i += 7 {
		q.audit.ids[q.rows[i].DocID] = true
	}
	for _, query := range []string{"c", "ca", "caf", "cafe", "caf", "", "doc-01", "doc-012", "1", "  ACME ", "müller", "zzz", ""} {
		q.query = query
		q.rebuild()
		for tab := range Tab(len(tabNames)) {
			q.setTab(tab)
			want := bruteView(q, tab, query)
			if got := viewIDs(q); !slices.Equal(got, want) {
				t.Fatalf("query %q tab %s: %d rows, want %d", query, tab, len(got), len(want))
			}
			if n := q.Counts()[tab]; n != len(want) {
				t.Fatalf("query %q tab %s: count %d, want %d", query, tab, n, len(want))
			}
		}
	}
}

// A longer query scans only what the shorter one matched: a row the shorter
// query excluded is not looked at again (here its haystack is changed behind
// the queue's back to prove it). A data change makes the next query rescan.
func TestLongerQueryScansOnlyThePreviousMatches(t *testing.T) {
	q := syntheticQueue(100)
	q.setTab(TabAll)
	q.query = "blue"
	q.rebuild()
	excluded := q.byID["doc-00000"] // "café müller"
	q.hay[excluded] = "blue bottle tampered"
	q.query = "blue bottle t"
	q.rebuild()
	if len(q.view) != 0 {
		t.Fatalf("the longer query rescanned rows the shorter one excluded: %v", viewIDs(q))
	}
	row, _ := q.Row("doc-00000")
	row.Snippet = "blue bottle t"
	q.Upsert(row)
	q.query = "blue bottle t"
	q.rebuild()
	if ids := viewIDs(q); !slices.Equal(ids, []string{"doc-00000"}) {
		t.Fatalf("after an upsert the query found %v", ids)
	}
}
