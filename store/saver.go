package store

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/reflect-mcp/reflect/pipeline"
	"go.etcd.io/bbolt"
)

// ErrOtherDocument is wrapped when a saved line's id is already stored in
// the corpus with another text (a duplicate id in the file, or the file was
// edited): its result is not put on the other document.
var ErrOtherDocument = errors.New("the stored document of this id has another text")

// saveGroup bounds one transaction of a Saver: big enough that one fsync
// covers many results, small enough that the transaction stays short for
// the other processes waiting on the store (issue 10 §1).
const saveGroup = 512

// saveWait is how long a group waits to fill once its first result came.
// Committing whatever was queued at once made groups of about 20 results
// whenever the store kept up with the batch (460 commits, 920 fdatasyncs
// for 9,784 documents), each rewriting the same last pages of every
// bucket; waiting this long costs a stored result at most this much
// latency and nothing on a batch's output.
const saveWait = 200 * time.Millisecond

// Saver stores a batch's documents with their results as they come (issue
// 10 §4: no corpus load and no giant transaction before the first result),
// group-committed in the background (issue 11: one fsync per group, not
// per result). Add blocks only when saveGroup*2 items are waiting, so
// memory stays flat in the input's size.
type Saver struct {
	s       *Store
	corpus  Corpus
	version string
	ch      chan saveItem
	wg      sync.WaitGroup
}

type saveItem struct {
	doc     Document
	res     pipeline.Result
	encoded []byte // res as res.MarshalJSON returns it, or nil
	done    func(error)
}

// NewSaver starts a Saver into corpus c (created on first write, its record
// otherwise left as it is).
func (s *Store) NewSaver(c Corpus, pipelineVersion string) (*Saver, error) {
	if err := checkID("corpus id", c.ID); err != nil {
		return nil, fmt.Errorf("save: %w", err)
	}
	if err := checkID("pipeline version", pipelineVersion); err != nil {
		return nil, fmt.Errorf("save: %w", err)
	}
	v := &Saver{s: s, corpus: c, version: pipelineVersion, ch: make(chan saveItem, 2*saveGroup)}
	v.wg.Add(1)
	go v.loop()
	return v, nil
}

// Add queues doc and its result; done is called (on the Saver's goroutine)
// once they are on disk, in the store or its outbox, or with the error.
// encoded is r as r.MarshalJSON returns it when the caller has encoded it
// already (a batch prints that line), so it is stored without a second
// encoding; nil has the Saver encode r.
func (v *Saver) Add(doc Document, r pipeline.Result, encoded []byte, done func(error)) {
	v.ch <- saveItem{doc: doc, res: r, encoded: encoded, done: done}
}

// Close waits until everything added is written.
func (v *Saver) Close() {
	close(v.ch)
	v.wg.Wait()
}

func (v *Saver) loop() {
	defer v.wg.Done()
	batch := make([]saveItem, 0, saveGroup)
	waited := time.NewTimer(saveWait)
	waited.Stop()
	for it := range v.ch {
		batch = append(batch[:0], it)
		waited.Reset(saveWait)
		closed := v.fill(&batch, waited.C)
		waited.Stop()
		v.commit(batch)
		if closed {
			return
		}
	}
}

// fill adds queued items to batch until it holds saveGroup, timeout fires
// or the Saver is closed, which it reports.
func (v *Saver) fill(batch *[]saveItem, timeout <-chan time.Time) (closed bool) {
	for len(*batch) < saveGroup {
		select {
		case it, ok := <-v.ch:
			if !ok {
				return true
			}
			*batch = append(*batch, it)
		case <-timeout:
			return false
		}
	}
	return false
}

func (v *Saver) commit(batch []saveItem) {
	errs := make([]error, len(batch))
	err := v.s.runWait(context.Background(), true, outboxAfter, current(func(tx *bbolt.Tx) error {
		if err := ensureCorpus(tx, v.corpus); err != nil {
			return err
		}
		packAppends(tx, idsAscend(batch))
		for i, it := range batch {
			errs[i] = saveLineTx(tx, v.corpus.ID, it.doc, v.version, it.res, it.encoded)
			if errs[i] != nil && !errors.Is(errs[i], ErrOtherDocument) {
				return fmt.Errorf("%q: %w", it.doc.ID, errs[i])
			}
		}
		return nil
	}))
	if errors.Is(err, ErrLocked) {
		err = v.toOutbox(batch)
		clear(errs)
	}
	for i, it := range batch {
		e := errs[i]
		if err != nil {
			e = err
		}
		if it.done != nil {
			it.done(e)
		}
	}
}

func (v *Saver) toOutbox(batch []saveItem) error {
	lines := make([][]byte, 0, len(batch))
	for _, it := range batch {
		doc := it.doc
		c := v.corpus
		l, err := encodedEntryLine(outboxEntry{Op: "line", Corpus: &c, Doc: &doc, Version: v.version}, it.res, it.encoded)
		if err != nil {
			return err
		}
		lines = append(lines, l)
	}
	if err := appendOutbox(v.s.path, lines); err != nil {
		return fmt.Errorf("store %s is locked and its outbox cannot be written: %w", v.s.path, err)
	}
	return nil
}

// ensureCorpus creates the corpus record unless it exists.
func ensureCorpus(tx *bbolt.Tx, c Corpus) error {
	b, err := bucket(tx, bktCorpora)
	if err != nil {
		return err
	}
	if b.Get([]byte(c.ID)) != nil {
		return nil
	}
	return putCorpus(tx, c)
}

// saveLineTx adds the document unless its id is stored, and puts the result
// (encoded as raw, or nil) on it when the stored text is this line's.
func saveLineTx(tx *bbolt.Tx, corpusID string, doc Document, version string, r pipeline.Result, raw []byte) error {
	if err := checkID("document id", doc.ID); err != nil {
		return err
	}
	stored, err := addDocument(tx, corpusID, doc)
	if err != nil {
		return err
	}
	if stored.Text != doc.Text {
		// Marked, not silently kept: the workstation shows the document's
		// text changed in the file since it was stored.
		if err := markTextChanges(tx, corpusID, []Document{doc}, nil); err != nil {
			return err
		}
		return fmt.Errorf("%q: %w", doc.ID, ErrOtherDocument)
	}
	_, err = putEncodedResult(tx, corpusID, doc.ID, version, r, raw)
	return err
}

// packAppends fills the pages a group of new documents appends to. bbolt
// splits a page half full by default, which suits keys that land anywhere
// but leaves every page of a bucket that grows at one end half empty: twice
// the file, and twice the bytes written and synced per group. Documents,
// summaries and the change log are keyed by sequence, so a group always
// appends to them; the buckets keyed by document id only when the group's
// ids ascend (a file in id order), since packed pages that later take keys
// in between would split again at every insert. Only the page layout
// changes; the transaction's content is the same.
func packAppends(tx *bbolt.Tx, idsAscend bool) {
	names := [][]byte{bktDocs, bktSummaries, bktChanges}
	if idsAscend {
		names = append(names, bktDocIndex, bktResults, bktLatest, bktChangeIdx)
	}
	for _, n := range names {
		if b := tx.Bucket(n); b != nil {
			b.FillPercent = 1.0
		}
	}
}

// idsAscend reports whether the group's document ids are in ascending order.
func idsAscend(batch []saveItem) bool {
	for i := 1; i < len(batch); i++ {
		if batch[i].doc.ID <= batch[i-1].doc.ID {
			return false
		}
	}
	return true
}
