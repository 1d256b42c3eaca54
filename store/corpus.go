package store

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"sort"
	"time"

	"github.com/reflect-mcp/reflect/pipeline"
	"go.etcd.io/bbolt"
)

// PutCorpus creates or updates a corpus and adds the documents it does not
// have yet. Documents already stored keep their text, Seq, results and
// decisions, so re-opening the same file resumes a review. New documents are
// appended after the existing ones, in the order of their Seq.
func (s *Store) PutCorpus(ctx context.Context, c Corpus, docs []Document) error {
	if err := checkID("corpus id", c.ID); err != nil {
		return fmt.Errorf("put corpus: %w", err)
	}
	for _, d := range docs {
		if err := checkID("document id", d.ID); err != nil {
			return fmt.Errorf("put corpus %q: %w", c.ID, err)
		}
	}
	// Reopening a stored corpus is the common case (issue 11: review FILE on
	// 100k documents took an exclusive lock and an fsync on every open):
	// look first under a shared lock, and take the write lock only when
	// something is to be written. The look stops at the first such thing;
	// the write decides again under its lock, so what it writes is what the
	// file has at that moment, not at the look.
	var need bool
	err := s.view(ctx, func(tx *bbolt.Tx) error {
		p, err := planCorpus(tx, c, docs, true)
		need = p.writes()
		return err
	})
	if err != nil {
		return fmt.Errorf("put corpus %q: %w", c.ID, err)
	}
	if !need {
		return nil
	}
	err = s.updateGrowing(ctx, storedSize(c.ID, docs), func(tx *bbolt.Tx) error {
		p, err := planCorpus(tx, c, docs, false)
		if err != nil {
			return err
		}
		if err := putCorpus(tx, c); err != nil {
			return err
		}
		sort.SliceStable(p.fresh, func(i, j int) bool { return p.fresh[i].Seq < p.fresh[j].Seq })
		packAppends(tx, docIDsAscend(p.fresh))
		if err := appendFresh(tx, c.ID, p.fresh); err != nil {
			return err
		}
		return markTextChanges(tx, c.ID, p.changed, p.unchanged)
	})
	if err != nil {
		return fmt.Errorf("put corpus %q: %w", c.ID, err)
	}
	return nil
}

// corpusPlan is what PutCorpus has to write: the corpus record when it is
// not the stored one, the documents the store does not have, those whose
// file text differs from the stored text, and those marked changed whose
// file has the stored text again.
type corpusPlan struct {
	record                    bool
	fresh, changed, unchanged []Document
}

func (p corpusPlan) writes() bool {
	return p.record || len(p.fresh) > 0 || len(p.changed) > 0 || len(p.unchanged) > 0
}

// planCorpus compares c and docs with the store. With firstOnly it stops
// at the first thing to write: the look before the write lock needs only
// to know whether there is one.
func planCorpus(tx *bbolt.Tx, c Corpus, docs []Document, firstOnly bool) (corpusPlan, error) {
	var p corpusPlan
	bs, err := buckets(tx, bktCorpora, bktDocIndex, bktDocs)
	if err != nil {
		return p, err
	}
	p.record = true
	if old := bs[0].Get([]byte(c.ID)); old != nil {
		var prev Corpus
		if err := json.Unmarshal(old, &prev); err == nil {
			want := c
			want.Created = prev.Created
			a, _ := json.Marshal(prev)
			b, _ := json.Marshal(want)
			p.record = !bytes.Equal(a, b)
		}
	}
	if !firstOnly {
		p.fresh = make([]Document, 0, len(docs))
	}
	// One cursor per bucket for every lookup: Bucket.Get makes one per call.
	index, stored := bs[1].Cursor(), bs[2].Cursor()
	var marks *bbolt.Cursor
	if b := tx.Bucket(bktTextChanged); b != nil {
		marks = b.Cursor()
	}
	var text textMatch
	key, at := prefix(c.ID), prefix(c.ID)
	for _, d := range docs {
		if firstOnly && p.writes() {
			return p, nil
		}
		key = append(key[:len(c.ID)+1], d.ID...)
		k, seq := index.Seek(key)
		if !bytes.Equal(k, key) {
			p.fresh = append(p.fresh, d)
			continue
		}
		at = append(at[:len(c.ID)+1], seq...)
		sk, raw := stored.Seek(at)
		if !bytes.Equal(sk, at) {
			raw = nil
		}
		switch {
		case !text.same(raw, d.Text):
			p.changed = append(p.changed, d)
		case marks != nil && seekExact(marks, key):
			p.unchanged = append(p.unchanged, d) // the file has the stored text again
		}
	}
	return p, nil
}

// seekExact reports whether c's bucket has key.
func seekExact(c *bbolt.Cursor, key []byte) bool {
	k, _ := c.Seek(key)
	return bytes.Equal(k, key)
}

// storedSize is about what storing docs adds to the file, twice over for
// the pages a commit copies before it frees the old ones.
func storedSize(corpusID string, docs []Document) int {
	n := 0
	for _, d := range docs {
		n += 2 * (len(d.Text) + len(d.Text)/16 + 2*len(d.ID) + 3*len(corpusID) + 200)
	}
	return n
}

// docIDsAscend reports whether docs' ids are in ascending order.
func docIDsAscend(docs []Document) bool {
	for i := 1; i < len(docs); i++ {
		if docs[i].ID <= docs[i-1].ID {
			return false
		}
	}
	return true
}

// putCorpus upserts the corpus record, keeping the original creation time.
func putCorpus(tx *bbolt.Tx, c Corpus) error {
	b, err := bucket(tx, bktCorpora)
	if err != nil {
		return err
	}
	if old := b.Get([]byte(c.ID)); old != nil {
		var prev Corpus
		if err := json.Unmarshal(old, &prev); err != nil {
			return fmt.Errorf("decode corpus %q: %w", c.ID, err)
		}
		c.Created = prev.Created
	}
	if c.Created.IsZero() {
		c.Created = time.Now().UTC()
	}
	raw, err := json.Marshal(c)
	if err != nil {
		return fmt.Errorf("encode corpus: %w", err)
	}
	return b.Put([]byte(c.ID), raw)
}

// addDocument stores d at the next Seq unless its ID is already in the
// corpus; it returns the stored document either way.
func addDocument(tx *bbolt.Tx, corpusID string, d Document) (Document, error) {
	bs, err := docBuckets(tx)
	if err != nil {
		return Document{}, err
	}
	if seq := bs.index.Get(docKey(corpusID, d.ID)); seq != nil {
		raw := bs.docs.Get(append(prefix(corpusID), seq...))
		var old Document
		if err := json.Unmarshal(raw, &old); err != nil {
			return Document{}, fmt.Errorf("decode document %q: %w", d.ID, err)
		}
		return old, nil
	}
	d.CorpusID = corpusID
	d.Seq = nextSeq(bs.docs, corpusID)
	w := docWriter{docBucketSet: bs, corpusID: corpusID}
	return d, w.put(d)
}

// nextSeq is one past the corpus's last document.
func nextSeq(docs *bbolt.Bucket, corpusID string) int {
	next := 0
	_ = scanPrefixReverse(docs, prefix(corpusID), nil, func(k, _ []byte) (bool, error) {
		next = int(binary.BigEndian.Uint64(k[len(k)-8:])) + 1
		return false, nil
	})
	return next
}

// Corpus returns one corpus.
func (s *Store) Corpus(ctx context.Context, id string) (Corpus, error) {
	var c Corpus
	err := s.view(ctx, func(tx *bbolt.Tx) error {
		var err error
		c, err = getCorpus(tx, id)
		return err
	})
	return c, err
}

func getCorpus(tx *bbolt.Tx, id string) (Corpus, error) {
	b, err := bucket(tx, bktCorpora)
	if err != nil {
		return Corpus{}, err
	}
	raw := b.Get([]byte(id))
	if raw == nil {
		return Corpus{}, fmt.Errorf("corpus %q: %w", id, ErrNotFound)
	}
	var c Corpus
	if err := json.Unmarshal(raw, &c); err != nil {
		return Corpus{}, fmt.Errorf("decode corpus %q: %w", id, err)
	}
	return c, nil
}

// Corpora lists every corpus, oldest first.
func (s *Store) Corpora(ctx context.Context) ([]Corpus, error) {
	var out []Corpus
	err := s.view(ctx, func(tx *bbolt.Tx) error {
		b, err := bucket(tx, bktCorpora)
		if err != nil {
			return err
		}
		return b.ForEach(func(k, v []byte) error {
			var c Corpus
			if err := json.Unmarshal(v, &c); err != nil {
				return fmt.Errorf("decode corpus %q: %w", k, err)
			}
			out = append(out, c)
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("list corpora: %w", err)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Created.Before(out[j].Created) })
	return out, nil
}

// Document returns one document with its text.
func (s *Store) Document(ctx context.Context, corpusID, docID string) (Document, error) {
	var d Document
	err := s.view(ctx, func(tx *bbolt.Tx) error {
		var err error
		d, err = getDocument(tx, corpusID, docID)
		return err
	})
	return d, err
}

func getDocument(tx *bbolt.Tx, corpusID, docID string) (Document, error) {
	bs, err := buckets(tx, bktDocs, bktDocIndex)
	if err != nil {
		return Document{}, err
	}
	seq := bs[1].Get(docKey(corpusID, docID))
	if seq == nil {
		return Document{}, fmt.Errorf("document %q in corpus %q: %w", docID, corpusID, ErrNotFound)
	}
	var d Document
	if err := json.Unmarshal(bs[0].Get(append(prefix(corpusID), seq...)), &d); err != nil {
		return Document{}, fmt.Errorf("decode document %q: %w", docID, err)
	}
	return d, nil
}

// Summaries returns the queue rows of a corpus in Seq order. It reads only the
// compact summaries bucket.
func (s *Store) Summaries(ctx context.Context, corpusID string) ([]Summary, error) {
	var out []Summary
	err := s.view(ctx, func(tx *bbolt.Tx) error {
		b, err := bucket(tx, bktSummaries)
		if err != nil {
			return err
		}
		// Seqs are dense, so the last one sizes the slice.
		out = make([]Summary, 0, nextSeq(b, corpusID))
		return scanPrefix(b, prefix(corpusID), func(k, v []byte) error {
			r, err := decodeSummary(v)
			if err != nil {
				return fmt.Errorf("summary %x: %w", k, err)
			}
			out = append(out, r.Summary)
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("summaries of %q: %w", corpusID, err)
	}
	return out, nil
}

// Enqueue stores a document an MCP client sent, with its result, in the
// corpus QueueCorpusID(queue) (created on first use). The document's TraceID is the
// result's, and the trace is indexed for FindTrace. A document whose ID is
// already queued with a different text is stored under a suffixed ID rather
// than overwriting the first. It returns the corpus id and the document's
// queue row.
func (s *Store) Enqueue(ctx context.Context, queue string, doc Document, pipelineVersion string, r pipeline.Result) (string, Summary, error) {
	corpusID := QueueCorpusID(queue)
	if err := checkID("queue", queue); err != nil {
		return "", Summary{}, fmt.Errorf("enqueue: %w", err)
	}
	doc.TraceID = r.TraceID
	var row Summary
	err := s.groupWrite(ctx, func(tx *bbolt.Tx) error {
		var err error
		row, err = enqueueTx(tx, queue, doc, pipelineVersion, r)
		return err
	}, func() ([]byte, error) { return enqueueEntry(queue, doc, pipelineVersion, r) })
	if err != nil {
		return "", Summary{}, fmt.Errorf("enqueue to %q: %w", corpusID, err)
	}
	return corpusID, row, nil
}

// enqueueTx is Enqueue's write, also replayed from the outbox.
func enqueueTx(tx *bbolt.Tx, queue string, doc Document, pipelineVersion string, r pipeline.Result) (Summary, error) {
	corpusID := QueueCorpusID(queue)
	if _, err := getCorpus(tx, corpusID); err != nil {
		c := Corpus{ID: corpusID, Name: queue, Kind: "mcp", Schema: r.Schema, Created: time.Now().UTC()}
		if err := putCorpus(tx, c); err != nil {
			return Summary{}, err
		}
	}
	docs, err := bucket(tx, bktDocs)
	if err != nil {
		return Summary{}, err
	}
	if doc.ID == "" {
		doc.ID = fmt.Sprintf("doc-%d", nextSeq(docs, corpusID)+1)
	}
	if err := checkID("document id", doc.ID); err != nil {
		return Summary{}, err
	}
	stored, err := addDocument(tx, corpusID, doc)
	if err != nil {
		return Summary{}, err
	}
	for base, try := doc.ID, 0; stored.Text != doc.Text; try++ {
		if try == 10 {
			return Summary{}, fmt.Errorf("document id %q is taken by other texts", base)
		}
		doc.ID = fmt.Sprintf("%s#%d", base, nextSeq(docs, corpusID)+try)
		if stored, err = addDocument(tx, corpusID, doc); err != nil {
			return Summary{}, err
		}
	}
	return putResult(tx, corpusID, stored.ID, pipelineVersion, r)
}

// FindTrace says which document a trace id belongs to. A trace still in the
// outbox is found with its corpus and, for a queue entry not yet replayed, an
// empty docID (Settled reports it not reviewed).
func (s *Store) FindTrace(ctx context.Context, traceID string) (corpusID, docID string, ok bool, err error) {
	// The outbox first: an entry leaves it only after it is committed to
	// the store, so one of the two looks sees it, and a store held by
	// another process does not hide it.
	if corpusID, docID, ok = outboxTrace(s.path, traceID); ok {
		return corpusID, docID, ok, nil
	}
	return s.findTrace(ctx, traceID)
}

func (s *Store) findTrace(ctx context.Context, traceID string) (corpusID, docID string, ok bool, err error) {
	err = s.view(ctx, func(tx *bbolt.Tx) error {
		b, err := bucket(tx, bktTraces)
		if err != nil {
			return err
		}
		v := b.Get([]byte(traceID))
		if v == nil {
			return nil
		}
		for i, c := range v {
			if c == 0 {
				corpusID, docID, ok = string(v[:i]), string(v[i+1:]), true
				return nil
			}
		}
		return fmt.Errorf("trace %q: malformed index entry", traceID)
	})
	if err != nil {
		return "", "", false, fmt.Errorf("find trace: %w", err)
	}
	return corpusID, docID, ok, nil
}

// Documents reads the documents ids names, in that order, in one
// transaction: a resume loads texts a batch at a time (MissingResultIDs
// holds none) without opening the file once per document.
func (s *Store) Documents(ctx context.Context, corpusID string, ids []string) ([]Document, error) {
	out := make([]Document, 0, len(ids))
	err := s.view(ctx, func(tx *bbolt.Tx) error {
		for _, id := range ids {
			d, err := getDocument(tx, corpusID, id)
			if err != nil {
				return err
			}
			out = append(out, d)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("documents of %q: %w", corpusID, err)
	}
	return out, nil
}
