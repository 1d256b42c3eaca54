package golden

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/reflect-mcp/reflect/store"
)

// LoadCorpus reads a review corpus: a JSONL file of {"id"?, "text",
// "expected"?} lines, or a directory of .txt files (id = file name without
// .txt). Unusable lines come back as LineErrors (for a directory, Line is the
// file's 1-based position) rather than failing the load.
// The corpus ID is derived from the absolute path, so reopening the same file
// finds the same stored results and decisions.
func LoadCorpus(path, schema string) (store.Corpus, []store.Document, []LineError, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return store.Corpus{}, nil, nil, fmt.Errorf("corpus %s: %w", path, err)
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return store.Corpus{}, nil, nil, fmt.Errorf("corpus: %w", err)
	}
	kind := "file"
	if fi.IsDir() {
		kind = "dir"
	}
	c := pathCorpus(kind, abs, schema)
	c.Created = time.Now().UTC()
	var docs []store.Document
	var bad []LineError
	if fi.IsDir() {
		docs, bad, c.ContentHash, err = loadDir(abs)
	} else {
		docs, bad, c.ContentHash, err = loadJSONL(abs)
	}
	if err != nil {
		return store.Corpus{}, nil, nil, err
	}
	for i := range docs {
		docs[i].CorpusID = c.ID
		docs[i].Seq = i
	}
	return c, docs, bad, nil
}

var errEmptyText = errors.New("empty text")

// checkDoc is what makes a line unusable beyond bad JSON.
func checkDoc(id, text string, seen map[string]int, line int) error {
	switch {
	case strings.IndexByte(id, 0) >= 0:
		return fmt.Errorf("id %q contains a NUL byte", id)
	case strings.TrimSpace(text) == "":
		return errEmptyText
	}
	if first, dup := seen[id]; dup {
		return fmt.Errorf("duplicate id %q (first on line %d)", id, first)
	}
	seen[id] = line
	return nil
}

func loadJSONL(path string) ([]store.Document, []LineError, string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, "", fmt.Errorf("corpus: %w", err)
	}
	sum := sha256.Sum256(data)
	var docs []store.Document
	var bad []LineError
	seen := map[string]int{}
	ids := NewDocIDs(nil)
	err = ReadLines(bytes.NewReader(data), func(l Line) error {
		if l.Err != nil {
			var le *LineError
			if errors.As(l.Err, &le) {
				bad = append(bad, *le)
			} else {
				bad = append(bad, LineError{Line: l.No, Err: l.Err})
			}
			return nil
		}
		if strings.TrimSpace(l.Text) == "" {
			bad = append(bad, LineError{Line: l.No, Err: errEmptyText})
			return nil
		}
		id := ids.ID(l)
		if err := checkDoc(id, l.Text, seen, l.No); err != nil {
			bad = append(bad, LineError{Line: l.No, Err: err})
			return nil
		}
		docs = append(docs, store.Document{ID: id, Text: l.Text, Expected: l.Expected})
		return nil
	})
	if err != nil {
		return nil, nil, "", fmt.Errorf("corpus %s: %w", path, err)
	}
	return docs, bad, hex.EncodeToString(sum[:]), nil
}

func loadDir(dir string) ([]store.Document, []LineError, string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, "", fmt.Errorf("corpus: %w", err)
	}
	var names []string
	var bad []LineError
	for _, e := range entries {
		switch {
		case e.IsDir():
			// Said, not silently passed over (new user report #12).
			bad = append(bad, LineError{Err: fmt.Errorf("%s/: a subdirectory, not read (only the .txt files directly in %s are)", e.Name(), filepath.Base(dir))})
		case strings.EqualFold(filepath.Ext(e.Name()), ".txt"):
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	h := sha256.New()
	var docs []store.Document
	seen := map[string]int{}
	for i, name := range names {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return nil, nil, "", fmt.Errorf("corpus: %w", err)
		}
		// Name and length prefix the content so renaming a file changes the hash.
		fmt.Fprintf(h, "%s\x00%d\x00", name, len(data))
		h.Write(data)
		if !utf8.Valid(data) {
			bad = append(bad, LineError{Line: i + 1, Err: fmt.Errorf("%s: not valid UTF-8", name)})
			continue
		}
		id := strings.TrimSuffix(name, filepath.Ext(name))
		if err := checkDoc(id, string(data), seen, i+1); err != nil {
			bad = append(bad, LineError{Line: i + 1, Err: fmt.Errorf("%s: %w", name, err)})
			continue
		}
		docs = append(docs, store.Document{ID: id, Text: string(data)})
	}
	return docs, bad, hex.EncodeToString(h.Sum(nil)), nil
}
