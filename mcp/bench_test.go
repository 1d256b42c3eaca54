package mcp

import (
	"context"
	"fmt"
	"io"
	"net/http/httptest"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// The benchmarks measure a validate round trip (heuristics only, so the time
// is the protocol, the JSON and the deterministic checks, not a model) with 1
// and 8 clients calling at once, and report p50/p99 latency and throughput.

func BenchmarkValidateStdio(b *testing.B) {
	for _, clients := range []int{1, 8} {
		b.Run(fmt.Sprintf("clients=%d", clients), func(b *testing.B) {
			s := newTestServer(b, Config{Build: (&scriptBuilder{}).build})
			sessions := make([]*mcpsdk.ClientSession, clients)
			for i := range sessions {
				sessions[i] = pipeSession(b, s)
			}
			benchCalls(b, sessions)
		})
	}
}

func BenchmarkValidateHTTP(b *testing.B) {
	for _, clients := range []int{1, 8} {
		b.Run(fmt.Sprintf("clients=%d", clients), func(b *testing.B) {
			s := newTestServer(b, Config{Build: (&scriptBuilder{}).build})
			ts := httptest.NewServer(s.Handler(""))
			b.Cleanup(ts.Close)
			sessions := make([]*mcpsdk.ClientSession, clients)
			for i := range sessions {
				cs, err := httpSession(b, ts.URL, "")
				if err != nil {
					b.Fatal(err)
				}
				sessions[i] = cs
			}
			benchCalls(b, sessions)
		})
	}
}

// pipeSession connects a client to s over a pair of pipes, the way a stdio
// client talks to a server process, minus the process.
func pipeSession(b *testing.B, s *Server) *mcpsdk.ClientSession {
	b.Helper()
	ctx := context.Background()
	toServerR, toServerW := io.Pipe()
	toClientR, toClientW := io.Pipe()
	// The server side is reflect's own stdio transport, as ServeStdio runs it.
	ss, err := s.SDK().Connect(ctx, &lineTransport{r: toServerR, w: toClientW, log: s.log}, nil)
	if err != nil {
		b.Fatal(err)
	}
	c := mcpsdk.NewClient(&mcpsdk.Implementation{Name: "bench", Version: "1.0"}, nil)
	cs, err := c.Connect(ctx, &mcpsdk.IOTransport{Reader: toClientR, Writer: toServerW}, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		_ = cs.Close()
		_ = ss.Close()
	})
	return cs
}

// benchCalls makes b.N validate calls spread over the sessions, each session
// calling sequentially, all sessions at once.
func benchCalls(b *testing.B, sessions []*mcpsdk.ClientSession) {
	args := map[string]any{"text": demoText, "data": demoData(583.2), "heuristics_only": true}
	params := &mcpsdk.CallToolParams{Name: "validate", Arguments: args}
	lat := make([]time.Duration, b.N)
	var next atomic.Int64
	var failed atomic.Value
	var wg sync.WaitGroup
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	for _, cs := range sessions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= b.N {
					return
				}
				t0 := time.Now()
				res, err := cs.CallTool(context.Background(), params)
				lat[i] = time.Since(t0)
				if err != nil || res.IsError {
					failed.Store(fmt.Sprintf("call %d: err=%v isError=%v", i, err, res != nil && res.IsError))
					return
				}
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	if msg := failed.Load(); msg != nil {
		b.Fatal(msg)
	}
	slices.Sort(lat)
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	b.ReportMetric(ms(lat[len(lat)/2]), "p50_ms")
	b.ReportMetric(ms(lat[min(len(lat)-1, len(lat)*99/100)]), "p99_ms")
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "calls/s")
}
