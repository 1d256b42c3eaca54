package pipeline_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/reflect-mcp/reflect/pipeline"
	"github.com/reflect-mcp/reflect/pipeline/llm"
)

// paidClient answers from a script and bills every call, like a live model:
// 100 tokens in, 10 out, a cent, 5 ms.
func paidClient(replies ...string) (llm.Client, *int) {
	calls := 0
	return llm.ClientFunc(func(ctx context.Context, req llm.Request) (llm.Response, error) {
		if calls >= len(replies) {
			return llm.Response{}, errors.New("unexpected call")
		}
		calls++
		return llm.Response{Text: replies[calls-1], Usage: llm.Usage{InputTokens: 100, OutputTokens: 10,
			CostUSD: 0.01, Latency: 5 * time.Millisecond}}, nil
	}), &calls
}

func wantUsage(t *testing.T, what string, u *pipeline.Usage, calls int) {
	t.Helper()
	if u == nil || u.Calls != calls || u.InputTokens != 100*calls || u.OutputTokens != 10*calls || u.LatencyMS != int64(5*calls) ||
		u.CostUSD < 0.01*float64(calls)-1e-9 {
		t.Fatalf("%s: usage %+v, want %d billed calls", what, u, calls)
	}
}

// Retries are paid for: a document whose Generator or Critic gives up still
// reports every call it made, so budgets and cost reports see them.
func TestFailedStagesReportTheirUsage(t *testing.T) {
	gen, _ := paidClient("no", "still no", "nope")
	p, err := pipeline.New(pipeline.Config{Gate: pipeline.DefaultGate(), Generator: pipeline.NewLLMGenerator(gen, pipeline.LLMOptions{})})
	if err != nil {
		t.Fatal(err)
	}
	res, err := p.Extract(context.Background(), pipeline.Document{Text: demoText})
	var ge *pipeline.GeneratorError
	if !errors.As(err, &ge) || res.Status != pipeline.StatusError {
		t.Fatalf("want a GeneratorError, got %v", err)
	}
	wantUsage(t, "failed generator", res.Usage, 3)

	gen, _ = paidClient(mustJSON(demoData(583.2)))
	crit, _ := paidClient(`{"field_verdicts": 1}`, `{}`, `[]`)
	p, err = pipeline.New(pipeline.Config{Gate: pipeline.DefaultGate(),
		Generator: pipeline.NewLLMGenerator(gen, pipeline.LLMOptions{}), Critic: pipeline.NewLLMCritic(crit, pipeline.LLMOptions{})})
	if err != nil {
		t.Fatal(err)
	}
	res, err = p.Extract(context.Background(), pipeline.Document{Text: demoText})
	var ce *pipeline.CriticError
	if !errors.As(err, &ce) {
		t.Fatalf("want a CriticError, got %v", err)
	}
	wantUsage(t, "generator plus failed critic", res.Usage, 4)

	gen, _ = paidClient("no", mustJSON(demoData(583.2)))
	crit, _ = paidClient("{}", verdicts(0.95))
	p, _ = pipeline.New(pipeline.Config{Gate: pipeline.DefaultGate(),
		Generator: pipeline.NewLLMGenerator(gen, pipeline.LLMOptions{}), Critic: pipeline.NewLLMCritic(crit, pipeline.LLMOptions{})})
	res, err = p.Extract(context.Background(), pipeline.Document{Text: demoText})
	if err != nil || res.Status != pipeline.StatusOK {
		t.Fatalf("recovered run: %v %s", err, res.Status)
	}
	wantUsage(t, "both stages retried once", res.Usage, 4)
}

// A cancelled context stops the retries even when the client answers
// regardless of it, as a cache hit does.
func TestRetriesStopWhenTheContextIsCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	calls := 0
	deaf := llm.ClientFunc(func(context.Context, llm.Request) (llm.Response, error) {
		calls++
		cancel() // Ctrl-C arrives while the first, unusable, reply is in flight
		return llm.Response{Text: "not json", Cached: true}, nil
	})
	g := pipeline.NewLLMGenerator(deaf, pipeline.LLMOptions{Retries: 5})
	ext, err := g.Generate(ctx, pipeline.Document{Text: demoText}, pipeline.Invoice())
	if calls != 1 {
		t.Fatalf("%d calls after cancellation, want 1", calls)
	}
	if !errors.Is(err, context.Canceled) || !errors.Is(err, pipeline.ErrNoJSON) {
		t.Fatalf("error %v should say it was cancelled and why the last reply failed", err)
	}
	if ext.Usage.Calls != 1 || ext.Usage.CachedCalls != 1 {
		t.Fatalf("usage %+v, want the one cached call", ext.Usage)
	}
	if !strings.Contains(err.Error(), "attempt 2") {
		t.Fatalf("error %q should say which attempt was not made", err)
	}
}

// A call the vendor billed before it failed (cut off, refused) is in the
// error result's usage.
func TestBilledFailureCountsInUsage(t *testing.T) {
	billed := llm.ClientFunc(func(ctx context.Context, req llm.Request) (llm.Response, error) {
		return llm.Response{Usage: llm.Usage{InputTokens: 700, OutputTokens: 4096, CostUSD: 0.01}}, errors.New("cut off at the token limit")
	})
	p, err := pipeline.New(pipeline.Config{Generator: pipeline.NewLLMGenerator(billed, pipeline.LLMOptions{Model: "m"}), Gate: pipeline.DefaultGate()})
	if err != nil {
		t.Fatal(err)
	}
	res, err := p.Extract(context.Background(), pipeline.Document{Text: "Total 5.00"})
	if err == nil || res.Usage == nil || res.Usage.OutputTokens != 4096 || res.Usage.CostUSD != 0.01 {
		t.Fatalf("usage of a billed failure: %+v (err %v)", res.Usage, err)
	}
}

// With a handler that takes Info lines, every stage of a document logs one
// line, each carrying the document's trace id and then its id.
func TestStageLinesCarryTheTraceAndDocumentID(t *testing.T) {
	var buf bytes.Buffer
	gen, _ := paidClient(mustJSON(demoData(583.2)))
	crit, _ := paidClient(verdicts(0.95))
	p, err := pipeline.New(pipeline.Config{Gate: pipeline.DefaultGate(),
		Logger:    slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: slog.LevelInfo})),
		Generator: pipeline.NewLLMGenerator(gen, pipeline.LLMOptions{}), Critic: pipeline.NewLLMCritic(crit, pipeline.LLMOptions{})})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Extract(context.Background(), pipeline.Document{ID: "inv-7", Text: demoText}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	var stages []string
	for _, l := range lines {
		var rec struct{ Stage string }
		_ = json.Unmarshal([]byte(l), &rec)
		stages = append(stages, rec.Stage)
		if !regexp.MustCompile(`"trace_id":"trace-[0-9a-f]+","doc_id":"inv-7",`).MatchString(l) {
			t.Errorf("line without the trace id and then the document id: %s", l)
		}
	}
	if got := strings.Join(stages, " "); got != "generate heuristics critique gate" {
		t.Errorf("stages logged: %q, want generate heuristics critique gate", got)
	}
}
