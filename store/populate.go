package store

import (
	"context"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/reflect-mcp/reflect/pipeline"
	"go.etcd.io/bbolt"
)

// PopulateVersion is the pipeline version Populate stores its results under.
const PopulateVersion = "synthetic-1"

// populateBatch bounds one transaction: large enough that fsyncs do not
// dominate, small enough that other processes get the lock between batches.
const populateBatch = 5000

// Populate appends n synthetic invoice documents with results to the corpus
// (created with the invoice schema if missing), for benchmarks and demos.
// Every 5th document is needs_review with its total flagged, every 50th an
// error; the rest are ok.
func Populate(ctx context.Context, s *Store, corpusID string, n int) error {
	if err := checkID("corpus id", corpusID); err != nil {
		return fmt.Errorf("populate: %w", err)
	}
	order := pipeline.Invoice().FieldNames()
	for done := 0; done < n; {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("populate %q: %w", corpusID, err)
		}
		batch := min(populateBatch, n-done)
		err := s.update(ctx, func(tx *bbolt.Tx) error {
			if _, err := getCorpus(tx, corpusID); err != nil {
				c := Corpus{ID: corpusID, Name: corpusID, Kind: "file", Schema: "invoice", Created: time.Now().UTC()}
				if err := putCorpus(tx, c); err != nil {
					return err
				}
			}
			docs, err := bucket(tx, bktDocs)
			if err != nil {
				return err
			}
			sums, err := bucket(tx, bktSummaries)
			if err != nil {
				return err
			}
			for i := 0; i < batch; i++ {
				seq := nextSeq(docs, corpusID)
				d, res := syntheticDoc(seq, order)
				stored, err := addDocument(tx, corpusID, d)
				if err != nil {
					return err
				}
				if err := writeResult(tx, corpusID, stored.ID, PopulateVersion, res); err != nil {
					return err
				}
				base := sumRec{Summary: Summary{DocID: stored.ID, Seq: stored.Seq, Snippet: snippetOf(stored.Text)}}
				if err := sums.Put(seqKey(corpusID, stored.Seq), encodeSummary(computeSummary(base, &res, nil))); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("populate %q: %w", corpusID, err)
		}
		done += batch
	}
	return nil
}

// syntheticDoc builds document seq and a plausible result for it, with
// provenance spans that point at the values in the text.
func syntheticDoc(seq int, order []string) (Document, pipeline.Result) {
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
	doc := Document{ID: id, Seq: seq, Text: text, TraceID: fmt.Sprintf("trace-synthetic-%06d", seq)}
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
