package gateway

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"path/filepath"
	"runtime"
	"sort"
	"sync"
	"testing"
	"time"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/reflect-mcp/reflect/policy"
	"github.com/reflect-mcp/reflect/store"
)

// goUpstream is a Go MCP server on loopback streamable HTTP with one cheap
// read tool.
func goUpstream(b *testing.B) string {
	b.Helper()
	srv := mcpsdk.NewServer(&mcpsdk.Implementation{Name: "bench-upstream", Version: "1"}, nil)
	srv.AddTool(&mcpsdk.Tool{Name: "get_value", Annotations: &mcpsdk.ToolAnnotations{ReadOnlyHint: true},
		InputSchema: map[string]any{"type": "object", "properties": map[string]any{"key": map[string]any{"type": "string"}}}},
		func(_ context.Context, req *mcpsdk.CallToolRequest) (*mcpsdk.CallToolResult, error) {
			return &mcpsdk.CallToolResult{Content: []mcpsdk.Content{&mcpsdk.TextContent{Text: "value of " + string(req.Params.Arguments)}}}, nil
		})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	hs := &http.Server{Handler: mcpsdk.NewStreamableHTTPHandler(func(*http.Request) *mcpsdk.Server { return srv }, nil), ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = hs.Serve(ln) }()
	b.Cleanup(func() { _ = hs.Close() })
	return "http://" + ln.Addr().String() + "/mcp"
}

// BenchmarkGatewayAddedLatency measures tools/call through the gateway
// (enforce mode, the real policy engine in process: classify, envelope,
// decide, forward) against calling the same Go upstream directly, in one
// run, each over loopback streamable HTTP with one go-sdk client session per
// worker. Run with -benchtime Nx: N calls per phase.
func BenchmarkGatewayAddedLatency(b *testing.B) {
	for _, c := range []struct {
		conc    int
		onStore bool
	}{{1, false}, {16, false}, {1, true}} {
		name := fmt.Sprintf("c%d", c.conc)
		if c.onStore {
			// reflect gateway's default: the engine's ledger, nonces and
			// holds in the bbolt store (every decision is on disk).
			name += "-store"
		}
		conc := c.conc
		b.Run(name, func(b *testing.B) {
			url := goUpstream(b)
			huge := 1e12
			po := policy.Options{Logger: quietLogger(), Getenv: func(string) string { return "" },
				// The base pack holds a session after 200 objects touched;
				// a benchmark touches more.
				Budgets: &policy.Budgets{Default: map[string]policy.Limit{"objects_touched": {Limit: &huge}}}}
			if c.onStore {
				st, err := store.Open(filepath.Join(b.TempDir(), "reflect.db"), store.Options{})
				if err != nil {
					b.Fatal(err)
				}
				po.State = st.PolicyState()
			}
			eng, err := policy.New(po)
			if err != nil {
				b.Fatal(err)
			}
			defer eng.Close()
			_, front := startGateway(b, Options{Decider: InProcess(eng), Mode: ModeEnforce,
				Upstreams: []UpstreamConfig{{Name: "kv", URL: url, System: "kv", Environment: "production", Required: true}}})
			_ = front.Close()
			gwURL := gatewayURL(b)
			direct, via := interleaved(b, conc, url, gwURL)
			dp50, dp99 := pct(direct, 0.50), pct(direct, 0.99)
			gp50, gp99 := pct(via, 0.50), pct(via, 0.99)
			b.ReportMetric(us(dp50), "direct_p50_us")
			b.ReportMetric(us(dp99), "direct_p99_us")
			b.ReportMetric(us(gp50), "gateway_p50_us")
			b.ReportMetric(us(gp99), "gateway_p99_us")
			b.ReportMetric(us(gp50-dp50), "added_p50_us")
			b.ReportMetric(us(gp99-dp99), "added_p99_us")
			b.ReportMetric(0, "ns/op")
		})
	}
}

// lastGatewayURL lets the benchmark reach the front startGateway served.
var lastGatewayURL sync.Map

func gatewayURL(b *testing.B) string {
	v, ok := lastGatewayURL.Load(b.Name())
	if !ok {
		b.Fatal("no gateway URL recorded")
	}
	return v.(string)
}

// interleaved makes b.N direct calls and b.N gateway calls over conc
// workers, each alternating one of each, so both see the same machine load.
func interleaved(b *testing.B, conc int, directURL, gwURL string) (direct, via []time.Duration) {
	b.Helper()
	type pair struct{ d, g *mcpsdk.ClientSession }
	ws := make([]pair, conc)
	for i := range ws {
		ws[i] = pair{connectHTTP(b, directURL, nil), connectHTTP(b, gwURL, nil)}
		defer ws[i].d.Close()
		defer ws[i].g.Close()
		call(b, ws[i].d, "get_value", map[string]any{"key": "warm"})
		call(b, ws[i].g, "kv__get_value", map[string]any{"key": "warm"})
	}
	direct, via = make([]time.Duration, b.N), make([]time.Duration, b.N)
	var mu sync.Mutex
	n := 0
	var wg sync.WaitGroup
	timed := func(cs *mcpsdk.ClientSession, tool string, i int) time.Duration {
		start := time.Now()
		res, err := cs.CallTool(context.Background(), &mcpsdk.CallToolParams{Name: tool, Arguments: map[string]any{"key": fmt.Sprint(i)}})
		d := time.Since(start)
		if err != nil || res.IsError {
			b.Errorf("call %s: %v %v", tool, err, res)
		}
		return d
	}
	for w := range conc {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				i := n
				n++
				mu.Unlock()
				if i >= b.N {
					return
				}
				if i%2 == 0 { // alternate the order too
					direct[i], via[i] = timed(ws[w].d, "get_value", i), timed(ws[w].g, "kv__get_value", i)
				} else {
					via[i], direct[i] = timed(ws[w].g, "kv__get_value", i), timed(ws[w].d, "get_value", i)
				}
			}
		}()
	}
	wg.Wait()
	return direct, via
}

func pct(xs []time.Duration, p float64) time.Duration {
	s := append([]time.Duration(nil), xs...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[int(p*float64(len(s)-1))]
}

func us(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }

// BenchmarkGatewayMemory1000Tools: the heap the gateway holds for a catalogue
// of 1,000 tools across 10 upstreams (in-process Go upstreams, so their own
// memory is in the figure too; it is reported separately).
func BenchmarkGatewayMemory1000Tools(b *testing.B) {
	for range b.N {
		ups := make([]Builtin, 10)
		for i := range ups {
			s := mcpsdk.NewServer(&mcpsdk.Implementation{Name: "u", Version: "1"}, nil)
			for j := range 100 {
				s.AddTool(&mcpsdk.Tool{Name: fmt.Sprintf("tool_%03d", j), Description: "a tool with a description of ordinary length, about one line of text",
					InputSchema: map[string]any{"type": "object", "properties": map[string]any{
						"id": map[string]any{"type": "string", "description": "which item"}, "limit": map[string]any{"type": "integer"}}}},
					func(context.Context, *mcpsdk.CallToolRequest) (*mcpsdk.CallToolResult, error) {
						return &mcpsdk.CallToolResult{}, nil
					})
			}
			ups[i] = Builtin{Name: fmt.Sprintf("up%d", i), System: "s", Environment: "dev", Server: s}
		}
		before := heap()
		g, err := New(Options{Builtins: ups, Decider: newTestEngine(), Logger: quietLogger()})
		if err != nil {
			b.Fatal(err)
		}
		if err := g.Start(context.Background()); err != nil {
			b.Fatal(err)
		}
		after := heap()
		if n := len(g.ToolNames()); n != 1000 {
			b.Fatalf("%d tools", n)
		}
		// The client side: one tools/list of all 1,000 through the front.
		ct, st := mcpsdk.NewInMemoryTransports()
		if _, err := g.Front().Connect(context.Background(), st, nil); err != nil {
			b.Fatal(err)
		}
		cs, err := mcpsdk.NewClient(&mcpsdk.Implementation{Name: "m", Version: "1"}, nil).Connect(context.Background(), ct, nil)
		if err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		if got := len(listTools(b, cs)); got != 1000 {
			b.Fatalf("listed %d", got)
		}
		b.ReportMetric(float64(time.Since(start).Microseconds())/1000, "list_1000_ms")
		b.ReportMetric(float64(after-before)/(1<<20), "gateway_heap_MB")
		_ = cs.Close()
		g.Close()
	}
}

func heap() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}
