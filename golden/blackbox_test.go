package golden

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"sort"
	"testing"

	"github.com/reflect-mcp/reflect/pipeline"
)

// blackboxRow is one document of testdata/blackbox: written, with its
// correct record and the wrong records a Generator plausibly produces, by a
// tester who never read the rules (68 documents from 20 countries: credit
// notes, statements, tips, rounding, injected totals, bill-to before vendor).
type blackboxRow struct {
	ID       string         `json:"id"`
	Text     string         `json:"text"`
	Expected map[string]any `json:"expected"`
	Wrong    []struct {
		Class   string         `json:"class"`
		Changed []string       `json:"changed"`
		Data    map[string]any `json:"data"`
	} `json:"wrong"`
}

// Pinned when the set was committed: every wrong field the heuristics-only
// gate lets through, and every correct field it flags. A rule that lets one
// more wrong value through, or flags more right ones, fails here; a fix that
// catches more lowers the pin. The silent ones still there are logged by
// class: they are the next work, not accepted behaviour.
const (
	blackboxMaxSilent      = 90
	blackboxMaxFalseAlarms = 13
)

func TestBlackboxWrongValuesAreFlagged(t *testing.T) {
	f, err := os.Open("testdata/blackbox/documents.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	p, err := pipeline.New(pipeline.Config{Schema: pipeline.Invoice(), Gate: pipeline.DefaultGate()})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	silentByClass := map[string]int{}
	silent, falseAlarms, wrongFields, docs := 0, 0, 0, 0
	for sc.Scan() {
		var row blackboxRow
		if err := json.Unmarshal(sc.Bytes(), &row); err != nil {
			t.Fatal(err)
		}
		docs++
		doc := pipeline.Document{ID: row.ID, Text: row.Text}
		res, err := p.Validate(ctx, doc, row.Expected)
		if err != nil {
			t.Fatalf("%s: %v", row.ID, err)
		}
		falseAlarms += len(res.FlaggedFields)
		for _, w := range row.Wrong {
			res, err := p.Validate(ctx, doc, w.Data)
			refused := err != nil || res.Status == pipeline.StatusError
			for _, field := range w.Changed {
				wrongFields++
				if refused || flaggedField(res, field) {
					continue
				}
				silent++
				silentByClass[w.Class]++
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	classes := make([]string, 0, len(silentByClass))
	for c := range silentByClass {
		classes = append(classes, c)
	}
	sort.Strings(classes)
	for _, c := range classes {
		t.Logf("silent %-28s %d", c, silentByClass[c])
	}
	t.Logf("%d documents, %d wrong fields: %d silent; %d correct fields flagged", docs, wrongFields, silent, falseAlarms)
	if silent > blackboxMaxSilent {
		t.Errorf("%d wrong fields pass unflagged, pinned at %d", silent, blackboxMaxSilent)
	}
	if falseAlarms > blackboxMaxFalseAlarms {
		t.Errorf("%d correct fields flagged, pinned at %d", falseAlarms, blackboxMaxFalseAlarms)
	}
}

func flaggedField(res pipeline.Result, field string) bool {
	for _, f := range res.FlaggedFields {
		if f.Field == field {
			return true
		}
	}
	return false
}
