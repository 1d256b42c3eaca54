package providers

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// putAll commits n entries of size bytes under keys prefix-i through c.
func putAll(t *testing.T, c *Cache, prefix string, n, size int) {
	t.Helper()
	for i := range n {
		c.put(fmt.Appendf(nil, "%s-%d", prefix, i), cacheEntry{Text: strings.Repeat("x", size)})
		c.Flush()
	}
	if st := c.Stats(); st.Faults != 0 {
		t.Fatalf("%s: %+v", prefix, st)
	}
}

// Commits one after another share one read-write open, even when they grow
// the file, and still hold the file's lock only while they run.
func TestCacheCommitsShareAnOpen(t *testing.T) {
	if !leaseKeepsOpen {
		t.Skip("here a commit gives its lock back by closing")
	}
	path := filepath.Join(t.TempDir(), "calls.db")
	c, err := OpenCache(path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	before := c.opens.Load()
	putAll(t, c, "own", 30, 4<<10) // 120 KB: the file grows
	if opens := c.opens.Load() - before; opens > 1 {
		t.Errorf("30 commits opened the file %d times, want at most once (the open that created the file may serve them all)", opens)
	}
	// Between commits the file is free: a reader elsewhere gets in at once.
	r, release := holdFile(t, path)
	if n := storedKeys(t, r); n != 30 {
		t.Fatalf("a reader elsewhere found %d entries, want 30", n)
	}
	release()
}

// A cache filling up from nothing grows its file once, not at every
// doubling of bbolt's memory map: each growth is an fsync inside a commit
// that lookups wait for, and sends the kept opens to open the file again.
func TestCacheFileGrowsOnceToItsMap(t *testing.T) {
	path := filepath.Join(t.TempDir(), "calls.db")
	c, err := OpenCache(path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	sizes := map[int64]bool{fileSize(t, path): true}
	const n, size = 64, 16 << 10 // 1 MiB: a cold batch of 1,000 calls
	for i := range n {
		c.put(fmt.Appendf(nil, "grow-%d", i), cacheEntry{Text: strings.Repeat("x", size)})
		c.Flush()
		sizes[fileSize(t, path)] = true
	}
	if st := c.Stats(); st.Faults != 0 {
		t.Fatal(st)
	}
	if len(sizes) > 2 {
		t.Errorf("the file took %d sizes while 1 MiB was committed, want 2 (one growth, to the map's %d bytes)", len(sizes), cacheMapSize)
	}
	if fileSize(t, path) != cacheMapSize {
		t.Errorf("the file is %d bytes, want the map's %d", fileSize(t, path), cacheMapSize)
	}
}

// A commit made elsewhere between two of ours (small, large enough to grow
// the file, or on a file that replaced ours) makes our next commit open
// afresh: a kept read-write open's freelist would be stale and overwrite
// the pages the other commit used. Every entry of every writer stays
// readable and the file checks clean.
func TestCacheWriterSeesCommitsElsewhere(t *testing.T) {
	for _, tc := range []struct {
		name      string
		n, size   int
		replace   bool
		wantAfter int // entries in the file after our last commit
	}{
		{"small", 3, 10, false, 9},
		{"grows the file", 60, 4 << 10, false, 66},
		{"replaced file", 3, 10, true, 6},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "calls.db")
			c, err := OpenCache(path)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			putAll(t, c, "ours-before", 3, 100)
			if tc.replace {
				if err := os.Rename(path, path+".old"); err != nil {
					t.Fatal(err)
				}
			}
			other, err := OpenCache(path)
			if err != nil {
				t.Fatal(err)
			}
			putAll(t, other, "theirs", tc.n, tc.size)
			if err := other.Close(); err != nil {
				t.Fatal(err)
			}
			putAll(t, c, "ours-after", 3, 100)
			if err := c.Close(); err != nil {
				t.Fatal(err)
			}
			rep, err := CheckCache(path)
			if err != nil || !rep.OK() {
				t.Fatalf("check: %+v, %v", rep, err)
			}
			if rep.Entries != tc.wantAfter {
				t.Fatalf("the file holds %d entries, want %d", rep.Entries, tc.wantAfter)
			}
		})
	}
}

// The writer encodes the replies it commits: one that cannot be encoded (a
// NaN cost) is a fault, and the replies committed with it are stored.
func TestCacheWriterEncodesEachReply(t *testing.T) {
	path := filepath.Join(t.TempDir(), "calls.db")
	c, err := OpenCache(path)
	if err != nil {
		t.Fatal(err)
	}
	c.put([]byte("bad"), cacheEntry{Text: "x", CostUSD: math.NaN()})
	c.put([]byte("good"), cacheEntry{Text: "y"})
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if st := c.Stats(); st.Faults != 1 {
		t.Fatalf("stats %+v, want the NaN reply's fault", st)
	}
	rep, err := CheckCache(path)
	if err != nil || !rep.OK() || rep.Entries != 1 {
		t.Fatalf("check: %+v, %v; want the good reply stored", rep, err)
	}
}
