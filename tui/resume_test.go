package tui

import (
	"context"
	"path/filepath"
	"sync"
	"testing"

	"github.com/reflect-mcp/reflect/pipeline"
	"github.com/reflect-mcp/reflect/store"
	"github.com/reflect-mcp/reflect/store/storetest"
)

// textRunner records the text each document was run with.
type textRunner struct {
	mu    sync.Mutex
	texts map[string]string
}

func (r *textRunner) Extract(_ context.Context, doc pipeline.Document) (pipeline.Result, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.texts[doc.ID]; dup {
		r.texts[doc.ID] = "run twice"
	} else {
		r.texts[doc.ID] = doc.Text
	}
	return pipeline.Result{ID: doc.ID, Status: pipeline.StatusOK, Data: pipeline.Record{}}, nil
}

// The background run of a new pipeline version over a stored corpus reads
// the ids left to run and their texts a batch at a time: every document
// runs once, with its own text, across more than one batch.
func TestStartRunResumesAcrossBatches(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(filepath.Join(t.TempDir(), "reflect.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	n := 2*resumeBatch + 7
	if err := storetest.Populate(ctx, st, "c", n); err != nil {
		t.Fatal(err)
	}
	c, err := st.Corpus(ctx, "c")
	if err != nil {
		t.Fatal(err)
	}
	r := &textRunner{texts: map[string]string{}}
	cfg := Config{Store: st, Corpus: c, Schema: pipeline.Invoice(), Runner: r, PipelineVersion: "v-next", Concurrency: 3}
	var got collect
	<-StartRun(ctx, cfg, got.send)
	if done, ok := got.msgs[len(got.msgs)-1].(RunDoneMsg); !ok || done.Err != nil {
		t.Fatalf("run ended with %+v", got.msgs[len(got.msgs)-1])
	}
	if len(r.texts) != n {
		t.Fatalf("%d documents ran, want %d", len(r.texts), n)
	}
	rows, err := st.Summaries(ctx, "c")
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range rows {
		d, err := st.Document(ctx, "c", row.DocID)
		if err != nil {
			t.Fatal(err)
		}
		if r.texts[row.DocID] != d.Text {
			t.Fatalf("%s ran with %q, stored text %q", row.DocID, r.texts[row.DocID], d.Text)
		}
	}
	if ids, err := st.MissingResultIDs(ctx, "c", "v-next"); err != nil || len(ids) != 0 {
		t.Fatalf("after the run %d documents still miss a result (%v)", len(ids), err)
	}
}
