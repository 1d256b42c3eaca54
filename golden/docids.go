package golden

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"strconv"
	"strings"

	"github.com/reflect-mcp/reflect/store"
)

// DocIDs names the documents of lines that carry no id. They are named by
// their text ("text-" and 12 hex digits of its sha256), not by their line:
// a line inserted, deleted or sorted in an id-less corpus used to move
// every later document onto another one's id, so a reviewed document came
// back undecided and the new one was hidden under an old text (new user
// report #2). The n-th line with the same text gets "-n" (n from 2), so
// duplicates stay apart and keep their ids when other lines move.
//
// Stores written before this keyed id-less lines "line-N". Legacy names
// such a stored document's text to its old id, so a line whose text is
// stored as line-N keeps that id (and its results and decisions) wherever
// it is now; a line-N whose text is no longer in the file stays stored, as
// any document removed from a file does.
type DocIDs struct {
	seen   map[string]int
	legacy map[string][]string
}

// NewDocIDs starts naming the lines of one file; legacy may be nil.
func NewDocIDs(legacy map[string][]string) *DocIDs {
	return &DocIDs{seen: map[string]int{}, legacy: legacy}
}

// ID is the id of a line: its own, or one named by its text.
func (d *DocIDs) ID(l Line) string {
	if l.ID != "" {
		return l.ID
	}
	sum := sha256.Sum256([]byte(l.Text))
	key := hex.EncodeToString(sum[:])
	d.seen[key]++
	n := d.seen[key]
	if old := d.legacy[key]; n <= len(old) {
		return old[n-1]
	}
	id := "text-" + key[:12]
	if n > 1 {
		id += "-" + strconv.Itoa(n)
	}
	return id
}

var lineID = regexp.MustCompile(`^line-[0-9]+$`)

// LegacyStore is what LegacyLineIDs needs of the store.
type LegacyStore interface {
	DocumentsWithIDPrefix(ctx context.Context, corpusID, idPrefix string) ([]store.Document, error)
}

// LegacyLineIDs maps the sha256 of each text stored under a "line-N" id in
// a corpus to those ids, in line order.
func LegacyLineIDs(ctx context.Context, st LegacyStore, corpusID string) (map[string][]string, error) {
	docs, err := st.DocumentsWithIDPrefix(ctx, corpusID, "line-")
	if err != nil || len(docs) == 0 {
		return nil, err
	}
	out := map[string][]string{}
	lineNo := func(id string) int { n, _ := strconv.Atoi(strings.TrimPrefix(id, "line-")); return n }
	for _, d := range docs {
		if !lineID.MatchString(d.ID) {
			continue
		}
		sum := sha256.Sum256([]byte(d.Text))
		key := hex.EncodeToString(sum[:])
		ids := append(out[key], d.ID)
		// Keep line order: index order is by string ("line-10" < "line-2").
		for i := len(ids) - 1; i > 0 && lineNo(ids[i]) < lineNo(ids[i-1]); i-- {
			ids[i], ids[i-1] = ids[i-1], ids[i]
		}
		out[key] = ids
	}
	return out, nil
}
