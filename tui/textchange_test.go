package tui

import (
	"context"
	"strings"
	"testing"

	"github.com/reflect-mcp/reflect/store"
)

// A document whose text in the corpus file changed since it was stored is
// marked on its queue row and its page, and the page says the stored text
// (the one its decisions were made on) is what it shows.
func TestTextChangedMarked(t *testing.T) {
	f := newFixture(t)
	docs := append([]store.Document(nil), f.docs...)
	docs[1].Text = textAcme + "\nTotal 990.00 USD" // inv-002 edited in the file
	if err := f.st.PutCorpus(context.Background(), f.corpus, docs); err != nil {
		t.Fatal(err)
	}
	m := loaded(t, f.config())
	if row := rowLine(t, m, "inv-002"); !strings.Contains(row, "text changed · ") {
		t.Fatalf("inv-002's row is not marked: %q", row)
	}
	if row := rowLine(t, m, "inv-001"); strings.Contains(row, "text changed") {
		t.Fatalf("inv-001's row is marked: %q", row)
	}
	m = openDoc(t, m, "inv-002")
	v := viewText(m)
	if !strings.Contains(v, "text changed in the file (stored text shown)") || strings.Contains(v, "990.00") {
		t.Fatalf("inv-002's page:\n%s", v)
	}
}
