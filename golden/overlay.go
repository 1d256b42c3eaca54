package golden

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
)

// Labels is a label overlay: extra labelled fields per row id, read from a
// file kept apart from the dataset (so a dataset someone else publishes, such
// as SROIE's three fields, can be scored on fields it does not label without
// rewriting it).
type Labels map[string]map[string]any

// OverlayStats says how an overlay met a dataset.
type OverlayStats struct {
	// Rows is how many dataset rows received at least one label.
	Rows int `json:"rows"`
	// Fields is how many labels were added (or replaced).
	Fields int `json:"fields"`
	// Replaced lists "id.field" where the overlay changed a label the dataset
	// already held: the overlay wins, but a silent disagreement would hide a
	// labelling mistake.
	Replaced []string `json:"replaced,omitempty"`
	// Unmatched are overlay ids no dataset row has (a stale or wrong file).
	Unmatched []string `json:"unmatched,omitempty"`
	// Unlabelled are dataset rows the overlay does not cover.
	Unlabelled []string `json:"unlabelled,omitempty"`
}

// LoadLabels reads a label overlay file: one JSON object a line,
// {"id": "...", "expected": {...}} (other keys, such as "notes", are ignored).
// Lines that cannot be used (malformed, no id, no expected, a duplicate id)
// are returned as lineErrs and skipped; err is set only when the file cannot
// be read at all.
func LoadLabels(path string) (Labels, []error, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("labels: %w", err)
	}
	defer f.Close()
	l, lineErrs, err := ReadLabels(f)
	if err != nil {
		return nil, nil, fmt.Errorf("labels %s: %w", path, err)
	}
	return l, lineErrs, nil
}

// ReadLabels is LoadLabels over any reader. It does not use ReadLines: an
// overlay line carries no text, which ReadLines rightly refuses.
func ReadLabels(r io.Reader) (Labels, []error, error) {
	labels := Labels{}
	var lineErrs []error
	seen := map[string]int{}
	br := bufio.NewReaderSize(r, 64<<10)
	for no := 1; ; no++ {
		b, err := readLabelLine(br)
		if err != nil && !errors.Is(err, io.EOF) {
			if errors.Is(err, ErrLineTooLong) {
				lineErrs = append(lineErrs, &LineError{Line: no, Err: err})
				continue
			}
			return nil, nil, fmt.Errorf("reading line %d: %w", no, err)
		}
		if t := bytes.TrimSpace(b); len(t) > 0 {
			id, exp, lerr := parseLabelLine(t)
			switch {
			case lerr != nil:
				lineErrs = append(lineErrs, &LineError{Line: no, Err: lerr})
			case seen[id] != 0:
				lineErrs = append(lineErrs, &LineError{Line: no, Err: fmt.Errorf("duplicate id %q (first on line %d)", id, seen[id])})
			default:
				seen[id] = no
				labels[id] = exp
			}
		}
		if errors.Is(err, io.EOF) {
			return labels, lineErrs, nil
		}
	}
}

// readLabelLine returns one line without its newline; a line longer than
// MaxLineBytes is drained and reported as ErrLineTooLong.
func readLabelLine(br *bufio.Reader) ([]byte, error) {
	var buf []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if len(buf)+len(chunk) > MaxLineBytes+2 {
			for errors.Is(err, bufio.ErrBufferFull) {
				_, err = br.ReadSlice('\n')
			}
			if err != nil && !errors.Is(err, io.EOF) {
				return nil, err
			}
			return nil, fmt.Errorf("%w: longer than %d bytes", ErrLineTooLong, MaxLineBytes)
		}
		buf = append(buf, chunk...)
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return bytes.TrimSuffix(buf, []byte("\n")), err
	}
}

func parseLabelLine(b []byte) (string, map[string]any, error) {
	var obj map[string]any
	if err := json.Unmarshal(b, &obj); err != nil {
		return "", nil, fmt.Errorf("not a JSON object: %w", err)
	}
	var id string
	switch v := obj["id"].(type) {
	case string:
		id = v
	case float64:
		id = strconv.FormatFloat(v, 'f', -1, 64)
	}
	if id == "" {
		return "", nil, errors.New(`missing "id" (an overlay line is matched to its row by id)`)
	}
	exp, err := objectField(obj, "expected")
	if err != nil {
		return "", nil, err
	}
	if exp == nil {
		return "", nil, errors.New(`missing "expected" object`)
	}
	return id, exp, nil
}

// Apply merges the overlay into rows by id, in place: each overlay field is
// added to the row's Expected (a labelled null included: it is scored as
// "must come back null"). Rows keep their order; nothing is dropped.
func (l Labels) Apply(rows []Row) OverlayStats {
	var st OverlayStats
	used := map[string]bool{}
	for i := range rows {
		exp, ok := l[rows[i].ID]
		if !ok {
			st.Unlabelled = append(st.Unlabelled, rows[i].ID)
			continue
		}
		used[rows[i].ID] = true
		if rows[i].Expected == nil {
			rows[i].Expected = map[string]any{}
		}
		names := make([]string, 0, len(exp))
		for name := range exp {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			v := exp[name]
			if old, had := rows[i].Expected[name]; had && !sameLabel(old, v) {
				st.Replaced = append(st.Replaced, rows[i].ID+"."+name)
			}
			rows[i].Expected[name] = v
			st.Fields++
		}
		st.Rows++
	}
	for id := range l {
		if !used[id] {
			st.Unmatched = append(st.Unmatched, id)
		}
	}
	sort.Strings(st.Unmatched)
	return st
}

// Merge returns data with the overlay's labels for id laid over it (a new
// map; data is not changed), for a reader that merges line by line, such as
// `validate --batch` over a dataset and its overlay. ok is false when the
// overlay has nothing for id.
func (l Labels) Merge(id string, data map[string]any) (merged map[string]any, ok bool) {
	exp, ok := l[id]
	if !ok {
		return data, false
	}
	merged = make(map[string]any, len(data)+len(exp))
	for k, v := range data {
		merged[k] = v
	}
	for k, v := range exp {
		merged[k] = v
	}
	return merged, true
}

func sameLabel(a, b any) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return bytes.Equal(ja, jb)
}

// Warnings turns the stats into the lines eval prints on stderr: ids that
// matched nothing and labels the overlay replaced. Unlabelled rows are only
// counted, since an overlay may cover part of a dataset on purpose.
func (st OverlayStats) Warnings() []string {
	var w []string
	if n := len(st.Unmatched); n > 0 {
		w = append(w, fmt.Sprintf("%d overlay id(s) match no dataset row: %s", n, headList(st.Unmatched, 5)))
	}
	if n := len(st.Replaced); n > 0 {
		w = append(w, fmt.Sprintf("the overlay replaced %d label(s) the dataset held: %s", n, headList(st.Replaced, 5)))
	}
	if n := len(st.Unlabelled); n > 0 {
		w = append(w, fmt.Sprintf("%d dataset row(s) have no overlay labels: %s", n, headList(st.Unlabelled, 5)))
	}
	return w
}

func headList(xs []string, n int) string {
	if len(xs) <= n {
		return fmt.Sprint(xs)
	}
	return fmt.Sprintf("%v and %d more", xs[:n], len(xs)-n)
}
