package pipeline_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/reflect-mcp/reflect/internal/benchfig"
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
func benchVerify(b *testing.B, path, figure string) {
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
	rate := float64(docs) / b.Elapsed().Seconds()
	b.ReportMetric(rate, "docs/s")
	benchfig.Print("verify (heuristics + gate) docs/s, one core, "+figure, fmt.Sprintf("%.0f", rate), "≥ 20,000", rate >= 20000)
}

func BenchmarkVerifyGolden(b *testing.B) {
	benchVerify(b, "../golden/dataset.jsonl", "bundled golden")
}

func BenchmarkVerifyReceipts(b *testing.B) {
	benchVerify(b, "../../shared/data/receipts-dev.jsonl", "SROIE receipts")
}

// BenchmarkVerifySize times verify (heuristics and gate) on one document of
// 1 KB to 1 MB, receipts repeated to size: 10x the text should cost at most
// 15x the time (issue 9; `make bench`, the pipeline line).
func BenchmarkVerifySize(b *testing.B) {
	rows := loadBenchRows(b, "../../shared/data/receipts-dev.jsonl")
	var all strings.Builder
	for _, r := range rows {
		all.WriteString(r.Text)
		all.WriteString("\n")
	}
	p, err := pipeline.New(pipeline.Config{Gate: pipeline.DefaultGate()})
	if err != nil {
		b.Fatal(err)
	}
	for _, size := range []int{1 << 10, 10 << 10, 100 << 10, 1 << 20} {
		text := strings.Repeat(all.String(), size/all.Len()+1)[:size]
		text = strings.ToValidUTF8(text, "")
		b.Run(fmt.Sprintf("%dKB", size>>10), func(b *testing.B) {
			for b.Loop() {
				if _, err := p.Validate(context.Background(), pipeline.Document{Text: text, TraceID: "bench"}, rows[0].Expected); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
