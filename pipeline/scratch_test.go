package pipeline_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/reflect-mcp/reflect/pipeline"
)

// One Pipeline lends each document's scratch arrays to the next: documents it
// verifies one after another, or at once, get the results a fresh pipeline
// gives each alone, whatever the order of their sizes.
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
	}
	ctx := context.Background()
	verify := func(p *pipeline.Pipeline, i int) string {
		res, err := p.Validate(ctx, pipeline.Document{Text: docs[i].text, TraceID: "t"}, docs[i].data)
		if err != nil {
			t.Error(err)
		}
		b, _ := json.Marshal(res)
		return string(b)
	}
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
		for i := range docs {
			if got := verify(shared, i); got != alone[i] {
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
