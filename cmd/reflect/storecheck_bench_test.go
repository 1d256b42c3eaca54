package main

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/reflect-mcp/reflect/store"
	"github.com/reflect-mcp/reflect/store/storetest"
)

// BenchmarkStoreCheck100k is what a writer's open-time consistency check
// costs on a 100k-document store (make bench: the cmd/reflect Store line).
func BenchmarkStoreCheck100k(b *testing.B) {
	ctx := context.Background()
	path := filepath.Join(b.TempDir(), "store.db")
	st, err := store.Open(path, store.Options{})
	if err != nil {
		b.Fatal(err)
	}
	if err := storetest.Populate(ctx, st, "bench", 100_000); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := store.OpenChecked(ctx, path, store.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
