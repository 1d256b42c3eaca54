package providers

import (
	"math"
	"os"
	"path/filepath"
	"testing"
)

func TestPricesCost(t *testing.T) {
	p := DefaultPrices()
	cases := []struct {
		model   string
		in, out float64 // USD per million tokens expected
		known   bool
	}{
		{"gpt-4o", 2.50, 10, true},
		{"gpt-4o-2024-08-06", 2.50, 10, true},
		{"gpt-4o-mini", 0.15, 0.60, true}, // longest prefix wins over gpt-4o
		{"gpt-4o-mini-2024-07-18", 0.15, 0.60, true},
		{"gpt-4.1", 2, 8, true},
		{"gpt-4.1-mini-2025-04-14", 0.40, 1.60, true},
		{"GPT-4.1-MINI", 0.40, 1.60, true},
		{"claude-sonnet-4-5", 3, 15, true},
		{"claude-sonnet-4-5-20250929", 3, 15, true},
		{"claude-3-5-sonnet-latest", 3, 15, true},
		{"claude-haiku-4-5", 1, 5, true},
		{"claude-3-5-haiku-latest", 0.80, 4, true},
		{"us.anthropic.claude-sonnet-4-5-20250929-v1:0", 3, 15, true},
		{"gpt-5.4", 0, 0, false}, // "gpt-5" must not price a different family
		{"gpt-4o4", 0, 0, false},
		{"llama-3.1-8b-instruct", 0, 0, false},
		{"", 0, 0, false},
	}
	for _, tc := range cases {
		got, ok := p.Cost(tc.model, 1_000_000, 1_000_000)
		if ok != tc.known || math.Abs(got-(tc.in+tc.out)) > 1e-9 {
			t.Errorf("Cost(%q, 1M, 1M) = %v, %v; want %v, %v", tc.model, got, ok, tc.in+tc.out, tc.known)
		}
	}
	if got, _ := p.Cost("gpt-4o-mini", 1000, 200); math.Abs(got-(1000*0.15+200*0.60)/1e6) > 1e-15 {
		t.Errorf("small call cost = %v", got)
	}
}

func TestLoadPrices(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "prices.json")
	if err := os.WriteFile(good, []byte(`{"gpt-4o": {"input_per_mtok": 1, "output_per_mtok": 2}, "Llama-3": {"input_per_mtok": 0.1, "output_per_mtok": 0.1}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	p, err := LoadPrices(good)
	if err != nil {
		t.Fatal(err)
	}
	if c, _ := p.Cost("gpt-4o-2024-11-20", 1e6, 1e6); c != 3 {
		t.Errorf("override: %v", c)
	}
	if c, ok := p.Cost("llama-3-70b", 1e6, 0); !ok || c != 0.1 {
		t.Errorf("added model: %v %v", c, ok)
	}
	if c, _ := p.Cost("gpt-4o-mini", 1e6, 0); c != 0.15 {
		t.Errorf("untouched default changed: %v", c)
	}
	if DefaultPrices()["gpt-4o"].InputPerMTok != 2.50 {
		t.Error("LoadPrices changed the defaults")
	}
	for name, body := range map[string]string{"bad.json": `{"gpt-4o": 3}`, "neg.json": `{"x": {"input_per_mtok": -1}}`, "trunc.json": `{"x": {`} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := LoadPrices(path); err == nil {
			t.Errorf("%s accepted", name)
		}
	}
	if _, err := LoadPrices(filepath.Join(dir, "missing.json")); err == nil {
		t.Error("missing file accepted")
	}
}
