package golden

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"

	"github.com/reflect-mcp/reflect/providers"
)

// The golden set and its recorded model outputs ship inside the binary, so
// `reflect eval` and the replay provider work from any directory, offline.
var (
	//go:embed dataset.jsonl
	bundledDataset []byte
	//go:embed fixtures/replay.json
	bundledFixture []byte
)

// BundledDataset returns the rows of the golden set shipped with reflect.
func BundledDataset() ([]Row, []error, error) {
	return ReadDataset(bytes.NewReader(bundledDataset))
}

// BundledFixture returns the recorded model outputs for the bundled golden set.
func BundledFixture() (*providers.Fixture, error) {
	var f providers.Fixture
	if err := json.Unmarshal(bundledFixture, &f); err != nil {
		return nil, fmt.Errorf("bundled replay fixture: %w", err)
	}
	return &f, nil
}
