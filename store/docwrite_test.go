package store

import (
	"bytes"
	"encoding/json"
	"testing"
)

var documentCases = []Document{
	{CorpusID: "file:0123456789abcdef", ID: "doc-000001", Seq: 0, Text: "ACME\nTotal 1.00\n"},
	{CorpusID: "c", ID: "a<b>&c", Kind: KindToolCall, Seq: 1 << 40, Text: "\"q\" \\ \t\r\b\f\x00\x1f\x7f <script>", TraceID: "t&1"},
	{CorpusID: "c", ID: "日本", Seq: 7, Text: "Müller ¥1,000 😀 \u2028\u2029 bad \xff\xc3 end"},
	{CorpusID: "c", ID: "e", Text: "with expected", Expected: map[string]any{"total": 1.5, "vendor": "<A&B>"}},
	{CorpusID: "c", ID: "empty expected", Text: "x", Expected: map[string]any{}},
	{CorpusID: "c", ID: "k", Kind: Kind(9), Text: "an unknown kind is refused"},
}

// A document is stored as the bytes json.Marshal writes for it: sameText
// finds a text in a stored document by those bytes.
func TestDocumentJSONIsMarshal(t *testing.T) {
	for _, d := range documentCases {
		want, werr := json.Marshal(d)
		got, gerr := appendDocumentJSON([]byte("x"), d)
		if (werr == nil) != (gerr == nil) {
			t.Fatalf("%q: error %v, json.Marshal's %v", d.ID, gerr, werr)
		}
		if werr == nil && !bytes.Equal(got, append([]byte("x"), want...)) {
			t.Errorf("%q:\ngot  %s\nwant x%s", d.ID, got, want)
		}
	}
}

func FuzzDocumentJSON(f *testing.F) {
	for _, d := range documentCases {
		f.Add(d.CorpusID, d.ID, d.Text, d.TraceID, d.Seq, uint8(d.Kind))
	}
	f.Fuzz(func(t *testing.T, corpus, id, text, trace string, seq int, kind uint8) {
		d := Document{CorpusID: corpus, ID: id, Text: text, TraceID: trace, Seq: seq, Kind: Kind(kind % 3)}
		want, werr := json.Marshal(d)
		got, gerr := appendDocumentJSON(nil, d)
		if (werr == nil) != (gerr == nil) || werr == nil && !bytes.Equal(got, want) {
			t.Fatalf("got %s (%v), want %s (%v)", got, gerr, want, werr)
		}
	})
}
