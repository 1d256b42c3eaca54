package local_test

import (
	"context"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/reflect-mcp/reflect/golden"
	"github.com/reflect-mcp/reflect/pipeline"
	"github.com/reflect-mcp/reflect/providers/local"
)

// TestTierTable prints the README's per-tier table: how often each evidence
// tier's values were right against the hand labels, on dev (tuned) and check
// (confirmed). Opt-in (REFLECT_TIER_TABLE=1): it is how tiers.go's figures
// are measured, not a bar. The table's accuracy is the extractor's own, the
// same records the gate reads.
func TestTierTable(t *testing.T) {
	if os.Getenv("REFLECT_TIER_TABLE") == "" {
		t.Skip("set REFLECT_TIER_TABLE=1 to print the per-tier table")
	}
	schema := pipeline.Invoice()
	type tally struct{ right, all int }
	sets := []string{"dev", "check"}
	table := map[string]map[string]*tally{}
	for _, set := range sets {
		rows := loadRows(t, repoPath(t, "../shared/data/receipts-"+set+".jsonl"))
		labels, errs, err := golden.LoadLabels(repoPath(t, "golden/testdata/sroie/labels-"+set+".jsonl"))
		if err != nil || len(errs) > 0 {
			t.Fatalf("labels-%s: %v %v", set, err, errs)
		}
		labels.Apply(rows)
		for _, row := range rows {
			ext, err := local.New().Generate(context.Background(), pipeline.Document{ID: row.ID, Text: row.Text}, schema)
			if err != nil {
				t.Fatal(err)
			}
			for name, ev := range ext.Evidence {
				want, ok := row.Expected[name]
				if !ok || ev.Tier == "" {
					continue
				}
				f, _ := schema.Field(name)
				if table[ev.Tier] == nil {
					table[ev.Tier] = map[string]*tally{}
				}
				tl := table[ev.Tier][set]
				if tl == nil {
					tl = &tally{}
					table[ev.Tier][set] = tl
				}
				tl.all++
				if golden.FieldCorrect(f, want, ext.Record[name]) {
					tl.right++
				} else if os.Getenv("REFLECT_TIER_TABLE") == "v" {
					t.Logf("%s %s %s: got %v want %v", set, ev.Tier, row.ID, ext.Record[name], want)
				}
			}
		}
	}
	tiers := make([]string, 0, len(table))
	for k := range table {
		tiers = append(tiers, k)
	}
	sort.Strings(tiers)
	var b strings.Builder
	b.WriteString("| tier | confidence | dev right | check right |\n|---|---|---|---|\n")
	for _, tier := range tiers {
		cells := []string{}
		for _, set := range sets {
			tl := table[tier][set]
			if tl == nil {
				cells = append(cells, "-")
				continue
			}
			cells = append(cells, fmt.Sprintf("%d/%d (%.0f%%)", tl.right, tl.all, 100*float64(tl.right)/float64(tl.all)))
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", tier, local.TierConfidence(tier), cells[0], cells[1])
	}
	t.Log("\n" + b.String())
}
