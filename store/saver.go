package store

import (
	"context"
	"errors"
	"fmt"
	"sync"

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
	doc  Document
	res  pipeline.Result
	done func(error)
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
func (v *Saver) Add(doc Document, r pipeline.Result, done func(error)) {
	v.ch <- saveItem{doc: doc, res: r, done: done}
}

// Close waits until everything added is written.
func (v *Saver) Close() {
	close(v.ch)
	v.wg.Wait()
}

func (v *Saver) loop() {
	defer v.wg.Done()
	batch := make([]saveItem, 0, saveGroup)
	for it := range v.ch {
		batch = append(batch[:0], it)
	more:
		for len(batch) < saveGroup {
			select {
			case it, ok := <-v.ch:
				if !ok {
					break more
				}
				batch = append(batch, it)
			default:
				break more
			}
		}
		v.commit(batch)
	}
}

func (v *Saver) commit(batch []saveItem) {
	errs := make([]error, len(batch))
	err := v.s.runWait(context.Background(), true, outboxAfter, current(func(tx *bbolt.Tx) error {
		if err := ensureCorpus(tx, v.corpus); err != nil {
			return err
		}
		for i, it := range batch {
			errs[i] = saveLineTx(tx, v.corpus.ID, it.doc, v.version, it.res)
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
		l, err := entryLine(outboxEntry{Op: "line", Corpus: &c, Doc: &doc, Version: v.version}, it.res)
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
// on it when the stored text is this line's.
func saveLineTx(tx *bbolt.Tx, corpusID string, doc Document, version string, r pipeline.Result) error {
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
	_, err = putResult(tx, corpusID, doc.ID, version, r)
	return err
}
