package providers

import (
	"bytes"
	"errors"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// truncate cuts the cache file to frac of the pages its last transaction
// uses: a copy cut short, a disk that filled up. (The file itself is
// larger: bbolt grows it ahead of use, so a cut measured on its size may
// take only free space.)
func truncateFile(t *testing.T, path string, frac float64) {
	t.Helper()
	db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true, Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	var used int64
	err = db.View(func(tx *bolt.Tx) error { used = tx.Size(); return nil })
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(path, int64(float64(used)*frac)); err != nil {
		t.Fatal(err)
	}
}

// TestCacheTruncatedHelper opens the cache file named by the environment:
// run as a subprocess, so that a crash inside bbolt is a failed test, not a
// dead test binary.
func TestCacheTruncatedHelper(t *testing.T) {
	path := os.Getenv("REFLECT_CACHE_TRUNCATED")
	if path == "" {
		t.Skip("helper process")
	}
	var logged bytes.Buffer
	c, err := OpenCache(path)
	if err != nil {
		t.Fatalf("OpenCache: %v", err)
	}
	c.Logger = slog.New(slog.NewTextHandler(&logged, nil))
	// Every stored entry is looked up, so the cut-off pages are reached
	// whether or not opening did; each call is answered either way.
	exercise(t, c, "fill", 300)
	if n := strings.Count(logged.String(), "set aside"); n != 1 {
		t.Errorf("the damage was reported %d times, want once:\n%s", n, logged.String())
	}
}

// TestCacheTruncatedFileIsSetAside: a cache file cut short (bbolt maps
// pages past its end) used to kill every start with SIGBUS/SIGSEGV. It is
// reported once, moved aside, and a fresh cache takes its place.
func TestCacheTruncatedFileIsSetAside(t *testing.T) {
	for _, frac := range []float64{0.7, 0.5, 0.3} {
		dir := t.TempDir()
		path := filepath.Join(dir, "calls.db")
		c, err := OpenCache(path)
		if err != nil {
			t.Fatal(err)
		}
		fillCache(t, c, 300)
		truncateFile(t, path, frac)
		cmd := exec.Command(os.Args[0], "-test.run=^TestCacheTruncatedHelper$", "-test.v")
		cmd.Env = append(os.Environ(), "REFLECT_CACHE_TRUNCATED="+path)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("cut to %.0f%%: the process failed: %v\n%s", frac*100, err, out)
		}
		aside, _ := filepath.Glob(filepath.Join(dir, "calls.db.damaged-*"))
		if len(aside) != 1 {
			t.Errorf("cut to %.0f%%: set-aside files %v, want one", frac*100, aside)
		}
		// The next start finds a healthy cache and says nothing.
		c2, err := OpenCache(path)
		if err != nil || c2.Damage() != nil {
			t.Errorf("second start: %v, damage %v", err, c2.Damage())
		}
	}
}

// TestCacheNotBboltIsNotMoved: a file that is not a bbolt file at all may be
// something else the user pointed --cache at by mistake: it is refused and
// left where it is.
func TestCacheNotBboltIsNotMoved(t *testing.T) {
	path := filepath.Join(t.TempDir(), "notes.txt")
	text := []byte(strings.Repeat("my precious notes, not a cache\n", 400))
	if err := os.WriteFile(path, text, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenCache(path); err == nil || errors.Is(err, ErrCacheCorrupt) {
		t.Errorf("a text file: err = %v, want a refusal that is not ErrCacheCorrupt", err)
	}
	if b, _ := os.ReadFile(path); !bytes.Equal(b, text) {
		t.Error("the text file was changed or moved")
	}
}

func TestCheckCache(t *testing.T) {
	path := filepath.Join(t.TempDir(), "calls.db")
	fillCache(t, mustOpenCache(t, path), 100)
	rep, err := CheckCache(path)
	if err != nil || !rep.OK() || rep.Entries != 100 {
		t.Fatalf("healthy cache: %+v %v", rep, err)
	}
	damage(t, path)
	if rep, err := CheckCache(path); err != nil || rep.OK() {
		t.Errorf("damaged cache: %+v %v", rep, err)
	}
	path2 := filepath.Join(t.TempDir(), "calls.db")
	fillCache(t, mustOpenCache(t, path2), 300)
	truncateFile(t, path2, 0.5)
	if rep, err := CheckCache(path2); err != nil || rep.OK() {
		t.Errorf("truncated cache: %+v %v", rep, err)
	}
	if _, err := CheckCache(filepath.Join(t.TempDir(), "missing.db")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing cache: %v", err)
	}
}
