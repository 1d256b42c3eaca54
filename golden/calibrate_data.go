package golden

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"

	"github.com/reflect-mcp/reflect/pipeline"
)

// DefaultGroupKey groups SROIE rows by vendor, so no vendor's receipts are
// both fitted on and scored.
const DefaultGroupKey = "source.vendor_group"

// LoadGroups reads a dataset's grouping key (a dotted path into each line's
// object, "source.vendor_group") by row id. A row without the key is its
// own group (its id), so grouping never merges rows it knows nothing of.
func LoadGroups(path, key string) (map[string]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("groups: %w", err)
	}
	defer f.Close()
	out := map[string]string{}
	err = ReadLines(f, func(l Line) error {
		if l.Err != nil || l.ID == "" {
			return nil
		}
		var obj map[string]any
		if json.Unmarshal(l.Raw, &obj) != nil {
			return nil
		}
		if g, ok := lookupPath(obj, key); ok {
			out[l.ID] = g
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("groups %s: %w", path, err)
	}
	return out, nil
}

func lookupPath(obj map[string]any, key string) (string, bool) {
	var cur any = obj
	for _, part := range strings.Split(key, ".") {
		m, ok := cur.(map[string]any)
		if !ok {
			return "", false
		}
		cur, ok = m[part]
		if !ok {
			return "", false
		}
	}
	switch v := cur.(type) {
	case string:
		return v, v != ""
	case float64:
		return fmt.Sprint(v), true
	}
	return "", false
}

// RunRows runs every row through v, conc at a time, results in row order.
func RunRows(ctx context.Context, v Verifier, rows []Row, conc int) ([]pipeline.Result, []error) {
	results := make([]pipeline.Result, len(rows))
	errs := make([]error, len(rows))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(max(conc, 1), max(len(rows), 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				results[i], errs[i] = verifyRow(ctx, v, rows[i])
			}
		}()
	}
	for i := range rows {
		next <- i
	}
	close(next)
	wg.Wait()
	return results, errs
}
