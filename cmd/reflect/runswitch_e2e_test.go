package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestReviewUnderAnotherProviderKeepsDecisions is new-user report #1 with
// the real binary in a terminal: bulk-accept the ok tab under --provider
// local, open the corpus once under --provider replay, then under local
// again. The replay open must not turn accepts into corrections (stats and
// export), and the local reopen must show local's results again (0 errors),
// not replay's.
func TestReviewUnderAnotherProviderKeepsDecisions(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: builds the binary")
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed")
	}
	dir, err := os.MkdirTemp("", "rfsw")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	bin := buildBinary(t, dir)
	src, err := os.ReadFile(filepath.Join("..", "..", "examples", "invoices.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	corpus := filepath.Join(dir, "inv2.jsonl")
	if err := os.WriteFile(corpus, src, 0o644); err != nil {
		t.Fatal(err)
	}
	storePath := filepath.Join(dir, "r.db")
	env := cleanEnv("NO_COLOR=1", "REFLECT_CACHE="+filepath.Join(dir, "cache.db"))
	tm := &tmuxTerm{t: t, sock: filepath.Join(dir, "tmux.sock"), env: env}
	t.Cleanup(func() { _, _ = tm.run("kill-server") })
	tm.must("new-session", "-d", "-s", "keep", "sh", "-c", "sleep 600")
	open := func(session, provider string) {
		t.Helper()
		rc := filepath.Join(dir, "rc-"+session)
		cmd := fmt.Sprintf("%q review %q --store %q --reviewer ana --provider %s 2>%q; echo $? > %q", bin, corpus, storePath, provider, rc+".err", rc)
		tm.must("new-session", "-d", "-s", session, "-x", "120", "-y", "35", "-e", "NO_COLOR=1", "sh", "-c", cmd)
		tm.waitText(session, "you: ana")
	}
	quit := func(session string) {
		t.Helper()
		tm.keys(session, "q")
		if rc := waitExit(t, tm, session, filepath.Join(dir, "rc-"+session)); rc != 0 {
			t.Fatalf("%s: review exit %d", session, rc)
		}
	}
	stats := func() string {
		t.Helper()
		cmd := exec.Command(bin, "stats", "--corpus", corpus, "--store", storePath)
		cmd.Env = env
		out, _ := cmd.CombinedOutput() // exit 1 on a budget breach is fine here
		return string(out)
	}

	open("local1", "local")
	tm.waitText("local1", "24/24", "done")
	tm.keys("local1", "2")
	// Every field at or above 0.90 in the ok tab's documents; inv-004's
	// currency, read from "Please pay in GBP", is one of them.
	if n := bulkAcceptE2E(t, tm, "local1"); n != 81 {
		t.Fatalf("bulk accept settled %d fields, want 81", n)
	}
	tm.waitText("local1", "4 reviewed 14")
	quit("local1")
	before := stats()
	if !strings.Contains(before, "decided fields    : 81 (0 corrected)") {
		t.Fatalf("stats after the bulk accept:\n%s", before)
	}

	open("replay", "replay")
	// The replay run's results are in the store once stats counts its
	// errors (it has no recording for 8 of the documents).
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(stats(), "24 with a result, 8 errors") {
		if time.Now().After(deadline) {
			t.Fatalf("the replay run stored no results:\n%s", stats())
		}
		time.Sleep(200 * time.Millisecond)
	}
	quit("replay")
	if s := stats(); !strings.Contains(s, "(0 corrected)") || !strings.Contains(s, "silent-wrong 0") {
		t.Errorf("stats after one replay open: accepts became corrections:\n%s", s)
	}
	cmd := exec.Command(bin, "export", "--golden", "-", "--corpus", corpus, "--store", storePath)
	cmd.Env = env
	out, err := cmd.Output()
	if err != nil || strings.Contains(string(out), `"corrected":["`) {
		t.Errorf("export after a replay open holds corrections nobody made (%v):\n%s", err, out)
	}

	open("local2", "local")
	tm.waitText("local2", "3 errors 0", "4 reviewed 14")
	quit("local2")
	if s := stats(); !strings.Contains(s, "24 with a result, 0 errors") || !strings.Contains(s, "reviewed          : 14") ||
		!strings.Contains(lineOf(s, "pipeline run"), "/local+") || !strings.Contains(lineOf(s, "pipeline run"), "(24)") {
		t.Errorf("stats after reopening under local: not local's results:\n%s", s)
	}
}
