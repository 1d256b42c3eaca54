package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reflect-mcp/reflect/pipeline"
	"github.com/reflect-mcp/reflect/store"
)

// doctorStore makes a store file with some queued documents.
func doctorStore(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "store.db")
	st, err := store.Open(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 60 {
		res := pipeline.Result{Status: pipeline.StatusNeedsReview, TraceID: fmt.Sprintf("trace-%d", i), Schema: "invoice"}
		if _, _, err := st.Enqueue(context.Background(), "doctor", store.Document{Text: strings.Repeat(fmt.Sprintf("doc %d ", i), 80)}, "v", res); err != nil {
			t.Fatal(err)
		}
	}
	return path
}

// overwritePages writes 0xA5 over every page after the two meta pages
// (all: true), or only over the pages no Open reads: the ones holding
// documents, found by trying each page until Open still works and the
// check does not.
func overwritePages(t *testing.T, path string, all bool) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !all {
		for off := len(b) - 4096; off >= 2*4096; off -= 4096 {
			c := append([]byte(nil), b...)
			for i := off + 16; i < off+4096; i++ {
				c[i] = 0xA5
			}
			if err := os.WriteFile(path, c, 0o600); err != nil {
				t.Fatal(err)
			}
			if _, err := store.Open(path, store.Options{}); err != nil {
				continue
			}
			if rep, err := store.CheckFile(context.Background(), path); err == nil && !rep.OK() {
				return
			}
		}
		t.Fatal("no page whose damage Open misses")
	}
	for i := 2 * 4096; i < len(b); i++ {
		b[i] = 0xA5
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestDoctor(t *testing.T) {
	cache := filepath.Join(t.TempDir(), "calls.db")
	path := doctorStore(t)
	r := run(t, "", "doctor", "--store", path, "--cache", cache)
	if r.code != ExitOK || !strings.Contains(r.out, "store "+path+": ok") || !strings.Contains(r.out, "none yet") {
		t.Fatalf("healthy store: exit %d\n%s%s", r.code, r.out, r.err)
	}
	overwritePages(t, path, false)
	// Open (and so stats, --save) takes the damaged file happily: only the
	// check finds it.
	r = run(t, "", "doctor", "--store", path, "--cache", cache)
	if r.code != ExitPipeline || !strings.Contains(r.out, "DAMAGED") {
		t.Fatalf("damaged store: exit %d\n%s%s", r.code, r.out, r.err)
	}
	r = run(t, "", "doctor", "--store", path, "--cache", cache, "--json")
	var rep doctorReport
	if err := json.Unmarshal([]byte(r.out), &rep); err != nil || rep.OK || rep.Store == nil || len(rep.Store.Problems) == 0 || r.code != ExitPipeline {
		t.Fatalf("--json: exit %d %v\n%s", r.code, err, r.out)
	}
	// The MCP server refuses to start writing into it.
	r = run(t, "", "mcp", "--store", path)
	if r.code == ExitOK || !strings.Contains(r.err, "consistency check") {
		t.Errorf("mcp on a damaged store: exit %d\n%s", r.code, r.err)
	}
	// Damage every open trips over is reported by doctor just the same.
	path2 := doctorStore(t)
	overwritePages(t, path2, true)
	if r := run(t, "", "doctor", "--store", path2, "--cache", cache); r.code != ExitPipeline || !strings.Contains(r.out, "DAMAGED") {
		t.Errorf("wholly damaged store: exit %d\n%s%s", r.code, r.out, r.err)
	}
}
