package golden

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/reflect-mcp/reflect/store"
)

func writeIDless(t *testing.T, path string, texts ...string) {
	t.Helper()
	var b strings.Builder
	for _, tx := range texts {
		line, _ := json.Marshal(map[string]string{"text": tx})
		b.Write(line)
		b.WriteByte('\n')
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
}

// docsByText is the stored documents of a corpus, text -> id.
func docsByText(t *testing.T, st *store.Store, corpusID string) map[string]string {
	t.Helper()
	sums, err := st.Summaries(context.Background(), corpusID)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, s := range sums {
		ids = append(ids, s.DocID)
	}
	docs, err := st.Documents(context.Background(), corpusID, ids)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, d := range docs {
		out[d.Text] = d.ID
	}
	return out
}

// New user report #2: in a corpus without ids, a line inserted at the top
// must be a new document, and a reviewed document keeps its decisions and
// is not shown again undecided: id-less documents are named by their text.
func TestIDlessCorpusSurvivesAnInsertedLine(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	path := filepath.Join(t.TempDir(), "noid.jsonl")
	writeIDless(t, path, "KEDAI A total 1.00", "KEDAI B total 2.00", "SHH MOTOR total 3.00", "KEDAI B total 2.00")
	c, bad, err := OpenCorpus(ctx, st, path, "receipt")
	if err != nil || len(bad) != 0 {
		t.Fatal(err, bad)
	}
	before := docsByText(t, st, c.ID)
	motor := before["SHH MOTOR total 3.00"]
	if !strings.HasPrefix(motor, "text-") {
		t.Fatalf("id-less document named %q, want a text- id", motor)
	}
	if _, err := st.Decide(ctx, store.Decision{CorpusID: c.ID, DocID: motor, Field: "vendor_name",
		Action: store.ActionCorrect, Value: "SHH MOTOR SDN BHD", Reviewer: "ann"}); err != nil {
		t.Fatal(err)
	}

	writeIDless(t, path, "F&P PHARMACY 3-1707067", "KEDAI B total 2.00", "KEDAI A total 1.00", "KEDAI B total 2.00", "SHH MOTOR total 3.00")
	if _, _, err := OpenCorpus(ctx, st, path, "receipt"); err != nil {
		t.Fatal(err)
	}
	after := docsByText(t, st, c.ID)
	if len(after) != 4 || after["F&P PHARMACY 3-1707067"] == "" {
		t.Fatalf("after inserting a line the corpus holds %v, want the new receipt too", after)
	}
	if after["SHH MOTOR total 3.00"] != motor {
		t.Fatalf("the reviewed receipt is %q now, was %q", after["SHH MOTOR total 3.00"], motor)
	}
	if ds, err := st.Decisions(ctx, c.ID, motor); err != nil || ds["vendor_name"].Value != "SHH MOTOR SDN BHD" {
		t.Fatalf("ann's correction after the insert: %v %v", ds, err)
	}
	sums, _ := st.Summaries(ctx, c.ID)
	if len(sums) != 5 { // two copies of KEDAI B stay two documents
		t.Fatalf("%d documents stored, want 5", len(sums))
	}
	if ch, err := st.TextChanges(ctx, c.ID); err != nil || len(ch) != 0 {
		t.Fatalf("reordering marked text changes %v %v", ch, err)
	}
}

// A store written before ids were named by text holds id-less documents as
// line-N: a line whose text is stored as line-N keeps that id wherever it
// moved, so its decisions stay with it; a new text gets a text- id.
func TestIDlessCorpusKeepsLegacyLineIDs(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	path := filepath.Join(t.TempDir(), "noid.jsonl")
	writeIDless(t, path, "A one", "B two")
	c, err := ResolveCorpusFile(ctx, st, path, "receipt")
	if err != nil {
		t.Fatal(err)
	}
	// What an older reflect stored for this file.
	if err := st.PutCorpus(ctx, c, []store.Document{{ID: "line-1", Text: "A one"}, {ID: "line-2", Text: "B two", Seq: 1}}); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Decide(ctx, store.Decision{CorpusID: c.ID, DocID: "line-2", Field: "total",
		Action: store.ActionCorrect, Value: 2.0, Reviewer: "ann"}); err != nil {
		t.Fatal(err)
	}
	writeIDless(t, path, "C new", "B two", "A one")
	if _, _, err := OpenCorpus(ctx, st, path, "receipt"); err != nil {
		t.Fatal(err)
	}
	got := docsByText(t, st, c.ID)
	if got["A one"] != "line-1" || got["B two"] != "line-2" || !strings.HasPrefix(got["C new"], "text-") || len(got) != 3 {
		t.Fatalf("stored after the insert: %v", got)
	}
	if ds, _ := st.Decisions(ctx, c.ID, "line-2"); ds["total"].Value != 2.0 {
		t.Fatalf("legacy line-2 lost its decision: %v", ds)
	}
}

func TestDocIDsDuplicatesAndOwnIDs(t *testing.T) {
	ids := NewDocIDs(nil)
	got := []string{ids.ID(Line{Text: "x"}), ids.ID(Line{Text: "x"}), ids.ID(Line{ID: "own", Text: "x"}), ids.ID(Line{Text: "y"})}
	if got[1] != got[0]+"-2" || got[2] != "own" || got[3] == got[0] || slices.Contains(got[:1], got[3]) {
		t.Fatalf("ids %v", got)
	}
}
