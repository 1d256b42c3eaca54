// Package storetest builds review stores for tests and benchmarks: synthetic
// invoice corpora of any size, written through the store's public API.
package storetest

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/reflect-mcp/reflect/pipeline"
	"github.com/reflect-mcp/reflect/store"
)

// Version is the pipeline version Populate stores its results under.
const Version = "synthetic-1"

// batch bounds one transaction: large enough that fsyncs do not dominate,
// small enough that other processes get the lock between batches.
const batch = 5000

// Populate appends n synthetic invoice documents with results to the corpus
// (created with the invoice schema if missing). Every 5th document is
// needs_review with its total flagged, every 50th an error; the rest are ok.
func Populate(ctx context.Context, s *store.Store, corpusID string, n int) error {
	rows, err := s.Summaries(ctx, corpusID) // none yet when the corpus is new
	if err != nil {
		return fmt.Errorf("populate: %w", err)
	}
	c := store.Corpus{ID: corpusID, Name: corpusID, Kind: "file", Schema: "invoice"}
	if old, err := s.Corpus(ctx, corpusID); err == nil {
		c = old
	}
	order := pipeline.Invoice().FieldNames()
	for done, first := 0, len(rows); done < n; {
		size := min(batch, n-done)
		docs := make([]store.Document, size)
		results := make([]store.DocResult, size)
		for i := range size {
			docs[i], results[i].Result = Synthetic(first+done+i, order)
			results[i].DocID = docs[i].ID
		}
		if err := s.PutCorpus(ctx, c, docs); err != nil {
			return fmt.Errorf("populate: %w", err)
		}
		if _, err := s.PutResults(ctx, corpusID, Version, results); err != nil {
			return fmt.Errorf("populate: %w", err)
		}
		done += size
	}
	return nil
}

// Synthetic builds document seq and a plausible result for it, with
// provenance spans that point at the values in the text. order is the
// schema's field order (pipeline.Invoice().FieldNames()).
func Synthetic(seq int, order []string) (store.Document, pipeline.Result) {
	vendors := []string{"ACME TRADING SDN BHD", "Kedai Runcit Ali", "Northwind Supplies Ltd", "Café Müller GmbH"}
	currencies := []string{"MYR", "GBP", "EUR", "USD"}
	id := fmt.Sprintf("doc-%06d", seq)
	sub := float64(1000+seq%9000) / 10
	tax := float64(int(sub*6+0.5)) / 100
	total := math.Round((sub+tax)*100) / 100
	data := pipeline.Record{
		"vendor_name":    vendors[seq%len(vendors)],
		"invoice_number": fmt.Sprintf("INV-%06d", seq),
		"invoice_date":   fmt.Sprintf("2024-%02d-%02d", 1+seq%12, 1+seq%28),
		"subtotal":       sub,
		"tax":            tax,
		"total":          total,
		"currency":       currencies[seq%len(currencies)],
	}
	text := fmt.Sprintf("%s\nInvoice No: %s\nDate: %s\nSubtotal %.2f\nTax %.2f\nTotal %.2f\nCurrency %s\n",
		data["vendor_name"], data["invoice_number"], data["invoice_date"], sub, tax, total, data["currency"])
	doc := store.Document{ID: id, Kind: store.KindExtraction, Seq: seq, Text: text, TraceID: fmt.Sprintf("trace-synthetic-%06d", seq)}
	if seq%50 == 49 {
		return doc, pipeline.ErrorResult(id, doc.TraceID, fmt.Errorf("generator: synthetic failure"))
	}
	conf := map[string]float64{}
	spans := map[string][]pipeline.Span{}
	for _, f := range order {
		conf[f] = 0.95
		if at := runeIndex(text, pipeline.FormatValue(data[f])); at >= 0 {
			n := len([]rune(pipeline.FormatValue(data[f])))
			spans[f] = []pipeline.Span{{Start: at, End: at + n}}
		}
	}
	res := pipeline.Result{ID: id, Status: pipeline.StatusOK, Data: data, FieldConfidence: conf,
		OverallConfidence: 0.95, FieldProvenance: spans, TraceID: doc.TraceID, Schema: "invoice",
		PromptVersions: map[string]string{"generator": "synthetic"}, FieldOrder: order}
	if seq%5 == 4 {
		conf["total"] = 0.4
		res.Status = pipeline.StatusNeedsReview
		res.OverallConfidence = 0.6
		res.FlaggedFields = []pipeline.FlaggedField{{Field: "total", Value: total, Confidence: 0.4,
			Reason: "synthetic: total not reconciled"}}
	}
	return doc, res
}

// runeIndex is strings.Index in code points, the unit of pipeline.Span.
func runeIndex(s, sub string) int {
	i := strings.Index(s, sub)
	if i < 0 {
		return -1
	}
	return len([]rune(s[:i]))
}
