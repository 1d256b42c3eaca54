package tui

import (
	"github.com/reflect-mcp/reflect/pipeline"
	"github.com/reflect-mcp/reflect/store"
)

// summarize recomputes a queue row the way the store does (same Reviewed
// rule, same value comparison), so the UI can update one row after a result
// or a decision without reloading 100,000 summaries. decs == nil means the
// decisions are unknown here and prev's decision counts are kept.
func summarize(prev store.Summary, docID string, res *pipeline.Result, decs map[string]store.Decision) store.Summary {
	s := prev
	s.DocID = docID
	s.Status, s.Confidence, s.Flagged, s.Error = "", 0, 0, ""
	if res != nil {
		s.Status = res.Status
		s.Confidence = res.OverallConfidence
		s.Flagged = len(res.FlaggedFields)
		s.Error = res.ErrorMessage
	}
	if decs == nil {
		return s
	}
	s.Decisions, s.Corrected = len(decs), 0
	for field, d := range decs {
		orig := d.Original
		if res != nil {
			if v, ok := res.Data[field]; ok {
				orig = v
			}
		}
		if !store.SameValue(d.Value, orig) {
			s.Corrected++
		}
	}
	s.Reviewed = len(decs) > 0
	if res != nil {
		for _, f := range res.FlaggedFields {
			if _, ok := decs[f.Field]; !ok {
				s.Reviewed = false
			}
		}
	}
	return s
}
