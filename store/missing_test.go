package store_test

import (
	"context"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/reflect-mcp/reflect/store"
	"github.com/reflect-mcp/reflect/store/storetest"
)

func missingStore(t *testing.T, n int) *store.Store {
	t.Helper()
	s, err := store.Open(filepath.Join(t.TempDir(), "reflect.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := storetest.Populate(context.Background(), s, "c", n); err != nil {
		t.Fatal(err)
	}
	return s
}

// MissingResultIDs lists the documents left to run without decoding one:
// it allocates less than half the bytes reading those documents does, and
// its allocations per document do not grow from n to 8n.
func TestMissingResultIDsGrowth(t *testing.T) {
	ctx := context.Background()
	const n = 500
	perDoc := func(s *store.Store, docs int) float64 {
		var ids []string
		allocs := testing.AllocsPerRun(1, func() {
			var err error
			if ids, err = s.MissingResultIDs(ctx, "c", "v-next"); err != nil {
				t.Fatal(err)
			}
		})
		if len(ids) != docs {
			t.Fatalf("%d missing, want %d", len(ids), docs)
		}
		return allocs / float64(docs)
	}
	small, big := missingStore(t, n), missingStore(t, 8*n)
	a1, a8 := perDoc(small, n), perDoc(big, 8*n)
	t.Logf("allocations per document: n=%d %.2f, 8n=%d %.2f", n, a1, 8*n, a8)
	if a8 > 1.25*a1+1 {
		t.Errorf("allocations per document grow with corpus size: %.2f at n, %.2f at 8n", a1, a8)
	}
	ids, err := small.MissingResultIDs(ctx, "c", "v-next")
	if err != nil {
		t.Fatal(err)
	}
	docs, err := small.Documents(ctx, "c", ids)
	if err != nil {
		t.Fatal(err)
	}
	bigIDs, err := big.MissingResultIDs(ctx, "c", "v-next")
	if err != nil {
		t.Fatal(err)
	}
	bytesOf := func(f func() error) uint64 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		if err := f(); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	withText := bytesOf(func() error { _, err := big.Documents(ctx, "c", bigIDs); return err })
	idsOnly := bytesOf(func() error { _, err := big.MissingResultIDs(ctx, "c", "v-next"); return err })
	t.Logf("bytes allocated at 8n: the documents %d, MissingResultIDs %d", withText, idsOnly)
	if 2*idsOnly > withText {
		t.Errorf("MissingResultIDs allocates %d bytes, more than half of reading the documents (%d): it holds texts", idsOnly, withText)
	}
	if len(docs) != len(ids) {
		t.Fatalf("%d documents for %d ids", len(docs), len(ids))
	}
	for i, d := range docs {
		if ids[i] != d.ID || d.Text == "" {
			t.Fatalf("id %d = %q, its document %q with %d bytes of text", i, ids[i], d.ID, len(d.Text))
		}
	}
	// Every document already has a result for the populated version.
	if ids, err := small.MissingResultIDs(ctx, "c", storetest.Version); err != nil || len(ids) != 0 {
		t.Fatalf("missing for stored version: %d, %v", len(ids), err)
	}
}
