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
// sorted latencies and the wall time.
func run(b *testing.B, client *http.Client, n int, req func(i int) *http.Request) ([]time.Duration, time.Duration) {
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
	slices.Sort(lat)
	return lat, wall
}

func pct(l []time.Duration, p float64) float64 {
	return float64(l[min(len(l)-1, int(float64(len(l))*p))].Microseconds())
}

// BenchmarkDecideHTTP is POST /v1/decide over a real loopback listener at 16
// concurrent keep-alive clients: throughput, p50 and p99, and in the same
// run the p50 of a /healthz round trip, so the decision's own cost shows
// as the ratio between the two.
func BenchmarkDecideHTTP(b *testing.B) {
	e, err := policy.New(policy.Options{Getenv: func(string) string { return "" }})
	if err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer(Handler(e, Config{AuthToken: "tok"}))
	defer srv.Close()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: benchClients, MaxConnsPerHost: benchClients}}
	n := max(b.N, 20000)
	bodies := benchBodies(n)
	decide := func(i int) *http.Request {
		r, _ := http.NewRequest("POST", srv.URL+"/v1/decide", bytes.NewReader(bodies[i]))
		r.Header.Set("Authorization", "Bearer tok")
		return r
	}
	health := func(int) *http.Request {
		r, _ := http.NewRequest("GET", srv.URL+"/healthz", nil)
		return r
	}
	run(b, client, 2000, health) // warm the connections
	b.ResetTimer()
	hl, _ := run(b, client, n, health)
	dl, wall := run(b, client, n, decide)
	b.StopTimer()
	b.ReportMetric(float64(n)/wall.Seconds(), "decide-req/s")
	b.ReportMetric(pct(dl, 0.5), "decide-p50-µs")
	b.ReportMetric(pct(dl, 0.99), "decide-p99-µs")
	b.ReportMetric(pct(hl, 0.5), "healthz-p50-µs")
	b.ReportMetric(pct(dl, 0.5)/max(pct(hl, 0.5), 1), "p50-ratio")
}
