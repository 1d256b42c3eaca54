package store

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/reflect-mcp/reflect/internal/jsonstr"
	"go.etcd.io/bbolt"
)

// appendFresh stores docs after the corpus's last document, in order:
// addDocument for many, whose ids planCorpus found new in this same
// transaction, so the next Seq is found once and no id is looked up again.
// Only an id repeated within docs is looked for (the first one is stored).
func appendFresh(tx *bbolt.Tx, corpusID string, docs []Document) error {
	if len(docs) == 0 {
		return nil
	}
	bs, err := docBuckets(tx)
	if err != nil {
		return err
	}
	w := docWriter{docBucketSet: bs, corpusID: corpusID}
	// Ids in ascending order cannot repeat.
	recheck := !docIDsAscend(docs)
	seq := nextSeq(bs.docs, corpusID)
	for _, d := range docs {
		if recheck && bs.index.Get(docKey(corpusID, d.ID)) != nil {
			continue
		}
		d.CorpusID, d.Seq = corpusID, seq
		if err := w.put(d); err != nil {
			return err
		}
		seq++
	}
	return nil
}

// docBucketSet is the buckets a new document is written to.
type docBucketSet struct{ docs, index, sums, traces *bbolt.Bucket }

func docBuckets(tx *bbolt.Tx) (docBucketSet, error) {
	bs, err := buckets(tx, bktDocs, bktDocIndex, bktSummaries, bktTraces)
	if err != nil {
		return docBucketSet{}, err
	}
	return docBucketSet{bs[0], bs[1], bs[2], bs[3]}, nil
}

// docWriter writes new documents of one corpus in one transaction. bbolt
// copies a key on Put but keeps the value until the commit, so keys are
// built in one reused buffer and values are cut from chunks no later value
// overwrites: a corpus open writes three of each per document, and one
// allocation apiece was most of its garbage.
type docWriter struct {
	docBucketSet
	corpusID string
	key      []byte
	chunk    []byte
}

// docChunk is the size of a value chunk: about a hundred small documents.
const docChunk = 64 << 10

// reserve makes room at the chunk's end for a value of about n bytes and
// returns where it starts. A value that outgrows the room moves the chunk
// (append copies it); values cut before stay where they were.
func (w *docWriter) reserve(n int) int {
	if cap(w.chunk)-len(w.chunk) < n {
		w.chunk = make([]byte, 0, max(docChunk, n))
	}
	return len(w.chunk)
}

// cut is the value appended since start, capped so that no later append
// to the chunk writes into it.
func (w *docWriter) cut(start int) []byte {
	return w.chunk[start:len(w.chunk):len(w.chunk)]
}

// put writes a new document d, whose CorpusID and Seq are set, with its
// index entry and queue row.
func (w *docWriter) put(d Document) error {
	var err error
	at := w.reserve(documentJSONSize(d))
	if w.chunk, err = appendDocumentJSON(w.chunk, d); err != nil {
		return fmt.Errorf("encode document %q: %w", d.ID, err)
	}
	raw := w.cut(at)
	at = w.reserve(8)
	w.chunk = binary.BigEndian.AppendUint64(w.chunk, uint64(d.Seq))
	seq := w.cut(at)
	w.key = append(append(w.key[:0], w.corpusID...), 0)
	w.key = append(w.key, seq...)
	if err := w.docs.Put(w.key, raw); err != nil {
		return err
	}
	row := sumRec{Summary: Summary{DocID: d.ID, Kind: d.Kind, Seq: d.Seq, Snippet: snippetOf(d.Text)}}
	at = w.reserve(64 + len(row.DocID) + len(row.Snippet))
	w.chunk = appendSummary(w.chunk, row)
	if err := w.sums.Put(w.key, w.cut(at)); err != nil {
		return err
	}
	w.key = append(w.key[:len(w.corpusID)+1], d.ID...)
	if err := w.index.Put(w.key, seq); err != nil {
		return err
	}
	if d.TraceID != "" {
		if err := w.traces.Put([]byte(d.TraceID), docKey(w.corpusID, d.ID)); err != nil {
			return err
		}
	}
	return nil
}

// documentJSONSize is about what appendDocumentJSON writes for d: texts
// have a line break (two bytes escaped) every few dozen bytes.
func documentJSONSize(d Document) int {
	return 80 + len(d.CorpusID) + len(d.ID) + len(d.Text) + len(d.Text)/16 + len(d.TraceID)
}

// appendDocumentJSON appends d as json.Marshal writes it (HTML escaping
// on; TestDocumentJSONIsMarshal holds the two to the same bytes, which
// sameText relies on). A document with expected values is left to
// json.Marshal.
func appendDocumentJSON(b []byte, d Document) ([]byte, error) {
	if d.Expected != nil || int(d.Kind) >= len(kindNames) {
		raw, err := json.Marshal(d)
		return append(b, raw...), err
	}
	b = append(b, `{"corpus_id":"`...)
	b = jsonstr.AppendChars(b, d.CorpusID, true)
	b = append(b, `","id":"`...)
	b = jsonstr.AppendChars(b, d.ID, true)
	b = append(b, `","kind":"`...)
	b = append(b, kindNames[d.Kind]...)
	b = append(b, `","seq":`...)
	b = strconv.AppendInt(b, int64(d.Seq), 10)
	b = append(b, `,"text":"`...)
	b = jsonstr.AppendChars(b, d.Text, true)
	b = append(b, '"')
	if d.TraceID != "" {
		b = append(b, `,"trace_id":"`...)
		b = jsonstr.AppendChars(b, d.TraceID, true)
		b = append(b, '"')
	}
	return append(b, '}'), nil
}
