package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/reflect-mcp/reflect/store"
	"github.com/reflect-mcp/reflect/store/storetest"
)

// A needs_review invoice for the keyless local extractor (examples inv-006).
const contentionText = "Fwd: invoice (text pasted below, PDF was too big)\n\n---------- Forwarded message ---------\nFrom: Priya Raman <accounts@brightpath.co.uk>\nSent: Monday 16 March 2026 09:12\n\nBrightPath Consulting Ltd\nInvoice No. BP-0392\nDate of issue: 14 Mar 2026\n\nWorkshop facilitation, 2 days      £1,600.00\nSubtotal                           £1,600.00\nVAT @ 20%                            £320.00\nTotal                              £1,920.00\n\nPayment terms: 30 days. Sort code 20-00-00."

// contentionFigures is what TestStoreContention measured.
type contentionFigures struct {
	needsReview, lost, busy, reviewerActions int
	enqueue                                  []time.Duration
	batches                                  int
}

// TestStoreContention is issue 10 §1: one store shared by the workstation's
// writes (Decide/Undo as the tui makes them), 10 `reflect mcp` processes
// whose agents call extract (needs_review) and then review_status, and
// `extract --batch --save` runs, all at once. Nothing promised may be lost
// and no "busy" may reach a user or agent. REFLECT_CONTENTION sets the
// duration (make bench: 30s); the default is short for make test.
func TestStoreContention(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns 11 reflect processes")
	}
	dur := 4 * time.Second
	if v := os.Getenv("REFLECT_CONTENTION"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			t.Fatalf("REFLECT_CONTENTION=%q: %v", v, err)
		}
		dur = d
	}
	bin := reflectBin(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "reflect.db")
	ctx := context.Background()
	ws, err := store.Open(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := storetest.Populate(ctx, ws, "ws", 3000); err != nil {
		t.Fatal(err)
	}
	batchFile := filepath.Join(dir, "batch.jsonl")
	writeBatchFile(t, batchFile, 100)

	var mu sync.Mutex
	var fig contentionFigures
	var problems []string
	problem := func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		if len(problems) < 20 {
			problems = append(problems, fmt.Sprintf(format, args...))
		}
		if strings.Contains(fmt.Sprintf(format, args...), "busy") {
			fig.busy++
		}
	}
	var traces []string
	stop := time.Now().Add(dur)
	var wg sync.WaitGroup

	// The workstation: a reviewer accepting fields and undoing now and then.
	wg.Go(func() {
		for i := 0; time.Now().Before(stop); i++ {
			doc := fmt.Sprintf("doc-%06d", rand.IntN(3000))
			var err error
			if i%5 == 4 {
				_, err = ws.Undo(ctx, "ws", "rev")
			} else {
				_, err = ws.Decide(ctx, store.Decision{CorpusID: "ws", DocID: doc, Field: "total", Action: store.ActionAccept, Reviewer: "rev"})
			}
			mu.Lock()
			fig.reviewerActions++
			mu.Unlock()
			if err != nil {
				problem("reviewer: %v", err)
			}
			time.Sleep(50 * time.Millisecond)
		}
	})

	// Ten agents, each with its own `reflect mcp`.
	for c := range 10 {
		wg.Go(func() {
			var stderr bytes.Buffer
			cmd := exec.Command(bin, "mcp", "--provider", "local", "--store", path, "--log-level", "warn")
			cmd.Stderr = &stderr
			cctx, cancel := context.WithTimeout(ctx, dur+2*time.Minute)
			defer cancel()
			client := mcpsdk.NewClient(&mcpsdk.Implementation{Name: fmt.Sprintf("agent-%d", c), Version: "1"}, nil)
			cs, err := client.Connect(cctx, &mcpsdk.CommandTransport{Command: cmd}, nil)
			if err != nil {
				problem("agent %d: start: %v\n%s", c, err, stderr.String())
				return
			}
			defer cs.Close()
			for time.Now().Before(stop) {
				t0 := time.Now()
				env, err := callTool(cctx, cs, "extract", map[string]any{"text": contentionText})
				took := time.Since(t0)
				if err != nil {
					problem("agent %d: extract: %v", c, err)
					continue
				}
				if env["status"] != "needs_review" {
					problem("agent %d: extract status %v", c, env["status"])
					continue
				}
				notes, _ := env["notes"].(string)
				if !strings.Contains(notes, "Queued for human review") {
					problem("agent %d: not queued: %s", c, notes)
				}
				trace, _ := env["trace_id"].(string)
				mu.Lock()
				fig.needsReview++
				fig.enqueue = append(fig.enqueue, took)
				traces = append(traces, trace)
				mu.Unlock()
				ans, err := callTool(cctx, cs, "review_status", map[string]any{"trace_id": trace})
				if err != nil {
					problem("agent %d: review_status: %v", c, err)
				} else if ans["status"] != "pending" && ans["status"] != "reviewed" {
					problem("agent %d: review_status right after extract: %v", c, ans)
				}
			}
		})
	}

	// Headless runs saving into the same store.
	wg.Go(func() {
		for time.Now().Before(stop) {
			var stderr bytes.Buffer
			cmd := exec.Command(bin, "extract", "--batch", "--file", batchFile, "--save", "--provider", "local",
				"--store", path, "--log-level", "warn")
			cmd.Stderr = &stderr
			cmd.Stdout = nil
			err := cmd.Run()
			code := cmd.ProcessState.ExitCode()
			if err != nil && code > 1 {
				problem("batch --save: exit %d: %s", code, stderr.String())
			}
			if s := stderr.String(); strings.Contains(s, "--save") {
				problem("batch --save: %s", s)
			}
			mu.Lock()
			fig.batches++
			mu.Unlock()
		}
	})
	wg.Wait()

	// Every needs_review answer must be findable afterwards, by a fresh
	// process's review_status.
	cs := mcpSession(t, bin, path)
	for _, tr := range traces {
		ans, err := callTool(ctx, cs, "review_status", map[string]any{"trace_id": tr})
		if err != nil || (ans["status"] != "pending" && ans["status"] != "reviewed") {
			fig.lost++
			if fig.lost <= 5 {
				t.Errorf("trace %s after the run: %v %v", tr, ans, err)
			}
		}
	}
	p50, p99 := pct(fig.enqueue, 0.50), pct(fig.enqueue, 0.99)
	fmt.Printf("store contention, %v: %d needs_review answers, %d reviewer actions, %d --save batches\n",
		dur, fig.needsReview, fig.reviewerActions, fig.batches)
	benchFigure("contention: needs_review results lost", fmt.Sprint(fig.lost), "0", fig.lost == 0)
	benchFigure("contention: busy errors surfaced", fmt.Sprint(fig.busy), "0", fig.busy == 0)
	benchFigure("contention: extract+enqueue p50", p50.Round(time.Microsecond).String(), "-", true)
	benchFigure("contention: extract+enqueue p99", p99.Round(time.Microsecond).String(), "<1s", p99 < time.Second)
	for _, p := range problems {
		t.Error(p)
	}
	if fig.needsReview == 0 || fig.batches == 0 {
		t.Fatalf("nothing ran: %+v", fig)
	}
	if fig.lost > 0 || fig.busy > 0 {
		t.Errorf("lost %d, busy %d", fig.lost, fig.busy)
	}
}

func pct(ds []time.Duration, q float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[min(len(s)-1, int(q*float64(len(s))))]
}

func writeBatchFile(t *testing.T, path string, n int) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	for i := range n {
		b, _ := json.Marshal(map[string]string{"id": fmt.Sprintf("b-%05d", i), "text": contentionText + fmt.Sprintf("Ref %d\n", i)})
		w.Write(append(b, '\n'))
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

func mcpSession(t *testing.T, bin, path string) *mcpsdk.ClientSession {
	t.Helper()
	cmd := exec.Command(bin, "mcp", "--provider", "local", "--store", path, "--log-level", "warn")
	client := mcpsdk.NewClient(&mcpsdk.Implementation{Name: "checker", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &mcpsdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func callTool(ctx context.Context, cs *mcpsdk.ClientSession, name string, args map[string]any) (map[string]any, error) {
	res, err := cs.CallTool(ctx, &mcpsdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		return nil, err
	}
	var out map[string]any
	for _, c := range res.Content {
		if tc, ok := c.(*mcpsdk.TextContent); ok {
			if err := json.Unmarshal([]byte(tc.Text), &out); err != nil {
				return nil, fmt.Errorf("%s answer: %w", name, err)
			}
			return out, nil
		}
	}
	return nil, fmt.Errorf("%s: no text content", name)
}
