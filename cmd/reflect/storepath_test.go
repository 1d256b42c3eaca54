package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reflect-mcp/reflect/store"
)

// emptyStore is a store file that exists and holds nothing yet.
func emptyStore(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "empty.db")
	if _, err := store.Open(path, store.Options{}); err != nil {
		t.Fatal(err)
	}
	return path
}

// A verb that only reads the store, pointed at a store that is not there
// (a typo), says so and exits non-zero, creating nothing: no empty store,
// no .lock, and no zeros that read as "nothing to review".
func TestReadOnlyVerbsRefuseAStoreThatDoesNotExist(t *testing.T) {
	dir := t.TempDir()
	typo := filepath.Join(dir, "reflcet.db")
	for _, args := range [][]string{
		{"stats"}, {"stats", "--json"}, {"queues"}, {"audit"}, {"export", "--golden", filepath.Join(dir, "out.jsonl")},
	} {
		r := run(t, "", append(args, "--store", typo)...)
		if r.code == ExitOK || !strings.Contains(r.err, "does not exist") || !strings.Contains(r.err, typo) {
			t.Errorf("%v on a missing store: exit %d, stderr %q", args, r.code, r.err)
		}
	}
	r := runWith(t, map[string]string{"REFLECT_STORE": typo}, "", "queues")
	if r.code == ExitOK || !strings.Contains(r.err, "does not exist") {
		t.Errorf("queues with REFLECT_STORE at a missing store: exit %d, stderr %q", r.code, r.err)
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("a read-only verb created %v", left)
	}
}

// A writer may create the store file, but not the directories above a path
// someone typed: --save into a missing directory says so and creates none.
func TestSaveDoesNotCreateMissingDirectories(t *testing.T) {
	f := writeFile(t, "c.jsonl", fakeCorpus(2))
	dir := t.TempDir()
	missing := filepath.Join(dir, "nonexistent", "dir", "x.db")
	r := run(t, "", "extract", "--batch", "--save", "--file", f, "--store", missing)
	if r.code == ExitOK || !strings.Contains(r.err, "does not exist") || !strings.Contains(r.err, filepath.Join(dir, "nonexistent", "dir")) {
		t.Errorf("--save into a missing directory: exit %d, stderr %q", r.code, r.err)
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("--save created %v", left)
	}
	// In a directory that exists it creates the store file.
	here := filepath.Join(dir, "x.db")
	if r := run(t, "", "extract", "--batch", "--save", "--file", f, "--store", here); r.code == ExitUsage || r.code == ExitPipeline {
		t.Fatalf("--save into an existing directory: exit %d %s", r.code, r.err)
	}
	if _, err := os.Stat(here); err != nil {
		t.Errorf("the store file was not created: %v", err)
	}
}

// The default store's data directory is reflect's own to create.
func TestDefaultStoreCreatesItsDataDirectory(t *testing.T) {
	f := writeFile(t, "c.jsonl", fakeCorpus(1))
	data := filepath.Join(t.TempDir(), "xdg")
	r := runWith(t, map[string]string{"REFLECT_STORE": "", "XDG_DATA_HOME": data}, "", "extract", "--batch", "--save", "--file", f)
	if r.code == ExitUsage || r.code == ExitPipeline {
		t.Fatalf("--save to the default store: exit %d %s", r.code, r.err)
	}
	if _, err := os.Stat(filepath.Join(data, "reflect", "reflect.db")); err != nil {
		t.Errorf("default store not created under XDG_DATA_HOME: %v", err)
	}
}
