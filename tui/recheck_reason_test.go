package tui

import (
	"strings"
	"testing"

	"github.com/reflect-mcp/reflect/pipeline"
	"github.com/reflect-mcp/reflect/store"
)

// New-user report (session 6): after a correction re-checked the record, a
// field flagged for weak evidence said only "extractor: evidence before the
// checks" where it had said how the extractor found it. The re-checked flag
// keeps the stored method.
func TestRecheckKeepsTheExtractorsReason(t *testing.T) {
	text := "KEDAI MAJU SDN BHD\nINVOICE NO: A-17\nDATE: 03/04/2026\nSUB TOTAL 9.00\nGST 6% RM 0.54\nTOTAL 9.54\n"
	rec := pipeline.Record{"vendor_name": "KEDAI MAJU SDN BHD", "invoice_number": "A-17", "invoice_date": "2026-04-03",
		"subtotal": 9.5, "tax": 0.54, "total": 9.54, "currency": "MYR"}
	res := buildResult(t, "r-1", text, rec, map[string]string{"tax": `extractor: labelled "GST 6% RM"`}, 0.7)
	decs := map[string]store.Decision{"subtotal": {Field: "subtotal", Action: store.ActionCorrect, Value: 9.0}}
	out, ok := recheck(text, pipeline.Invoice(), res, decs)
	if !ok {
		t.Fatal("a correction did not re-check")
	}
	var reason string
	for _, ff := range out.FlaggedFields {
		if ff.Field == "tax" {
			reason = ff.Reason
		}
	}
	if !strings.HasPrefix(reason, `extractor: labelled "GST 6% RM"`) {
		t.Errorf("tax's reason after the re-check: %q, want the extractor's own method", reason)
	}
}
