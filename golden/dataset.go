package golden

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"sort"

	"github.com/reflect-mcp/reflect/pipeline"
)

// Row is one labelled example: a source text and the values a human says the
// record should hold. A field absent from Expected is not scored; a field
// present with a nil value must come back null.
type Row struct {
	ID       string         `json:"id"`
	Text     string         `json:"text"`
	Expected map[string]any `json:"expected"`
}

// LoadDataset reads a labelled JSONL file. Lines that cannot be used as rows
// (malformed, no "expected", a duplicate id) are returned as lineErrs and
// skipped; err is set only when the file cannot be read at all. A row without
// an id is named after its line ("line-7") so failures can still point at it.
func LoadDataset(path string) (rows []Row, lineErrs []error, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("dataset: %w", err)
	}
	defer f.Close()
	rows, lineErrs, err = ReadDataset(f)
	if err != nil {
		return nil, nil, fmt.Errorf("dataset %s: %w", path, err)
	}
	return rows, lineErrs, nil
}

// ReadDataset is LoadDataset over any reader.
func ReadDataset(r io.Reader) ([]Row, []error, error) {
	var rows []Row
	var lineErrs []error
	seen := map[string]int{}
	err := ReadLines(r, func(l Line) error {
		if l.Err != nil {
			lineErrs = append(lineErrs, l.Err)
			return nil
		}
		if l.Expected == nil {
			lineErrs = append(lineErrs, &LineError{Line: l.No, Err: errors.New("missing \"expected\" object (a labelled row needs one)")})
			return nil
		}
		id := l.ID
		if id == "" {
			id = fmt.Sprintf("line-%d", l.No)
		}
		if first, dup := seen[id]; dup {
			lineErrs = append(lineErrs, &LineError{Line: l.No, Err: fmt.Errorf("duplicate id %q (first on line %d)", id, first)})
			return nil
		}
		seen[id] = l.No
		rows = append(rows, Row{ID: id, Text: l.Text, Expected: l.Expected})
		return nil
	})
	return rows, lineErrs, err
}

// CheckRows reports labels that do not fit the schema: a field the schema lacks
// (a typo would otherwise silently go unscored) or a value of the wrong type.
func CheckRows(s *pipeline.Schema, rows []Row) []error {
	var errs []error
	for _, row := range rows {
		names := make([]string, 0, len(row.Expected))
		for name := range row.Expected {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			v := row.Expected[name]
			f, ok := s.Field(name)
			if !ok {
				errs = append(errs, fmt.Errorf("row %s: expected field %q is not in schema %q", row.ID, name, s.Name))
				continue
			}
			if v == nil {
				continue
			}
			switch f.Kind {
			case pipeline.KindMoney:
				if x, ok := v.(float64); !ok || math.IsNaN(x) || math.IsInf(x, 0) {
					errs = append(errs, fmt.Errorf("row %s: expected %s must be a number or null, got %v", row.ID, name, v))
				}
			default:
				if _, ok := v.(string); !ok {
					errs = append(errs, fmt.Errorf("row %s: expected %s must be a string or null, got %v", row.ID, name, v))
				}
			}
		}
	}
	return errs
}
