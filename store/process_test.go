package store_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"github.com/reflect-mcp/reflect/store"
	"github.com/reflect-mcp/reflect/store/storetest"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/reflect-mcp/reflect/pipeline"
	"go.etcd.io/bbolt"
)

// The tests below re-execute the test binary as a separate writer process so
// locking and crash behaviour are exercised across real processes.
const (
	envHelper = "REFLECT_STORE_HELPER"
	envPath   = "REFLECT_STORE_HELPER_PATH"
	envArg    = "REFLECT_STORE_HELPER_ARG"
)

func helperCmd(t *testing.T, mode, path, arg string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$")
	cmd.Env = append(os.Environ(), envHelper+"="+mode, envPath+"="+path, envArg+"="+arg)
	cmd.Stderr = os.Stderr
	return cmd
}

// TestHelperProcess is not a test: it is the writer process the other tests
// start. It does nothing unless REFLECT_STORE_HELPER is set.
func TestHelperProcess(t *testing.T) {
	mode := os.Getenv(envHelper)
	if mode == "" {
		return
	}
	ctx := context.Background()
	path, arg := os.Getenv(envPath), os.Getenv(envArg)
	err := runHelper(ctx, mode, path, arg)
	if err != nil {
		fmt.Fprintln(os.Stderr, "helper:", err)
		os.Exit(1)
	}
	os.Exit(0)
}

func runHelper(ctx context.Context, mode, path, arg string) error {
	switch mode {
	case "decide-loop":
		// Decide as fast as possible; a line is printed only after Decide
		// returned, i.e. after the commit was fsynced.
		s, err := store.Open(path, store.Options{Timeout: 5 * time.Second})
		if err != nil {
			return err
		}
		n, _ := strconv.Atoi(arg)
		out := bufio.NewWriter(os.Stdout)
		for i := 0; i < n; i++ {
			d := store.Decision{CorpusID: "c", DocID: fmt.Sprintf("doc-%06d", i), Field: "invoice_number",
				Action: store.ActionCorrect, Value: fmt.Sprintf("fixed-%d", i), Reviewer: "crash"}
			if _, err := s.Decide(ctx, d); err != nil {
				return err
			}
			fmt.Fprintf(out, "%d\n", i)
			if err := out.Flush(); err != nil {
				return err
			}
		}
		return nil
	case "writer":
		// arg is "worker,count": results and decisions for its own documents.
		w, count, ok := strings.Cut(arg, ",")
		if !ok {
			return fmt.Errorf("bad arg %q", arg)
		}
		worker, _ := strconv.Atoi(w)
		n, _ := strconv.Atoi(count)
		s, err := store.Open(path, store.Options{Timeout: 10 * time.Second})
		if err != nil {
			return err
		}
		for i := 0; i < n; i++ {
			doc := fmt.Sprintf("doc-%06d", worker*n+i)
			res := pipeline.Result{Status: pipeline.StatusOK, Data: pipeline.Record{"total": float64(i)}}
			if _, err := s.PutResult(ctx, "c", doc, fmt.Sprintf("w%d", worker), res); err != nil {
				return err
			}
			d := store.Decision{CorpusID: "c", DocID: doc, Field: "total", Action: store.ActionCorrect,
				Value: float64(1000 + i), Reviewer: fmt.Sprintf("worker-%d", worker)}
			if _, err := s.Decide(ctx, d); err != nil {
				return err
			}
		}
		return nil
	case "hold-read-lock":
		db, err := bbolt.Open(path, 0o600, &bbolt.Options{ReadOnly: true})
		if err != nil {
			return err
		}
		defer db.Close()
		fmt.Println("locked")
		_, _ = bufio.NewReader(os.Stdin).ReadString('\n')
		return nil
	case "check-read-only":
		return checkReadOnly(path)
	case "hold-lock":
		// Hold the write lock until stdin closes.
		db, err := bbolt.Open(path, 0o600, nil)
		if err != nil {
			return err
		}
		defer db.Close()
		fmt.Println("locked")
		_, _ = bufio.NewReader(os.Stdin).ReadString('\n')
		return nil
	}
	return fmt.Errorf("unknown helper mode %q", mode)
}

func TestStoreDecideSurvivesSIGKILL(t *testing.T) {
	if testing.Short() {
		t.Skip("starts subprocesses")
	}
	ctx := context.Background()
	const docs = 3000
	path := filepath.Join(t.TempDir(), "crash.db")
	s, err := store.Open(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := storetest.Populate(ctx, s, "c", docs); err != nil {
		t.Fatal(err)
	}
	printed := map[int]bool{}
	for round := 0; round < 4; round++ {
		cmd := helperCmd(t, "decide-loop", path, strconv.Itoa(docs))
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		var lines []int
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			sc := bufio.NewScanner(stdout)
			for sc.Scan() {
				if n, err := strconv.Atoi(sc.Text()); err == nil {
					lines = append(lines, n)
				}
			}
		}()
		time.Sleep(time.Duration(150+rand.IntN(400)) * time.Millisecond)
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		wg.Wait()
		_ = cmd.Wait()
		for _, n := range lines {
			printed[n] = true
		}
		t.Logf("round %d: writer printed %d committed decisions before SIGKILL", round, len(lines))

		checkFile(t, path)
		for n := range printed {
			decs, err := s.Decisions(ctx, "c", fmt.Sprintf("doc-%06d", n))
			if err != nil {
				t.Fatal(err)
			}
			if d, ok := decs["invoice_number"]; !ok || d.Value != fmt.Sprintf("fixed-%d", n) {
				t.Fatalf("round %d: decision %d was printed as committed but is missing (%+v)", round, n, d)
			}
		}
	}
	if len(printed) == 0 {
		t.Fatal("the writer never committed a decision")
	}
	// The store is still writable after the crashes.
	if _, err := s.Decide(ctx, store.Decision{CorpusID: "c", DocID: "doc-000000", Field: "tax", Action: store.ActionAccept, Reviewer: "after"}); err != nil {
		t.Fatalf("Decide after crashes: %v", err)
	}
}

func TestStoreConcurrentWriters(t *testing.T) {
	if testing.Short() {
		t.Skip("starts subprocesses")
	}
	ctx := context.Background()
	const workers, each = 3, 25
	path := filepath.Join(t.TempDir(), "shared.db")
	s, err := store.Open(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var docs []store.Document
	for i := 0; i < workers*each; i++ {
		docs = append(docs, store.Document{ID: fmt.Sprintf("doc-%06d", i), Seq: i, Text: "text"})
	}
	if err := s.PutCorpus(ctx, store.Corpus{ID: "c", Kind: "file"}, docs); err != nil {
		t.Fatal(err)
	}
	var cmds []*exec.Cmd
	for w := 0; w < workers; w++ {
		cmd := helperCmd(t, "writer", path, fmt.Sprintf("%d,%d", w, each))
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
	}
	for w, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Errorf("writer %d: %v", w, err)
		}
	}
	checkFile(t, path)
	st, err := s.Stats(ctx, "c")
	if err != nil {
		t.Fatal(err)
	}
	n := workers * each
	if st.WithResult != n || st.DecidedFields != n || st.Reviewed != n || st.CorrectedFields != n {
		t.Errorf("stats = %+v, want %d results, decisions, reviewed docs and corrections", st, n)
	}
	audit, err := s.Audit(ctx, "c")
	if err != nil {
		t.Fatal(err)
	}
	perWorker := map[string]int{}
	for _, e := range audit {
		perWorker[e.Who]++
	}
	for w := 0; w < workers; w++ {
		if got := perWorker[fmt.Sprintf("worker-%d", w)]; got != each {
			t.Errorf("worker %d has %d audit entries, want %d", w, got, each)
		}
	}
}

func TestStoreLockedByOtherProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("starts subprocesses")
	}
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "locked.db")
	if _, err := store.Open(path, store.Options{}); err != nil {
		t.Fatal(err)
	}
	s, err := store.Open(path, store.Options{Timeout: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if err := storetest.Populate(ctx, s, "c", 1); err != nil {
		t.Fatal(err)
	}
	cmd, stdin := startLockHolder(t, "hold-lock", path)

	done := make(chan error, 1)
	go func() {
		_, err := s.Decide(ctx, store.Decision{CorpusID: "c", DocID: "doc-000000", Field: "total", Action: store.ActionAccept, Reviewer: "r"})
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, store.ErrLocked) {
			t.Fatalf("Decide while locked: err = %v, want ErrLocked", err)
		}
		if !strings.Contains(err.Error(), path) {
			t.Errorf("error %q does not name the store file", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Decide hung while another process held the lock")
	}

	// Once the holder lets go, the same store works again.
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("holder: %v", err)
	}
	if _, err := s.Decide(ctx, store.Decision{CorpusID: "c", DocID: "doc-000000", Field: "total", Action: store.ActionAccept, Reviewer: "r"}); err != nil {
		t.Fatalf("Decide after release: %v", err)
	}
}

// startLockHolder runs a helper process that takes the store's lock (mode
// "hold-lock" or "hold-read-lock") and keeps it until the returned stdin is
// closed. It returns once the lock is held; the process is killed at cleanup.
func startLockHolder(t *testing.T, mode, path string) (*exec.Cmd, io.WriteCloser) {
	t.Helper()
	cmd := helperCmd(t, mode, path, "")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	if line, err := bufio.NewReader(stdout).ReadString('\n'); err != nil || line != "locked\n" {
		t.Fatalf("holder said %q, %v", line, err)
	}
	return cmd, stdin
}
