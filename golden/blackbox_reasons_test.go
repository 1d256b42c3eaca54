package golden

import (
	"context"
	"strings"
	"testing"

	"github.com/reflect-mcp/reflect/pipeline"
)

// A flag's reason is what a reviewer acts on: one that names a wrong value
// as the field's ("the document's invoice number is 55120" when 55120 is the
// guest's folio) leads the reviewer to replace a right value with a wrong
// one, almost as bad as passing the wrong value. On every black-box set,
// count the reasons on a text, date or identifier field that name another
// of the document's wrong values for that field (one of its wrong records
// offers it, it is not the expected value nor a part of it, and it is not
// the value the flagged record holds), and pin the count as a ratchet. The
// count is measured, never read: the held-out set's documents stay unread.
//
// Held-out r3 had 11 such reasons on e6d6719 (among them, as its tester
// reported, a fee note's "Our ref" and a hotel's folio named as the invoice
// number), 0 after the references class (pipeline/idrefs_test.go).
// r2's 5 are not identifiers: a purchase order's issuer named as the vendor
// (4) and a forwarded e-mail's date named as the invoice date (1).
// Pinned per set as blackboxSets' maxMisleading.
func TestBlackboxReasonsNameNoWrongValue(t *testing.T) {
	p, err := pipeline.New(pipeline.Config{Schema: pipeline.Invoice(), Gate: pipeline.DefaultGate()})
	if err != nil {
		t.Fatal(err)
	}
	for _, set := range blackboxSets {
		t.Run(set.file, func(t *testing.T) {
			reasons, misleading := countMisleadingReasons(t, p, "testdata/blackbox/"+set.file)
			t.Logf("%d reasons on text, date and identifier fields; %d name another wrong value as the field's", reasons, misleading)
			if misleading > set.maxMisleading {
				t.Errorf("%d reasons name a wrong value as the field's, pinned at %d", misleading, set.maxMisleading)
			}
		})
	}
}

// countMisleadingReasons validates each document's expected and wrong
// records and counts the reasons that name a wrong value (see above).
func countMisleadingReasons(t *testing.T, p *pipeline.Pipeline, path string) (reasons, misleading int) {
	t.Helper()
	ctx := context.Background()
	for _, row := range readBlackboxRows(t, path) {
		wrong := map[string][]string{}
		for _, w := range row.Wrong {
			for _, field := range w.Changed {
				v, ok := w.Data[field].(string)
				right, _ := row.Expected[field].(string)
				if !ok || len(strings.TrimSpace(v)) < 4 || right != "" && strings.Contains(right, v) {
					continue
				}
				wrong[field] = append(wrong[field], v)
			}
		}
		records := []map[string]any{row.Expected}
		for _, w := range row.Wrong {
			records = append(records, w.Data)
		}
		doc := pipeline.Document{ID: row.ID, Text: row.Text}
		for _, rec := range records {
			res, err := p.Validate(ctx, doc, rec)
			if err != nil {
				continue
			}
			for _, fl := range res.FlaggedFields {
				if _, isString := rec[fl.Field].(string); !isString && rec[fl.Field] != nil {
					continue // money: its figures print in other shapes
				}
				reasons++
				own, _ := rec[fl.Field].(string)
				for _, v := range wrong[fl.Field] {
					if v != own && !strings.Contains(own, v) && strings.Contains(fl.Reason, v) {
						misleading++
						break
					}
				}
			}
		}
	}
	return reasons, misleading
}
