package store

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reflect-mcp/reflect/pipeline"
)

// checkStore returns a store file holding n queued documents.
func checkStore(t *testing.T, n int) (*Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "reflect.db")
	st, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for i := range n {
		res := pipeline.Result{Status: pipeline.StatusNeedsReview, TraceID: fmt.Sprintf("trace-%04d", i), Schema: "invoice"}
		text := fmt.Sprintf("ACME LTD invoice %d, total %d.00 %s", i, i, strings.Repeat("padding ", 40))
		if _, _, err := st.Enqueue(ctx, "check", Document{Text: text}, "v1", res); err != nil {
			t.Fatal(err)
		}
	}
	return st, path
}

// scribble overwrites a run of bytes in every data page (not the two meta
// pages, which bbolt checksums on open) with random bytes.
func scribble(t *testing.T, path string, seed uint64) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(seed, seed))
	const page = 4096
	for off := 2 * page; off+page <= len(b); off += page {
		start := off + r.IntN(page-64)
		for i := start; i < start+64; i++ {
			b[i] = byte(r.Uint32())
		}
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestCheckHealthyStore(t *testing.T) {
	st, path := checkStore(t, 50)
	rep, err := st.Check(context.Background())
	if err != nil || !rep.OK() || rep.Path != path || rep.Bytes < rep.PagesBytes {
		t.Fatalf("healthy store: %+v, %v", rep, err)
	}
	if _, err := OpenChecked(context.Background(), path, Options{}); err != nil {
		t.Fatalf("OpenChecked on a healthy store: %v", err)
	}
}

// TestCheckFindsScribbledPages: random bytes over the store's pages pass
// Open (which reads only the meta bucket), yet bbolt's check rejects the
// file; OpenChecked refuses it so nothing more is written into it.
func TestCheckFindsScribbledPages(t *testing.T) {
	for seed := range uint64(3) {
		_, path := checkStore(t, 80)
		scribble(t, path, seed)
		st, err := Open(path, Options{})
		if err != nil {
			// Damage the open itself trips over is already refused.
			if !errors.Is(err, ErrCorrupt) {
				t.Errorf("seed %d: Open: %v, want ErrCorrupt", seed, err)
			}
			continue
		}
		rep, err := st.Check(context.Background())
		if err != nil {
			t.Fatalf("seed %d: Check: %v", seed, err)
		}
		if rep.OK() {
			t.Errorf("seed %d: a scribbled file passed the check", seed)
			continue
		}
		if _, err := OpenChecked(context.Background(), path, Options{}); !errors.Is(err, ErrCorrupt) || !errors.Is(err, ErrCheckFailed) {
			t.Errorf("seed %d: OpenChecked: %v, want ErrCheckFailed and ErrCorrupt", seed, err)
		}
	}
}

// TestCheckTruncatedFile: a copy cut short is reported, not a crash (bbolt's
// check would read past the end of the mapping in its own goroutine).
func TestCheckTruncatedFile(t *testing.T) {
	_, path := checkStore(t, 80)
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(path, fi.Size()/2); err != nil {
		t.Fatal(err)
	}
	st := &Store{path: path, timeout: DefaultTimeout}
	rep, err := st.Check(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if rep.OK() || !strings.Contains(strings.Join(rep.Problems, " "), "cut short") {
		t.Errorf("truncated store: %+v", rep)
	}
}

func TestCheckMissingFile(t *testing.T) {
	st := &Store{path: filepath.Join(t.TempDir(), "nope.db"), timeout: DefaultTimeout}
	if _, err := st.Check(context.Background()); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}
