package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/reflect-mcp/reflect/cmd/reflect/internal/fakemodel"
	"github.com/reflect-mcp/reflect/internal/benchfig"
	"github.com/reflect-mcp/reflect/internal/testclock"
)

// BenchmarkBatchThroughput runs `reflect extract --batch` over 500 documents
// against an OpenAI-compatible server, in a process of its own, that answers
// every call after a fixed delay (50ms: far below a real model's, so
// reflect's own overhead shows), and reports the run's speed as a ratio to
// the ideal (documents × calls × the model's latency / concurrency). The
// latency is what the server measured for its replies, not the 50 ms it
// aims at: a sleep in an otherwise idle process ends about 1 ms late, and
// that millisecond is the model's, not reflect's (it was two thirds of the
// gap at c=1). The server's clock runs from the request's first bytes read
// to its reply written (fakemodel.Model.ServeHTTP), so the server's parsing
// and writing are not counted as reflect's either. A document's two calls are one after the other, so the last
// round of documents is partial when concurrency does not divide their
// number (500 at 32: 16 rounds, not 15.6): the best ratio reachable, printed
// beside the figure, is (docs / c) / ceil(docs / c), 0.977 at 32. It counts the TCP connections the 1,000 calls opened, then reruns
// with a warm cache and reports the speed-up. make bench runs it with
// -benchtime 1x; each figure is printed as a BENCH line with its goal.
func BenchmarkBatchThroughput(b *testing.B) {
	const docs, calls, delay = 500, 2, 50 * time.Millisecond
	corpus := fakeCorpus(docs)
	srv := startFakeModel(b, delay)
	for _, conc := range []int{1, 8, 32} {
		b.Run(fmt.Sprintf("concurrency=%d", conc), func(b *testing.B) {
			b.Setenv("OPENAI_BASE_URL", srv.url+"/v1")
			b.Setenv("OPENAI_API_KEY", "sk-bench")
			b.Setenv("REFLECT_PROVIDER", "")
			dir := b.TempDir()
			var cold, warm, coldCPU time.Duration
			var coldAllocs uint64
			var coldStats, warmStats fakemodel.Stats
			for i := 0; b.Loop(); i++ {
				// A cache of its own each time: a first run is cold.
				cache := filepath.Join(dir, fmt.Sprintf("calls-%d.db", i))
				args := []string{"extract", "--batch", "--batch-concurrency", fmt.Sprint(conc), "--cache", cache, "--log-level", "error"}
				srv.reset(b)
				allocs0 := mallocs()
				start, cpu0 := time.Now(), testclock.CPUTime()
				runBatchBench(b, corpus, args)
				cold = time.Since(start)
				coldCPU += testclock.CPUTime() - cpu0
				coldAllocs += mallocs() - allocs0
				coldStats = srv.stats(b)
				if coldStats.Requests != docs*calls {
					b.Fatalf("cold run made %d requests, want %d", coldStats.Requests, docs*calls)
				}
				srv.reset(b)
				start = time.Now()
				runBatchBench(b, corpus, args)
				warm = time.Since(start)
				if warmStats = srv.stats(b); warmStats.Requests != 0 {
					b.Fatalf("cached rerun made %d requests, want 0", warmStats.Requests)
				}
			}
			latency := time.Duration(coldStats.ServedNs / coldStats.Requests)
			ideal := time.Duration(docs*calls) * latency / time.Duration(conc)
			rounds := (docs + conc - 1) / conc
			best := ideal.Seconds() / (time.Duration(rounds*calls) * latency).Seconds()
			ratio, speedup := ideal.Seconds()/cold.Seconds(), cold.Seconds()/warm.Seconds()
			b.ReportMetric(ratio, "ratio-to-ideal")
			b.ReportMetric(best, "best-ratio")
			b.ReportMetric(latency.Seconds()*1000, "model-ms/call")
			b.ReportMetric(cold.Seconds(), "cold-s")
			b.ReportMetric(float64(coldStats.Conns), "tcp-conns")
			// The process's CPU and heap allocations in the cold runs, per
			// document and per model call, averaged over every iteration: what
			// queues on the cores when a round of replies arrives (the fake
			// model is another process).
			runs := float64(b.N)
			b.ReportMetric(float64(coldCPU.Microseconds())/docs/runs, "cold-cpu-µs/doc")
			b.ReportMetric(float64(coldAllocs)/(docs*calls)/runs, "cold-allocs/call")
			b.ReportMetric(warm.Seconds(), "cached-s")
			b.ReportMetric(speedup, "cache-speedup")
			c := fmt.Sprintf("c=%d", conc)
			benchFigure(fmt.Sprintf("extract --batch vs ideal, model 50 ms, %s (best %.3f)", c, best), fmt.Sprintf("%.3f", ratio), "≥ 0.95", ratio >= 0.95)
			benchFigure("extract --batch TCP connections for 1,000 calls, "+c, fmt.Sprint(coldStats.Conns), fmt.Sprintf("≤ %d", conc), coldStats.Conns <= int64(conc))
			benchFigure("cached rerun model calls, "+c, fmt.Sprint(warmStats.Requests), "0", warmStats.Requests == 0)
			benchFigure("cached rerun speed-up over first run, "+c, fmt.Sprintf("%.0f×", speedup), "≥ 50×", speedup >= 50)
		})
	}
}

// mallocs is the number of heap allocations the process made so far.
func mallocs() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.Mallocs
}

// benchFigure prints one figure of make bench: name, value, goal, verdict.
func benchFigure(name, value, goal string, ok bool) { benchfig.Print(name, value, goal, ok) }

func runBatchBench(b *testing.B, corpus string, args []string) {
	var out, errb bytes.Buffer
	err := Run(context.Background(), args, Stdio{In: strings.NewReader(corpus), Out: &out, Err: &errb})
	if code := ExitCode(err); code > ExitNeedsReview {
		b.Fatalf("batch failed (exit %d): %v\n%s", code, err, errb.String())
	}
}

// fakeModelProc is fakemodel's server program running as a child process.
type fakeModelProc struct {
	url, control string
}

// startFakeModel builds internal/fakemodel/server and starts it; it ends
// when the benchmark does (its stdin closes).
func startFakeModel(b *testing.B, delay time.Duration) *fakeModelProc {
	b.Helper()
	bin := filepath.Join(b.TempDir(), "fakemodel")
	build := exec.Command("go", "build", "-o", bin, "./internal/fakemodel/server")
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("building the fake model server: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "-delay", delay.String())
	stdin, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		stdin.Close()
		if err := cmd.Wait(); err != nil {
			_ = cmd.Process.Kill()
		}
	})
	p := &fakeModelProc{}
	sc := bufio.NewScanner(stdout)
	for p.url == "" || p.control == "" {
		if !sc.Scan() {
			b.Fatalf("fake model server printed no addresses: %v", sc.Err())
		}
		if addr, ok := strings.CutPrefix(sc.Text(), "model "); ok {
			p.url = "http://" + addr
		} else if addr, ok := strings.CutPrefix(sc.Text(), "control "); ok {
			p.control = "http://" + addr
		}
	}
	go func() { _, _ = io.Copy(io.Discard, stdout) }()
	return p
}

func (p *fakeModelProc) stats(b *testing.B) fakemodel.Stats {
	var s fakemodel.Stats
	res, err := http.Get(p.control + "/stats")
	if err == nil {
		defer res.Body.Close()
		err = json.NewDecoder(res.Body).Decode(&s)
	}
	if err != nil {
		b.Fatalf("fake model stats: %v", err)
	}
	return s
}

func (p *fakeModelProc) reset(b *testing.B) {
	res, err := http.Post(p.control+"/reset", "", nil)
	if err != nil {
		b.Fatalf("fake model reset: %v", err)
	}
	res.Body.Close()
}
