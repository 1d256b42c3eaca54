package coreapi

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/reflect-mcp/reflect/policy"
)

const benchClients = 16

func benchBodies(n int) [][]byte {
	kinds := []string{
		`{"agent":{"id":"agent:mcp-client","session_id":"b%d"},"action":{"namespace":"fs","verb":"read","ability":"fs/read_file"},"target":{"kind":"read_file","ref":"/data/a.txt","environment":"production"},"params":{"upstream":"fs","tool_name":"read_file","arguments":{"path":"/data/a.txt"}},"magnitude":{"count":1},"axes":{"reversibility":"reversible","blast_radius":"single","externality":"internal"},"approval":{"present":false,"hold_id":null},"meta":{"nonce":"n%d"}}`,
		`{"agent":{"id":"agent:mcp-client","session_id":"b%d"},"action":{"namespace":"notes","verb":"delete","ability":"notes/delete_note"},"target":{"kind":"delete_note","ref":"x","environment":"staging"},"params":{"upstream":"notes","tool_name":"delete_note","arguments":{"name":"x"}},"magnitude":{"count":1},"axes":{"reversibility":"irreversible","blast_radius":"single","externality":"internal"},"meta":{"nonce":"n%d"}}`,
		`{"agent":{"id":"agent:mcp-client","session_id":"b%d"},"action":{"namespace":"gh","verb":"create","ability":"github/create_issue"},"target":{"kind":"create_issue","environment":"production"},"params":{"upstream":"github","tool_name":"create_issue","arguments":{"title":"t"}},"axes":{"reversibility":"recoverable","blast_radius":"single","externality":"outbound"},"meta":{"nonce":"n%d"}}`,
	}
	out := make([][]byte, n)
	for i := range out {
		out[i] = fmt.Appendf(nil, kinds[i%len(kinds)], i%4096, i)
	}
	return out
}

// run fires n requests from benchClients keep-alive clients and returns the
// sorted latencies per class (class(i), or one class when nil) and the wall
// time.
func run(b *testing.B, client *http.Client, n int, req func(i int) *http.Request, class func(i int) int) ([][]time.Duration, time.Duration) {
	lat := make([]time.Duration, n)
	var wg sync.WaitGroup
	start := time.Now()
	for c := range benchClients {
		wg.Go(func() {
			for i := c; i < n; i += benchClients {
				st := time.Now()
				r, err := client.Do(req(i))
				if err != nil {
					b.Error(err)
					return
				}
				_, _ = io.Copy(io.Discard, r.Body)
				r.Body.Close()
				if r.StatusCode != 200 {
					b.Errorf("status %d", r.StatusCode)
					return
				}
				lat[i] = time.Since(st)
			}
		})
	}
	wg.Wait()
	wall := time.Since(start)
	if class == nil {
		class = func(int) int { return 0 }
	}
	var out [][]time.Duration
	for i, l := range lat {
		c := class(i)
		for len(out) <= c {
			out = append(out, nil)
		}
		out[c] = append(out[c], l)
	}
	for _, l := range out {
		slices.Sort(l)
	}
	return out, wall
}

func pct(l []time.Duration, p float64) float64 {
	return float64(l[min(len(l)-1, int(float64(len(l))*p))].Microseconds())
}

// BenchmarkDecideHTTP is POST /v1/decide over a real loopback listener at 16
// concurrent keep-alive clients. Phase one alternates decide and /healthz on
// every client (decide-p50/p99, healthz-p50 and their ratio, measured under
// the same load); phase two is decide alone (req/s and its p99). Every
// request carries a fresh nonce and one of 4096 sessions, like gateway
// traffic.
func BenchmarkDecideHTTP(b *testing.B) {
	e, err := policy.New(policy.Options{Getenv: func(string) string { return "" }})
	if err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer(Handler(e, Config{AuthToken: "tok"}))
	defer srv.Close()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: benchClients, MaxConnsPerHost: benchClients}}
	n := max(b.N, 20000)
	bodies := benchBodies(2 * n) // every nonce used once
	decide := func(i int) *http.Request {
		r, _ := http.NewRequest("POST", srv.URL+"/v1/decide", bytes.NewReader(bodies[i]))
		r.Header.Set("Authorization", "Bearer tok")
		return r
	}
	health := func(int) *http.Request {
		r, _ := http.NewRequest("GET", srv.URL+"/healthz", nil)
		return r
	}
	run(b, client, 2000, health, nil) // warm the connections
	// Each client alternates a decide and a /healthz round trip, so both
	// see the same load on a shared machine; then decide alone gives the
	// throughput.
	b.ResetTimer()
	mixed, _ := run(b, client, 2*n, func(i int) *http.Request {
		if i%2 == 0 {
			return decide(i / 2)
		}
		return health(i)
	}, func(i int) int { return i % 2 })
	dl, hl := mixed[0], mixed[1]
	tl, wall := run(b, client, n, func(i int) *http.Request { return decide(n + i) }, nil)
	b.StopTimer()
	b.ReportMetric(pct(tl[0], 0.99), "decide-alone-p99-µs")
	b.ReportMetric(float64(n)/wall.Seconds(), "decide-req/s")
	b.ReportMetric(pct(dl, 0.5), "decide-p50-µs")
	b.ReportMetric(pct(dl, 0.99), "decide-p99-µs")
	b.ReportMetric(pct(hl, 0.5), "healthz-p50-µs")
	b.ReportMetric(pct(dl, 0.5)/max(pct(hl, 0.5), 1), "p50-ratio")
}
