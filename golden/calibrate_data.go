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

// ExportGroupKey is where an export (reflect export) keeps a row's group:
// the reviewed vendor.
const ExportGroupKey = "review.group"

// RowKeys is what calibration reads from a dataset besides its labels.
type RowKeys struct {
	// Groups is each row's group by id.
	Groups map[string]string
	// Audited marks rows an export took from an audit sample: auto-accepted
	// documents drawn at random and read.
	Audited map[string]bool
}

// LoadGroups reads a dataset's grouping key by row id (see LoadRowKeys).
func LoadGroups(path, key string) (map[string]string, error) {
	k, err := LoadRowKeys(path, key)
	return k.Groups, err
}

// LoadRowKeys reads a dataset's grouping key (a dotted path into each
// line's object, "source.vendor_group") and audit marks by row id. A row
// without the key groups by an export's reviewed vendor (review.group) when
// it has one, else it is its own group (its id), so grouping never merges
// rows it knows nothing of.
func LoadRowKeys(path, key string) (RowKeys, error) {
	f, err := os.Open(path)
	if err != nil {
		return RowKeys{}, fmt.Errorf("groups: %w", err)
	}
	defer f.Close()
	out := RowKeys{Groups: map[string]string{}, Audited: map[string]bool{}}
	err = ReadLines(f, func(l Line) error {
		if l.Err != nil || l.ID == "" {
			return nil
		}
		var obj map[string]any
		if json.Unmarshal(l.Raw, &obj) != nil {
			return nil
		}
		if g, ok := lookupPath(obj, key); ok {
			out.Groups[l.ID] = g
		} else if g, ok := lookupPath(obj, ExportGroupKey); ok {
			out.Groups[l.ID] = "vendor:" + g
		}
		if rv, ok := obj["review"].(map[string]any); ok && rv["audit"] == true {
			out.Audited[l.ID] = true
		}
		return nil
	})
	if err != nil {
		return RowKeys{}, fmt.Errorf("groups %s: %w", path, err)
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
