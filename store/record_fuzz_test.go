package store

import (
	"encoding/json"
	"testing"
)

// FuzzDecodeResult: a stored result is decoded from whatever bytes a
// damaged or foreign file holds without panicking, and one that decodes
// encodes and decodes again to the same field order.
func FuzzDecodeResult(f *testing.F) {
	for _, seed := range []string{
		`{"status":"needs_review","data":{"vendor_name":"ACME","total":12.5},"field_confidence":{"total":0.2},"flagged_fields":[{"field":"total","value":12.5,"confidence":0.2,"reason":"x"}],"trace_id":"t","schema":"invoice"}`,
		`{"status":"ok","data":{"b":1,"a":null}}`,
		`{"data":[1,2]}`, `{"data":{"a":{"b":[]}}}`, `null`, `[]`, `{`, ``, `{"status":7}`,
		`{"status":"error","error_message":"x","data":null,"field_provenance":{"a":[{"start":-1,"end":9999999999}]}}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		r, err := decodeResult(raw)
		if err != nil {
			return
		}
		b, err := json.Marshal(r)
		if err != nil {
			return // a decoded value the encoder refuses is reported, not stored
		}
		r2, err := decodeResult(b)
		if err != nil {
			t.Fatalf("a result re-encoded from a decoded one does not decode: %v\n%s", err, b)
		}
		if len(r2.FieldOrder) != len(r2.Data) && len(r2.Data) > 0 {
			t.Fatalf("field order %v for data %v", r2.FieldOrder, r2.Data)
		}
	})
}

// FuzzDecodeRecords: the other stored records (corpus, document,
// decision) decode from any bytes without panicking.
func FuzzDecodeRecords(f *testing.F) {
	f.Add([]byte(`{"id":"c","name":"n","kind":"mcp","schema":"invoice"}`))
	f.Add([]byte(`{"corpus_id":"c","id":"d","seq":3,"text":"t","expected":{"a":1}}`))
	f.Add([]byte(`{"corpus_id":"c","doc_id":"d","field":"total","action":"correct","value":1,"at":"2026-01-01T00:00:00Z"}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		var c Corpus
		_ = json.Unmarshal(raw, &c)
		var d Document
		_ = json.Unmarshal(raw, &d)
		var dec Decision
		_ = json.Unmarshal(raw, &dec)
	})
}
