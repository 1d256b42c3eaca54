package providers

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

// Price is what a model charges, in USD per million tokens.
type Price struct {
	InputPerMTok  float64 `json:"input_per_mtok"`
	OutputPerMTok float64 `json:"output_per_mtok"`
}

// Prices maps a model name prefix to its price. Lookups use the longest prefix
// that matches, so dated snapshots ("gpt-4o-mini-2024-07-18") and aliases
// ("claude-sonnet-4-5") price like their family without an entry each, and
// "gpt-4o-mini" wins over "gpt-4o".
type Prices map[string]Price

// DefaultPrices returns a fresh copy of the built-in list prices (standard
// tier, no batch or cache discounts). They drift: override them with
// LoadPrices when the bill matters.
func DefaultPrices() Prices {
	return Prices{
		"gpt-4o":            {2.50, 10.00},
		"gpt-4o-mini":       {0.15, 0.60},
		"chatgpt-4o":        {5.00, 15.00},
		"gpt-4.1":           {2.00, 8.00},
		"gpt-4.1-mini":      {0.40, 1.60},
		"gpt-4.1-nano":      {0.10, 0.40},
		"gpt-5":             {1.25, 10.00},
		"gpt-5-mini":        {0.25, 2.00},
		"gpt-5-nano":        {0.05, 0.40},
		"o3":                {2.00, 8.00},
		"o3-mini":           {1.10, 4.40},
		"o4-mini":           {1.10, 4.40},
		"claude-3-5-sonnet": {3.00, 15.00},
		"claude-3-7-sonnet": {3.00, 15.00},
		"claude-sonnet-4":   {3.00, 15.00},
		"claude-3-haiku":    {0.25, 1.25},
		"claude-3-5-haiku":  {0.80, 4.00},
		"claude-haiku-4-5":  {1.00, 5.00},
		"claude-3-opus":     {15.00, 75.00},
		"claude-opus-4":     {15.00, 75.00},
		"claude-opus-4-1":   {15.00, 75.00},
		"claude-opus-4-5":   {5.00, 25.00},
	}
}

// LoadPrices reads a JSON object of {"model-prefix": {"input_per_mtok": x,
// "output_per_mtok": y}} and lays it over the defaults, so a file need only
// name the models whose price it changes or adds.
func LoadPrices(path string) (Prices, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("prices: %w", err)
	}
	var over map[string]Price
	if err := json.Unmarshal(b, &over); err != nil {
		return nil, fmt.Errorf("prices %s: %w", path, err)
	}
	p := DefaultPrices()
	for model, price := range over {
		if model == "" || price.InputPerMTok < 0 || price.OutputPerMTok < 0 {
			return nil, fmt.Errorf("prices %s: bad entry %q: prefix must be non-empty and prices non-negative", path, model)
		}
		p[strings.ToLower(model)] = price
	}
	return p, nil
}

// Cost is the USD cost of a call to model with the given token counts, and
// whether the model's price is known.
func (p Prices) Cost(model string, inputTokens, outputTokens int) (float64, bool) {
	price, ok := p.lookup(model)
	if !ok {
		return 0, false
	}
	return (float64(inputTokens)*price.InputPerMTok + float64(outputTokens)*price.OutputPerMTok) / 1e6, true
}

func (p Prices) lookup(model string) (Price, bool) {
	m := strings.ToLower(strings.TrimSpace(model))
	// Bedrock ids wrap the Anthropic name: "us.anthropic.claude-sonnet-4-5-…-v1:0".
	if i := strings.Index(m, "anthropic."); i >= 0 {
		m = m[i+len("anthropic."):]
	}
	best, found := "", false
	for prefix := range p {
		if len(prefix) > len(best) && hasModelPrefix(m, prefix) {
			best, found = prefix, true
		}
	}
	if !found {
		return Price{}, false
	}
	return p[best], true
}

// hasModelPrefix reports whether prefix names m's family: it must end where a
// name part ends, so "gpt-5" prices "gpt-5-2025-08-07" but not "gpt-5.4".
func hasModelPrefix(m, prefix string) bool {
	if !strings.HasPrefix(m, prefix) {
		return false
	}
	if len(m) == len(prefix) {
		return true
	}
	switch m[len(prefix)] {
	case '-', ':', '@':
		return true
	}
	return false
}
