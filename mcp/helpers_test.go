package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"path/filepath"
	"reflect"
	"sync"
	"testing"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/reflect-mcp/reflect/pipeline"
	"github.com/reflect-mcp/reflect/providers"
	"github.com/reflect-mcp/reflect/store"
)

// The README's demo: the source states 583.20 as the amount due, the data says
// 683.2.
const demoText = "Hi team, forwarding the bill from Globex Ltd below.\nRef: GLX/2026/778\nBilling date 2026-02-28.\n" +
	"Items came to 540.00 before tax, tax was 43.20, and the amount due is 583.20. Please pay in GBP. Thanks!"

func demoData(total float64) map[string]any {
	return map[string]any{
		"vendor_name": "Globex Ltd", "invoice_number": "GLX/2026/778", "invoice_date": "2026-02-28",
		"subtotal": 540.0, "tax": 43.2, "total": total, "currency": "GBP",
	}
}

// demoCritique grounds every field except total.
const demoCritique = `{"field_verdicts":[
{"field":"vendor_name","confidence":0.97,"grounded":true},
{"field":"invoice_number","confidence":0.96,"grounded":true},
{"field":"invoice_date","confidence":0.95,"grounded":true},
{"field":"subtotal","confidence":0.95,"grounded":true},
{"field":"tax","confidence":0.95,"grounded":true},
{"field":"total","confidence":0.2,"grounded":false,"reason":"683.20 is not in the source"},
{"field":"currency","confidence":0.93,"grounded":true}],
"overall_confidence":0.7,"summary":"Total appears hallucinated; escalate."}`

// scriptBuilder builds pipelines whose Generator and Critic answer from
// scripts, one fresh script per call, and records what it was asked for.
type scriptBuilder struct {
	mu        sync.Mutex
	generator []string // replies of the Generator, per call
	critic    []string // replies of the Critic, per call
	err       error
	calls     []BuildOptions
}

func (b *scriptBuilder) build(_ context.Context, o BuildOptions) (*pipeline.Pipeline, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.calls = append(b.calls, o)
	if b.err != nil {
		return nil, b.err
	}
	cfg := pipeline.Config{Schema: o.Schema, Gate: o.Gate, Version: "test"}
	if o.NeedGenerator {
		cfg.Generator = pipeline.NewLLMGenerator(providers.NewScripted(b.generator...), pipeline.LLMOptions{Model: "gen", Retries: -1})
	}
	if !o.HeuristicsOnly {
		cfg.Critic = pipeline.NewLLMCritic(providers.NewScripted(b.critic...), pipeline.LLMOptions{Model: "crit", Retries: -1})
	}
	return pipeline.New(cfg)
}

func (b *scriptBuilder) last(t *testing.T) BuildOptions {
	t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.calls) == 0 {
		t.Fatal("the builder was never called")
	}
	return b.calls[len(b.calls)-1]
}

func quietLog() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

func envMap(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func newTestServer(t testing.TB, cfg Config) *Server {
	t.Helper()
	if cfg.Logger == nil {
		cfg.Logger = quietLog()
	}
	if cfg.Getenv == nil {
		cfg.Getenv = envMap(nil)
	}
	s, err := NewServer(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func openStore(t testing.TB) *store.Store {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "reflect.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Queued answers commit behind the reply (EnqueueDurable): wait for that
	// drain before the temporary directory goes, as `reflect mcp` does
	// before it exits, or the removal races it (CI saw "directory not
	// empty"). Registered after TempDir, so it runs before its removal.
	t.Cleanup(func() {
		if err := st.Flush(context.Background()); err != nil {
			t.Errorf("flush the store: %v", err)
		}
	})
	return st
}

// connect runs s over in-memory transports and returns a client session
// whose initialize request names the client clientName.
func connect(t testing.TB, s *Server, clientName string) *mcpsdk.ClientSession {
	t.Helper()
	ctx := context.Background()
	st, ct := mcpsdk.NewInMemoryTransports()
	ss, err := s.SDK().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	c := mcpsdk.NewClient(&mcpsdk.Implementation{Name: clientName, Version: "1.0"}, nil)
	cs, err := c.Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cs.Close()
		_ = ss.Wait()
	})
	return cs
}

// call invokes a tool and returns its JSON envelope, checking the contract
// every result keeps: one text content holding the same JSON as the
// structured content, and isError exactly when status is "error".
func call(t testing.TB, cs *mcpsdk.ClientSession, tool string, args any) map[string]any {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcpsdk.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: protocol error %v (the tools must never raise)", tool, err)
	}
	return checkEnvelope(t, tool, res)
}

func checkEnvelope(t testing.TB, tool string, res *mcpsdk.CallToolResult) map[string]any {
	t.Helper()
	if len(res.Content) != 1 {
		t.Fatalf("%s: %d content items, want 1", tool, len(res.Content))
	}
	tc, ok := res.Content[0].(*mcpsdk.TextContent)
	if !ok {
		t.Fatalf("%s: content is %T, want text", tool, res.Content[0])
	}
	var fromText map[string]any
	if err := json.Unmarshal([]byte(tc.Text), &fromText); err != nil {
		t.Fatalf("%s: text content is not JSON: %v\n%s", tool, err, tc.Text)
	}
	raw, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	var fromStruct map[string]any
	if err := json.Unmarshal(raw, &fromStruct); err != nil {
		t.Fatalf("%s: structured content is not an object: %s", tool, raw)
	}
	if !reflect.DeepEqual(fromText, fromStruct) {
		t.Fatalf("%s: text and structured content differ:\n%s\n%s", tool, tc.Text, raw)
	}
	if got, want := res.IsError, fromText["status"] == "error"; got != want {
		t.Fatalf("%s: isError=%v for status %v", tool, got, fromText["status"])
	}
	return fromText
}

func flaggedNames(env map[string]any) []string {
	var out []string
	list, _ := env["flagged_fields"].([]any)
	for _, f := range list {
		m, _ := f.(map[string]any)
		name, _ := m["field"].(string)
		out = append(out, name)
	}
	return out
}

var errNoKey = errors.New("ANTHROPIC_API_KEY is not set")

// lockedBuffer is a log written by the server's goroutines while a test
// reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Len()
}

func (l *lockedBuffer) Reset() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.b.Reset()
}
