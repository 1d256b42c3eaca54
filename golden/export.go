package golden

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"time"

	"github.com/reflect-mcp/reflect/pipeline"
	"github.com/reflect-mcp/reflect/store"
)

// ExportOptions choose what Export writes.
type ExportOptions struct {
	CorpusID string
	// OnlyCorrected keeps only documents where the reviewer changed at least
	// one value: the cases the pipeline got wrong.
	OnlyCorrected bool
	// Rejected, when set, is increased by the number of documents left out
	// because a reviewer rejected them ("not a document"), so a caller can
	// say how many the file does not hold and why.
	Rejected *int
	// ToolCalls, when set, is increased by the number of reviewed items
	// left out because they are held tool calls, not extractions: a
	// gateway hold has no fields to score, so it is no golden document.
	ToolCalls *int
}

// ExportRow is one line Export writes: a golden Row (id, text, expected) plus
// the review it came from. Expected holds only the fields a human decided, so
// eval scores nothing nobody looked at; Unreviewed keeps the pipeline's value
// of every other field for an eval that opts into counting them as accepted
// (ReadUnreviewed, eval --score-unreviewed).
type ExportRow struct {
	ID         string         `json:"id"`
	Text       string         `json:"text"`
	Expected   map[string]any `json:"expected"`
	Unreviewed map[string]any `json:"unreviewed"`
	Review     ExportReview   `json:"review"`
}

// ExportReview says who settled a row and what the pipeline had said.
type ExportReview struct {
	// Reviewer made the most recent decision on the document.
	Reviewer   string    `json:"reviewer"`
	ReviewedAt time.Time `json:"reviewed_at"`
	Corpus     string    `json:"corpus"`
	// Confirmed lists fields a human accepted as the pipeline had them;
	// Corrected those whose settled value differs from the pipeline's.
	// Together they are exactly the fields of Expected.
	Confirmed []string `json:"confirmed"`
	Corrected []string `json:"corrected"`
	// Original is the pipeline's value of every field the reviewer decided.
	Original map[string]any `json:"original"`
	// Spans are the pipeline's provenance for fields whose value stands; a
	// corrected field's spans pointed at the wrong text and are left out.
	Spans   map[string][]pipeline.Span `json:"spans"`
	TraceID string                     `json:"trace_id,omitempty"`
	// Audit marks a document of the corpus's audit sample: auto-accepted,
	// drawn at random and read, so its decisions measure what the gate lets
	// through (calibrate counts them apart).
	Audit bool `json:"audit,omitempty"`
	// Group is the reviewed issuer (an invoice's vendor, normalised):
	// calibrate's default grouping for an export, so no vendor's documents
	// are both fitted on and scored.
	Group string `json:"group,omitempty"`
}

// Export writes one golden JSONL row per reviewed document of the corpus, in
// corpus order, and returns how many it wrote; rejected documents and held
// tool calls are left out (see ExportOptions.Rejected and ToolCalls). Expected holds the settled
// value of every field a reviewer decided (and only those), so the file can be
// scored with LoadDataset like any labelled dataset and the score says how
// the pipeline did on what humans checked.
func Export(ctx context.Context, st *store.Store, w io.Writer, opts ExportOptions) (int, error) {
	c, err := st.Corpus(ctx, opts.CorpusID)
	if err != nil {
		return 0, fmt.Errorf("export: %w", err)
	}
	draws, err := st.AuditDraws(ctx, opts.CorpusID)
	if err != nil {
		return 0, fmt.Errorf("export: %w", err)
	}
	audited := store.AuditSampleIDs(draws)
	group := groupField(c.Schema)
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	n := 0
	// One document at a time, in one read transaction (a consistent
	// snapshot): holding every review made an export's memory grow with the
	// corpus (3.8 GB at 1M documents). TestExportMemoryFlatInCorpusSize.
	err = st.EachReviewed(ctx, opts.CorpusID, func(rv store.Review) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		if rv.Document.Kind != store.KindExtraction {
			if opts.ToolCalls != nil {
				*opts.ToolCalls++
			}
			return nil
		}
		if rv.HasVerdict && rv.Verdict.Action == store.ActionReject {
			// Not a document: its text is no example of the schema, and
			// none of its fields was confirmed.
			if opts.Rejected != nil {
				*opts.Rejected++
			}
			return nil
		}
		row := exportRow(opts.CorpusID, rv, group)
		row.Review.Audit = audited[row.ID]
		if opts.OnlyCorrected && len(row.Review.Corrected) == 0 {
			return nil
		}
		if err := enc.Encode(row); err != nil {
			return fmt.Errorf("%s: %w", rv.Document.ID, err)
		}
		n++
		return nil
	})
	if err != nil {
		return n, fmt.Errorf("export: %w", err)
	}
	if err := bw.Flush(); err != nil {
		return n, fmt.Errorf("export: %w", err)
	}
	return n, nil
}

// exportRow builds a document's row; group names the field whose settled
// value is its grouping key ("" for none).
func exportRow(corpusID string, rv store.Review, group string) ExportRow {
	res := rv.Result
	expected := make(map[string]any, len(rv.Decisions))
	unreviewed := map[string]any{}
	for f, v := range rv.Settled {
		if _, decided := rv.Decisions[f]; decided {
			expected[f] = v
		} else {
			unreviewed[f] = v
		}
	}
	review := ExportReview{
		Corpus:    corpusID,
		Confirmed: []string{},
		Corrected: []string{},
		Original:  map[string]any{},
		Spans:     map[string][]pipeline.Span{},
		// The latest result's trace id: a document re-queued by an MCP
		// client keeps its first trace id, but the reviewed result is the
		// latest one.
		TraceID: res.TraceID,
	}
	if review.TraceID == "" {
		review.TraceID = rv.Document.TraceID
	}
	for _, f := range fieldOrder(res, rv.Decisions) {
		d, decided := rv.Decisions[f]
		if !decided {
			continue
		}
		// The value of the run the decision was made on: another run's
		// value would make an accept look like a correction.
		orig := store.PipelineValue(&res, d)
		review.Original[f] = orig
		if !store.SameValue(d.Value, orig) {
			review.Corrected = append(review.Corrected, f)
		} else {
			review.Confirmed = append(review.Confirmed, f)
		}
		if d.At.After(review.ReviewedAt) {
			review.ReviewedAt, review.Reviewer = d.At, d.Reviewer
		}
	}
	corrected := make(map[string]bool, len(review.Corrected))
	for _, f := range review.Corrected {
		corrected[f] = true
	}
	for f, spans := range res.FieldProvenance {
		// Spans of the shown run point at its value: kept only where that
		// is the value that stands.
		if v, inRecord := rv.Settled[f]; inRecord && !corrected[f] && len(spans) > 0 && store.SameValue(res.Data[f], v) {
			review.Spans[f] = spans
		}
	}
	if group != "" {
		review.Group = groupKey(rv.Settled[group])
	}
	return ExportRow{ID: rv.Document.ID, Text: rv.Document.Text, Expected: expected, Unreviewed: unreviewed, Review: review}
}

// fieldOrder is the result's schema order followed by any other decided
// fields, sorted, so "corrected" lists fields in a stable, readable order.
func fieldOrder(res pipeline.Result, decs map[string]store.Decision) []string {
	seen := map[string]bool{}
	var order []string
	for _, f := range res.FieldOrder {
		if !seen[f] {
			seen[f] = true
			order = append(order, f)
		}
	}
	var rest []string
	for f := range res.Data {
		if !seen[f] {
			seen[f] = true
			rest = append(rest, f)
		}
	}
	for f := range decs {
		if !seen[f] {
			seen[f] = true
			rest = append(rest, f)
		}
	}
	sort.Strings(rest)
	return append(order, rest...)
}
