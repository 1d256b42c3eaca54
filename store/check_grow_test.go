package store_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/reflect-mcp/reflect/pipeline"
	"github.com/reflect-mcp/reflect/store"
)

// A process about to write checks the store while others write to it: a
// file that grows between the check's look at its size and the check's
// transaction is healthy, not "cut short" (TestStoreContention's --save
// batches were refused so).
func TestCheckWhileAnotherProcessGrowsTheFile(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "r.db")
	writer, err := store.Open(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	checker, err := store.Open(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var done atomic.Bool
	go func() {
		defer done.Store(true)
		v, err := writer.NewSaver(store.Corpus{ID: "c", Name: "c", Kind: "file", Schema: "invoice"}, "v1")
		if err != nil {
			t.Error(err)
			return
		}
		text := strings.Repeat("x", 3000)
		for i := range 3000 {
			id := fmt.Sprintf("doc-%06d", i)
			v.Add(store.Document{ID: id, Text: text + id}, pipeline.Result{ID: id, Status: pipeline.StatusOK}, nil, nil)
		}
		v.Close()
	}()
	checks := 0
	for !done.Load() {
		if err := checker.CheckWritable(ctx); err != nil {
			t.Fatalf("after %d checks: %v", checks, err)
		}
		checks++
	}
}
