package store_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"github.com/reflect-mcp/reflect/store"
	"github.com/reflect-mcp/reflect/store/storetest"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"go.etcd.io/bbolt"
)

// populated is a store of n synthetic documents.
func populated(t *testing.T, n int) *store.Store {
	t.Helper()
	s := openTemp(t)
	if err := storetest.Populate(context.Background(), s, "c", n); err != nil {
		t.Fatal(err)
	}
	return s
}

func TestStoreCorruptFileIsAnErrorNotAPanic(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()

	garbage := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(garbage, []byte("shopping list: eggs, milk\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := store.Open(garbage, store.Options{}); !errors.Is(err, store.ErrCorrupt) {
		t.Errorf("Open of a text file: err = %v, want ErrCorrupt", err)
	}

	for _, damage := range []struct {
		name string
		fn   func([]byte) []byte
	}{
		// Scribble over every data page but the two meta pages and the
		// freelist, as a bad disk or a stray write would.
		{"scribbled", func(b []byte) []byte {
			for off := 3 * 4096; off+64 <= len(b); off += 4096 {
				for i := range 64 {
					b[off+i] ^= 0xA5
				}
			}
			return b
		}},
		// A copy cut short, as an interrupted rsync leaves it.
		{"truncated", func(b []byte) []byte { return b[:len(b)/3] }},
	} {
		t.Run(damage.name, func(t *testing.T) {
			s := populated(t, 300)
			raw, err := os.ReadFile(s.Path())
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(s.Path(), damage.fn(raw), 0o600); err != nil {
				t.Fatal(err)
			}
			if _, err := store.Open(s.Path(), store.Options{}); !errors.Is(err, store.ErrCorrupt) {
				t.Errorf("Open: err = %v, want ErrCorrupt", err)
			}
			// A failed read must release its lock: the write after it
			// reaches the file and finds the damage, rather than ErrLocked.
			// Once a write has failed, the handle keeps saying why.
			d := store.Decision{CorpusID: "c", DocID: "doc-000004", Field: "total", Action: store.ActionAccept, Reviewer: "r"}
			calls := []struct {
				name string
				fn   func() error
			}{
				{"Summaries", func() error { _, err := s.Summaries(ctx, "c"); return err }},
				{"Decide", func() error { _, err := s.Decide(ctx, d); return err }},
				{"Decide again", func() error { _, err := s.Decide(ctx, d); return err }},
				{"Summaries again", func() error { _, err := s.Summaries(ctx, "c"); return err }},
			}
			for _, c := range calls {
				if err := c.fn(); !errors.Is(err, store.ErrCorrupt) || !strings.Contains(err.Error(), s.Path()) {
					t.Errorf("%s: err = %v, want ErrCorrupt naming the file", c.name, err)
				}
			}
		})
	}
}

// setVersion overwrites the file's schema version, as a newer reflect's
// migration would.
func setVersion(t *testing.T, path string, v uint64) {
	t.Helper()
	db, err := bbolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Update(func(tx *bbolt.Tx) error { return tx.Bucket(store.BktMeta).Put(store.KeyVersion, store.U64(v)) }); err != nil {
		t.Fatal(err)
	}
}

func TestStoreNewerSchemaIsNeitherOpenedNorWritten(t *testing.T) {
	ctx := context.Background()
	s := populated(t, 10)
	setVersion(t, s.Path(), store.SchemaVersion()+1)
	before, err := os.ReadFile(s.Path())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.Open(s.Path(), store.Options{}); err == nil || !strings.Contains(err.Error(), "upgrade reflect") {
		t.Errorf("Open of a newer file: err = %v, want a request to upgrade", err)
	}
	// A handle opened before the upgrade (a TUI left running) must stop
	// too, not write the old layout into the new file.
	d := store.Decision{CorpusID: "c", DocID: "doc-000004", Field: "total", Action: store.ActionAccept, Reviewer: "r"}
	if _, err := s.Decide(ctx, d); err == nil || !strings.Contains(err.Error(), "newer") {
		t.Errorf("Decide on a newer file: err = %v", err)
	}
	if _, err := s.Summaries(ctx, "c"); err == nil {
		t.Error("Summaries on a newer file succeeded")
	}
	after, err := os.ReadFile(s.Path())
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(before, after) {
		t.Error("the newer file was modified")
	}
}

// TestStoreOpenOnlyReadsACurrentFile holds a shared (reader's) lock on the
// file in another process: Open must still succeed, as it needs no write.
func TestStoreOpenOnlyReadsACurrentFile(t *testing.T) {
	if testing.Short() {
		t.Skip("starts subprocesses")
	}
	s := populated(t, 3)
	_, stdin := startLockHolder(t, "hold-read-lock", s.Path())
	if _, err := store.Open(s.Path(), store.Options{Timeout: 200 * time.Millisecond}); err != nil {
		t.Errorf("Open while another process reads: %v", err)
	}
	stdin.Close()
}

// checkReadOnly is what a store in a read-only directory must do: reads work,
// writes fail with a permission error, and a new store cannot be created.
func checkReadOnly(path string) error {
	ctx := context.Background()
	s, err := store.Open(path, store.Options{})
	if err != nil {
		return fmt.Errorf("Open of a read-only store: %w", err)
	}
	if sums, err := s.Summaries(ctx, "c"); err != nil || len(sums) != 3 {
		return fmt.Errorf("Summaries = %d rows, %v", len(sums), err)
	}
	_, err = s.Decide(ctx, store.Decision{CorpusID: "c", DocID: "doc-000001", Field: "total", Action: store.ActionAccept, Reviewer: "r"})
	if !errors.Is(err, fs.ErrPermission) || !strings.Contains(err.Error(), path) {
		return fmt.Errorf("Decide on a read-only store: err = %v, want a permission error naming the file", err)
	}
	fresh := filepath.Join(filepath.Dir(path), "new.db")
	if _, err := store.Open(fresh, store.Options{}); !errors.Is(err, fs.ErrPermission) {
		return fmt.Errorf("Open of a new store in a read-only directory: err = %v, want a permission error", err)
	}
	return nil
}

func TestStoreReadOnlyDirectory(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "ro")
	path := filepath.Join(dir, "reflect.db")
	s, err := store.Open(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := storetest.Populate(context.Background(), s, "c", 3); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o444); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.Chmod(dir, 0o755) })
	if os.Geteuid() != 0 {
		if err := checkReadOnly(path); err != nil {
			t.Fatal(err)
		}
		return
	}
	// Root ignores permissions, so run the check as nobody from a copy of
	// this test binary that nobody can execute.
	if testing.Short() {
		t.Skip("starts a subprocess as nobody")
	}
	for _, d := range []string{filepath.Dir(base), base} {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	bin := filepath.Join(base, "store.test")
	if err := copyFile(os.Args[0], bin); err != nil {
		t.Fatal(err)
	}
	cmd := helperCmd(t, "check-read-only", path, "")
	cmd.Path, cmd.Args[0] = bin, bin
	cmd.Dir = base
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.Output()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Skipf("cannot run a subprocess as nobody: %v", err)
	}
	if err != nil {
		t.Fatalf("as nobody: %v %s", err, out)
	}
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
