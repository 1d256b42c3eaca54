package golden

import (
	"encoding/json"
	"fmt"
	"os"
)

// AddUnreviewed is the opt-in behind eval --score-unreviewed: it reads the
// "unreviewed" block Export writes (the pipeline's values of the fields no
// human decided) from the file at path and adds each value to its row's
// Expected, as if the reviewer had accepted it. Fields a human decided are
// never replaced; a row without the block (any dataset that is not an export)
// is left as it is. It returns how many fields it added.
func AddUnreviewed(path string, rows []Row) (int, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, fmt.Errorf("unreviewed fields: %w", err)
	}
	defer f.Close()
	byID := make(map[string]int, len(rows))
	for i, r := range rows {
		byID[r.ID] = i
	}
	added := 0
	err = ReadLines(f, func(l Line) error {
		if l.Err != nil || l.Raw == nil {
			return nil // LoadDataset already reported the line
		}
		i, ok := byID[l.ID]
		if !ok {
			return nil
		}
		var extra struct {
			Unreviewed map[string]any `json:"unreviewed"`
		}
		if err := json.Unmarshal(l.Raw, &extra); err != nil {
			return nil
		}
		for k, v := range extra.Unreviewed {
			if _, decided := rows[i].Expected[k]; !decided {
				rows[i].Expected[k] = v
				added++
			}
		}
		return nil
	})
	if err != nil {
		return added, fmt.Errorf("unreviewed fields of %s: %w", path, err)
	}
	return added, nil
}
