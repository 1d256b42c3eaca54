package local

import (
	"context"
	"testing"
	"unicode/utf8"

	"github.com/reflect-mcp/reflect/pipeline"
)

// FuzzGenerate: the keyless extractor reads any text without panicking,
// and every value it returns fits the schema (the gate trusts its kinds).
func FuzzGenerate(f *testing.F) {
	for _, seed := range []string{
		"ACME CORP\nInvoice #INV-1001\nDate: 2026-03-14\nSubtotal 100.00\nTax 8.50\nTotal: $108.50\n",
		"Rechnung Nr. 2026/17 vom 14.03.2026\nNetto 1.234,56 EUR\nMwSt 234,57\nGesamt 1.469,13 €",
		"株式会社テスト\n請求書番号 A-1\n2026年4月1日\n合計 ¥12,000",
		"TOTAL", "", "\x00\x00", "Total: 1e309", "Total -0.00 Total 99999999999999999999.99", "INV#\u202e1",
	} {
		f.Add(seed)
	}
	e := New()
	s := pipeline.Invoice()
	f.Fuzz(func(t *testing.T, text string) {
		if !utf8.ValidString(text) || pipeline.CheckTextValue(text) != nil {
			return // refused before any Generator sees it (pipeline.CheckText)
		}
		ex, err := e.Generate(context.Background(), pipeline.Document{Text: text}, s)
		if err != nil {
			t.Fatalf("Generate: %v", err)
		}
		raw := map[string]any{}
		for k, v := range ex.Record {
			raw[k] = v
		}
		if _, err := s.NormalizeRecord(raw, pipeline.Strict); err != nil {
			t.Fatalf("the extractor's record does not fit its schema: %v\n%v", err, ex.Record)
		}
	})
}
