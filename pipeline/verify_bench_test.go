package pipeline_test

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"testing"

	"github.com/reflect-mcp/reflect/pipeline"
)

type benchRow struct {
	Text     string         `json:"text"`
	Expected map[string]any `json:"expected"`
}

func loadBenchRows(b *testing.B, path string) []benchRow {
	b.Helper()
	f, err := os.Open(path)
	if err != nil {
		b.Skipf("%s: %v", path, err)
	}
	defer f.Close()
	var rows []benchRow
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<22)
	for sc.Scan() {
		var r benchRow
		if json.Unmarshal(sc.Bytes(), &r) == nil && r.Text != "" && r.Expected != nil {
			rows = append(rows, r)
		}
	}
	return rows
}

// benchVerify measures verify throughput — heuristics and gate, no model — in
// documents per second. `make bench` runs it with -cpu 1: one core.
func benchVerify(b *testing.B, path string) {
	rows := loadBenchRows(b, path)
	p, err := pipeline.New(pipeline.Config{Gate: pipeline.DefaultGate()})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ResetTimer()
	docs := 0
	for b.Loop() {
		for _, r := range rows {
			if _, err := p.Validate(ctx, pipeline.Document{Text: r.Text, TraceID: "bench"}, r.Expected); err != nil {
				b.Fatal(err)
			}
			docs++
		}
	}
	b.ReportMetric(float64(docs)/b.Elapsed().Seconds(), "docs/s")
}

func BenchmarkVerifyGolden(b *testing.B)   { benchVerify(b, "../golden/dataset.jsonl") }
func BenchmarkVerifyReceipts(b *testing.B) { benchVerify(b, "../../shared/data/receipts-dev.jsonl") }
