package main

import (
	"bytes"
	"context"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reflect-mcp/reflect/store"
	"github.com/reflect-mcp/reflect/store/storetest"
)

// scribbledStore is a populated store with random bytes over every data page
// (not the meta pages, which bbolt checksums on open): Open accepts it, the
// consistency check does not. Whether the bytes Open reads were hit depends
// on where the store's layout put them, so the scribble is redone with the
// next seed until the file still opens.
func scribbledStore(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "store.db")
	st, err := store.Open(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := storetest.Populate(context.Background(), st, "old", 300); err != nil {
		t.Fatal(err)
	}
	orig, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for seed := uint64(7); seed < 7+20; seed++ {
		b := bytes.Clone(orig)
		r := rand.New(rand.NewPCG(seed, 7))
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
		if _, err = store.Open(path, store.Options{}); err == nil {
			return path
		}
	}
	t.Fatalf("no scribbled file of 20 still opens: %v", err)
	return ""
}

// Every verb that writes into the store refuses a damaged one before writing
// anything, with an error that says what to do.
//
// bbolt's check can fault on some scribbled files in its own goroutine (a key
// length read from random bytes points outside the map), which kills the
// process; the cases run in a child test process so such a fault is reported
// as the store defect it is (store.Check must guard it) instead of taking the
// whole package's tests down.
func TestWritersRefuseADamagedStore(t *testing.T) {
	if os.Getenv("REFLECT_DAMAGED_STORE_CHILD") != "1" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestWritersRefuseADamagedStore$", "-test.count=1")
		cmd.Env = append(os.Environ(), "REFLECT_DAMAGED_STORE_CHILD=1")
		out, err := cmd.CombinedOutput()
		switch {
		case err == nil:
		case bytes.Contains(out, []byte("fatal error: fault")) && bytes.Contains(out, []byte("bbolt.(*Tx).check")):
			t.Fatalf("bbolt's consistency check faulted on the scribbled file: store.Check must walk the buckets under its fault guard first\n%s", out)
		default:
			t.Fatalf("child: %v\n%s", err, out)
		}
		return
	}
	corpus := writeFile(t, "docs.jsonl", fakeCorpus(2))
	cases := map[string][]string{
		"extract --save":  {"extract", "--batch", "--save", "--file", corpus},
		"validate --save": {"validate", "--batch", "--save", "--file", corpus},
		"review":          {"review", "--queue", "q"},
	}
	for name, args := range cases {
		t.Run(name, func(t *testing.T) {
			path := scribbledStore(t)
			before, _ := os.ReadFile(path)
			r := runWith(t, nil, "", append(args, "--store", path)...)
			if r.code == ExitOK {
				t.Fatalf("%s wrote into a damaged store: exit 0\n%s", name, r.out)
			}
			if msg := r.out + r.err; !strings.Contains(msg, "consistency check") || !strings.Contains(msg, "reflect doctor") {
				t.Fatalf("%s: want an error naming the failed check and reflect doctor, got\n%s\n%s", name, r.out, r.err)
			}
			if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
				t.Fatalf("%s changed the damaged file", name)
			}
		})
	}
}
