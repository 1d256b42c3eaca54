package main

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/reflect-mcp/reflect/pipeline"
)

// A batch's result line is the bytes encoding/json writes for it (through
// encodeJSON), written without a second pass over them; a result that
// cannot be encoded gives the same error line.
func TestWriteJSONLineSameBytes(t *testing.T) {
	order := []string{"vendor_name", "total", "invoice_date"}
	results := []pipeline.Result{
		{ID: "doc-1", Status: pipeline.StatusOK, Schema: "invoice", FieldOrder: order,
			Data:            pipeline.Record{"total": 12.5, "vendor_name": "A <b>&</b> Co\u2028Ltd", "invoice_date": nil, "extra": []any{1, "x"}},
			FieldConfidence: map[string]float64{"total": 0.97, "vendor_name": 0.5},
			FlaggedFields:   []pipeline.FlaggedField{{Field: "vendor_name", Value: "A <b>", Confidence: 0.5, Reason: "\"quoted\" \\ reason\n"}},
			FieldProvenance: map[string][]pipeline.Span{"total": {{Start: 3, End: 8}}},
			PromptVersions:  map[string]string{"generator": "g.v1"}, Usage: &pipeline.Usage{Calls: 2, CostUSD: 0.001}, NotGiven: []string{"tax"}},
		{Status: pipeline.StatusNeedsReview, Data: pipeline.Record{"total": 1e21, "tiny": 1e-9}},
		pipeline.ErrorResult("doc-2", "trace", errors.New("line 3: bad <json>")),
		{ID: "nan", Status: pipeline.StatusOK, Data: pipeline.Record{"total": math.NaN()}},
	}
	for _, r := range results {
		var want, got bytes.Buffer
		if err := encodeJSON(&want, r, false); err != nil {
			want.Reset()
			_ = encodeJSON(&want, pipeline.ErrorResult("", "", fmt.Errorf("encode result: %w", err)), false)
		}
		writeJSONLine(&got, r)
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Errorf("result %q:\n got %s\nwant %s", r.ID, got.Bytes(), want.Bytes())
		}
	}
}
