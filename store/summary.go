package store

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/reflect-mcp/reflect/pipeline"
	"go.etcd.io/bbolt"
)

// sumRec is the stored queue row: the public Summary plus the counts Stats
// needs, so Stats is one scan of the summaries bucket too.
type sumRec struct {
	Summary
	Caught int // corrected fields that were flagged
	Silent int // corrected fields that were not flagged and not null
}

// sumFormat is the row layout encodeSummary writes. Format 1 had no Kind;
// migration 2 rewrites such rows, and decodeSummary still reads them (as
// extraction rows, the zero Kind) so the migration can.
const (
	sumFormatV1 = 1
	sumFormat   = 2
)

// encodeSummary writes a hand-rolled binary row: JSON decoding of 100,000 rows
// costs hundreds of milliseconds, this costs a few.
func encodeSummary(r sumRec) []byte {
	return appendSummary(make([]byte, 0, 64+len(r.DocID)+len(r.Snippet)+len(r.Error)), r)
}

// appendSummary appends r's row to b.
func appendSummary(b []byte, r sumRec) []byte {
	b = append(b, sumFormat)
	b = binary.AppendUvarint(b, uint64(r.Seq))
	b = appendString(b, r.DocID)
	b = append(b, byte(r.Kind))
	b = appendString(b, string(r.Status))
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(r.Confidence))
	b = binary.AppendUvarint(b, uint64(r.Flagged))
	if r.Reviewed {
		b = append(b, 1)
	} else {
		b = append(b, 0)
	}
	for _, n := range []int{r.Decisions, r.Corrected, r.Caught, r.Silent} {
		b = binary.AppendUvarint(b, uint64(n))
	}
	b = appendString(b, r.Error)
	b = appendString(b, r.Snippet)
	// FlagNames trails the row: decoders that predate it stop at Snippet and
	// ignore it, and rows without it decode with "" (no format bump needed).
	// The verdict byte trails FlagNames the same way, so FlagNames is
	// written (maybe empty) whenever a verdict follows it.
	// A held call's expiry trails the verdict byte, which is then written
	// (maybe 0) too.
	v := verdictCode(r.Verdict)
	if r.FlagNames != "" || v != 0 || r.Expires != 0 {
		b = appendString(b, r.FlagNames)
	}
	if v != 0 || r.Expires != 0 {
		b = append(b, v)
	}
	if r.Expires != 0 {
		b = binary.LittleEndian.AppendUint64(b, uint64(r.Expires))
	}
	return b
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

var errShortSummary = errors.New("truncated summary row")

// sumReader decodes a row from one string copy of it, so a row costs one
// allocation however many strings it holds.
type sumReader struct {
	b   string
	err error
}

func (r *sumReader) uvarint() int {
	if r.err != nil {
		return 0
	}
	var v uint64
	var n int
	for i := 0; i < len(r.b) && i < binary.MaxVarintLen64; i++ {
		c := r.b[i]
		if c < 0x80 {
			v |= uint64(c) << (7 * i)
			n = i + 1
			break
		}
		v |= uint64(c&0x7f) << (7 * i)
	}
	if n <= 0 || v > math.MaxInt32 {
		r.err = errShortSummary
		return 0
	}
	r.b = r.b[n:]
	return int(v)
}

func (r *sumReader) str() string {
	n := r.uvarint()
	if r.err != nil {
		return ""
	}
	if n > len(r.b) {
		r.err = errShortSummary
		return ""
	}
	s := r.b[:n]
	r.b = r.b[n:]
	return s
}

func (r *sumReader) byte1() byte {
	if r.err != nil || len(r.b) < 1 {
		r.err = errShortSummary
		return 0
	}
	c := r.b[0]
	r.b = r.b[1:]
	return c
}

func decodeSummary(b []byte) (sumRec, error) {
	r := &sumReader{b: string(b)}
	f := r.byte1()
	if f != sumFormat && f != sumFormatV1 && r.err == nil {
		return sumRec{}, fmt.Errorf("summary row format %d, want %d", f, sumFormat)
	}
	var s sumRec
	s.Seq = r.uvarint()
	s.DocID = r.str()
	if f == sumFormat {
		s.Kind = Kind(r.byte1())
	}
	s.Status = internStatus(r.str())
	if r.err == nil && len(r.b) >= 8 {
		s.Confidence = math.Float64frombits(binary.LittleEndian.Uint64([]byte(r.b[:8])))
		r.b = r.b[8:]
	} else {
		r.err = errShortSummary
	}
	s.Flagged = r.uvarint()
	s.Reviewed = r.byte1() == 1
	s.Decisions = r.uvarint()
	s.Corrected = r.uvarint()
	s.Caught = r.uvarint()
	s.Silent = r.uvarint()
	s.Error = r.str()
	s.Snippet = r.str()
	if r.err == nil && len(r.b) > 0 {
		s.FlagNames = r.str()
	}
	if r.err == nil && len(r.b) > 0 {
		s.Verdict = verdictOfCode(r.byte1())
	}
	if r.err == nil && len(r.b) >= 8 {
		s.Expires = int64(binary.LittleEndian.Uint64([]byte(r.b[:8])))
		r.b = r.b[8:]
	}
	if r.err != nil {
		return sumRec{}, r.err
	}
	return s, nil
}

// internStatus keeps the few known statuses from pinning each row's copy.
func internStatus(s string) pipeline.Status {
	for _, known := range []pipeline.Status{pipeline.StatusOK, pipeline.StatusNeedsReview, pipeline.StatusError, ""} {
		if s == string(known) {
			return known
		}
	}
	return pipeline.Status(s)
}

// snippetOf is the first non-blank line of text, cut to keep rows small.
func snippetOf(text string) string {
	for line := range strings.SplitSeq(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		const max = 80
		if utf8.RuneCountInString(line) > max {
			line = string([]rune(line)[:max])
		}
		return line
	}
	return ""
}

// computeSummary derives a document's queue row from its latest result (nil
// when none), current field decisions and verdict ("" when none). base
// carries DocID, Kind, Seq and Snippet.
func computeSummary(base sumRec, res *pipeline.Result, decs map[string]Decision, verdict Action) sumRec {
	s := sumRec{Summary: Summary{DocID: base.DocID, Kind: base.Kind, Seq: base.Seq, Snippet: base.Snippet}}
	if res != nil {
		s.Status = res.Status
		s.Confidence = res.OverallConfidence
		s.Flagged = len(res.FlaggedFields)
		s.FlagNames = flagNames(res.FlaggedFields)
		s.Error = res.ErrorMessage
	}
	s.Decisions = len(decs)
	for _, d := range decs {
		if SameValue(d.Value, PipelineValue(res, d)) {
			continue
		}
		s.Corrected++
		// A null the gate passed and a reviewer filled in is a missed
		// value, not silent-wrong: the audit and calibrate count it apart,
		// and stats says the same (new user report #11). It is Corrected
		// minus Caught minus Silent, so the row format does not change.
		switch {
		case flaggedWhenDecided(res, d):
			s.Caught++
		case PipelineValue(res, d) != nil:
			s.Silent++
		}
	}
	s.Reviewed = isReviewed(res, decs)
	s.Verdict = verdict
	if verdict == ActionReject {
		// Not a document: nothing in it is left to review, and none of
		// its fields is a correction of the pipeline worth counting.
		s.Reviewed, s.Corrected, s.Caught, s.Silent = true, 0, 0, 0
	}
	return s
}

func flagNames(fs []pipeline.FlaggedField) string {
	if len(fs) == 0 {
		return ""
	}
	names := make([]string, 0, len(fs))
	for _, f := range fs {
		if !slices.Contains(names, f.Field) {
			names = append(names, f.Field)
		}
	}
	return strings.Join(names, ",")
}

// isReviewed: at least one decision and every flagged field decided.
func isReviewed(res *pipeline.Result, decs map[string]Decision) bool {
	if len(decs) == 0 {
		return false
	}
	if res != nil {
		for _, f := range res.FlaggedFields {
			if _, ok := decs[f.Field]; !ok {
				return false
			}
		}
	}
	return true
}

// PipelineValue is what the pipeline said for the decision's field in the
// run the decision was made on: the value it recorded. A decision without a
// recorded run (stored before runs were recorded, or made before any result)
// falls back to the latest result. Judging against the latest result instead
// turned a reviewer's accept into a correction once the corpus was opened
// under another provider (new-user report #1).
func PipelineValue(res *pipeline.Result, d Decision) any {
	if d.Version == "" && res != nil {
		if v, ok := res.Data[d.Field]; ok {
			return v
		}
	}
	return d.Original
}

// flaggedWhenDecided is whether the gate flagged the field in the run the
// decision was made on.
func flaggedWhenDecided(res *pipeline.Result, d Decision) bool {
	if d.Version != "" {
		return d.Flagged
	}
	return res != nil && res.Flagged(d.Field)
}

// moneyTolerance is half a cent, inclusive, as golden.MoneyTolerance: a value
// eval scores right must not count as a correction in review statistics.
const moneyTolerance = 0.005

// SameValue compares two field values the way review statistics do: numbers
// within half a cent (money), strings after trimming, nil only equal to nil.
func SameValue(a, b any) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	fa, aNum := toFloat(a)
	fb, bNum := toFloat(b)
	if aNum && bNum {
		return math.Abs(fa-fb) <= moneyTolerance+1e-9
	}
	sa, aStr := a.(string)
	sb, bStr := b.(string)
	if aStr && bStr {
		return strings.TrimSpace(sa) == strings.TrimSpace(sb)
	}
	return fmt.Sprint(a) == fmt.Sprint(b)
}

func toFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case float32:
		return float64(x), true
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	}
	return 0, false
}

// refreshSummary recomputes one document's row after its result or decisions
// changed, and returns it. res is the document's latest result when the
// caller has it at hand (it just wrote it); nil reads it from the store.
func refreshSummary(tx *bbolt.Tx, corpusID, docID string, res *pipeline.Result) (Summary, error) {
	bs, err := buckets(tx, bktDocIndex, bktSummaries)
	if err != nil {
		return Summary{}, err
	}
	seq := bs[0].Get(docKey(corpusID, docID))
	if seq == nil {
		return Summary{}, fmt.Errorf("document %q in corpus %q: %w", docID, corpusID, ErrNotFound)
	}
	key := append(prefix(corpusID), seq...)
	raw := bs[1].Get(key)
	if raw == nil {
		return Summary{}, fmt.Errorf("document %q in corpus %q has no summary row", docID, corpusID)
	}
	base, err := decodeSummary(raw)
	if err != nil {
		return Summary{}, fmt.Errorf("summary of %q: %w", docID, err)
	}
	if res == nil {
		if res, err = latestResult(tx, corpusID, docID); err != nil {
			return Summary{}, err
		}
	}
	decs, err := decisionsOf(tx, corpusID, docID)
	if err != nil {
		return Summary{}, err
	}
	v, _, err := verdictOf(tx, corpusID, docID)
	if err != nil {
		return Summary{}, err
	}
	row := computeSummary(base, res, decs, v.Action)
	if v.Action == ActionSkip && row.Reviewed {
		// A skip stands until a reviewer completes the document on the run
		// shown: switching to a run whose flagged fields happen to be
		// decided already must not turn a document set aside into a
		// reviewed, exported one (new-user report #1).
		lb, err := bucket(tx, bktLatest)
		if err != nil {
			return Summary{}, err
		}
		row.Reviewed = decidedSince(decs, v.Decision.At, string(lb.Get(docKey(corpusID, docID))))
	}
	if err := bs[1].Put(key, encodeSummary(row)); err != nil {
		return Summary{}, err
	}
	if err := noteChange(tx, corpusID, docID); err != nil {
		return Summary{}, err
	}
	return row.Summary, nil
}

// decidedSince reports whether a decision made on the run shown (or before
// runs were recorded) is newer than at.
func decidedSince(decs map[string]Decision, at time.Time, shown string) bool {
	for _, d := range decs {
		if d.At.After(at) && (d.Version == "" || d.Version == shown) {
			return true
		}
	}
	return false
}
