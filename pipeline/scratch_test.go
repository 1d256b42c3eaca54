package pipeline_test

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/reflect-mcp/reflect/pipeline"
)

// One Pipeline lends each document's scratch arrays and heuristics report
// to the next: documents it verifies one after another, or at once, get the
// results a fresh pipeline gives each alone, whatever the order of their
// sizes.
func TestOnePipelineVerifiesManyDocumentsAsEachAlone(t *testing.T) {
	receipt := "ACME TRADING SDN BHD\nINVOICE NO: 1234\nDATE: 12/03/2018\n" +
		"ITEM A   2 x 5.00   10.00\nSUBTOTAL 10.00\nGST 6% 0.60\nTOTAL 10.60\nCASH 20.00\nCHANGE 9.40\n"
	docs := []struct {
		text string
		data map[string]any
	}{
		{receipt, map[string]any{"total": 10.60, "invoice_date": "2018-03-12", "tax": 0.60}},
		{strings.Repeat("ITEM FILLER  1.00\n", 60) + receipt, map[string]any{"total": 10.60, "invoice_number": "1234"}},
		{"SHOP\nTOTAL 5.00\n", map[string]any{"total": 5.00}},
		{strings.ReplaceAll(receipt, " ", "   "), map[string]any{"total": 10.60, "subtotal": 10.00}},
		{"Café Müller\nSumme 7,50 €\nDatum 03.12.2018\n", map[string]any{"total": 7.50, "invoice_date": "2018-12-03"}},
		{receipt, map[string]any{"total": 99.99}},
		// Texts beyond ASCII borrow the same arrays: full-width digits,
		// ideographic and doubled spaces, a text longer than the last.
		{"株式会社さくら商事\n請求書番号：ＩＮＶ－２０２６\n発行日　2026年3月4日\n小計  ￥１，０００\n消費税  ￥１００\n合計  ￥１，１００\n",
			map[string]any{"total": 1100.0, "tax": 100.0, "invoice_number": "INV-2026", "currency": "JPY"}},
		{strings.Repeat("Position  Beratung   100,00 €\n", 40) + "Müller & Söhne GmbH\nRechnung Nr. R-7\nGesamt 4.000,00 €\n",
			map[string]any{"total": 4000.0, "invoice_number": "R-7", "vendor_name": "Müller & Söhne GmbH"}},
	}
	for _, r := range goldenDocs(t) {
		docs = append(docs, struct {
			text string
			data map[string]any
		}{r.Text, r.Expected})
	}
	ctx := context.Background()
	validate := func(p *pipeline.Pipeline, i int) pipeline.Result {
		res, err := p.Validate(ctx, pipeline.Document{Text: docs[i].text, TraceID: "t"}, docs[i].data)
		if err != nil {
			t.Error(err)
		}
		return res
	}
	marshal := func(res pipeline.Result) string {
		b, _ := json.Marshal(res)
		return string(b)
	}
	verify := func(p *pipeline.Pipeline, i int) string { return marshal(validate(p, i)) }
	newPipeline := func() *pipeline.Pipeline {
		p, err := pipeline.New(pipeline.Config{Gate: pipeline.DefaultGate()})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	alone := make([]string, len(docs))
	for i := range docs {
		alone[i] = verify(newPipeline(), i)
	}
	shared := newPipeline()
	for round := range 3 {
		// Each result is read only after every later document has used the
		// arrays: one pointing into them would read another's by then.
		results := make([]pipeline.Result, len(docs))
		for i := range docs {
			results[i] = validate(shared, i)
		}
		for i, res := range results {
			if got := marshal(res); got != alone[i] {
				t.Errorf("round %d, document %d in turn:\n got %s\nwant %s", round, i, got, alone[i])
			}
		}
	}
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for k := range 50 {
				i := (w + k) % len(docs)
				if got := verify(shared, i); got != alone[i] {
					t.Errorf("document %d at once with others:\n got %s\nwant %s", i, got, alone[i])
				}
			}
		})
	}
	wg.Wait()
}

// goldenDocs are the bundled golden documents: e-mail invoices in several
// languages and scripts.
func goldenDocs(t *testing.T) []benchRow {
	t.Helper()
	f, err := os.Open("../golden/dataset.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []benchRow
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<22)
	for sc.Scan() {
		var r benchRow
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		if r.Text != "" && r.Expected != nil {
			rows = append(rows, r)
		}
	}
	if err := sc.Err(); err != nil || len(rows) == 0 {
		t.Fatalf("../golden/dataset.jsonl: %d documents, %v", len(rows), err)
	}
	return rows
}
