package store

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/reflect-mcp/reflect/pipeline"
	"go.etcd.io/bbolt"
)

// PutResult stores a pipeline result for one document under a pipeline
// version, makes it the document's latest result and refreshes its queue row,
// which it returns. Earlier versions' results are kept.
func (s *Store) PutResult(ctx context.Context, corpusID, docID, pipelineVersion string, r pipeline.Result) (Summary, error) {
	// Group-committed with other results and queue entries; when the file
	// stays locked past outboxAfter the result is kept in the outbox and
	// row is empty.
	var row Summary
	err := s.groupWrite(ctx, func(tx *bbolt.Tx) error {
		var err error
		row, err = putResult(tx, corpusID, docID, pipelineVersion, r)
		return err
	}, func() ([]byte, error) { return resultEntry(corpusID, docID, pipelineVersion, r) })
	if err != nil {
		return Summary{}, fmt.Errorf("put result for %q/%q: %w", corpusID, docID, err)
	}
	return row, nil
}

// DocResult is one document's result, for PutResults.
type DocResult struct {
	DocID  string
	Result pipeline.Result
}

// PutResults is PutResult for many documents of one corpus in one
// transaction (one fsync), for imports and headless runs; it returns the
// changed rows in the order given.
func (s *Store) PutResults(ctx context.Context, corpusID, pipelineVersion string, rs []DocResult) ([]Summary, error) {
	rows := make([]Summary, 0, len(rs))
	err := s.update(ctx, func(tx *bbolt.Tx) error {
		for _, r := range rs {
			row, err := putResult(tx, corpusID, r.DocID, pipelineVersion, r.Result)
			if err != nil {
				return fmt.Errorf("%q: %w", r.DocID, err)
			}
			rows = append(rows, row)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("put results in %q: %w", corpusID, err)
	}
	return rows, nil
}

func putResult(tx *bbolt.Tx, corpusID, docID, version string, r pipeline.Result) (Summary, error) {
	return putEncodedResult(tx, corpusID, docID, version, r, nil)
}

// putEncodedResult is putResult with r already encoded as r.MarshalJSON
// returns it (nil: encoded here), so a batch that printed the result does
// not encode it a second time for the store.
func putEncodedResult(tx *bbolt.Tx, corpusID, docID, version string, r pipeline.Result, raw []byte) (Summary, error) {
	if err := writeResult(tx, corpusID, docID, version, r, raw); err != nil {
		return Summary{}, err
	}
	// r is now the latest result: the row needs no decode of what was just
	// encoded.
	return refreshSummary(tx, corpusID, docID, &r)
}

// writeResult stores the result (raw, or r encoded when raw is nil) without
// touching the summary.
func writeResult(tx *bbolt.Tx, corpusID, docID, version string, r pipeline.Result, raw []byte) error {
	if err := checkID("pipeline version", version); err != nil {
		return err
	}
	bs, err := buckets(tx, bktDocIndex, bktResults, bktLatest, bktTraces)
	if err != nil {
		return err
	}
	if bs[0].Get(docKey(corpusID, docID)) == nil {
		return fmt.Errorf("document %q in corpus %q: %w", docID, corpusID, ErrNotFound)
	}
	if raw == nil {
		// Call MarshalJSON directly: json.Marshal would re-validate and
		// compact its output, which costs as much again.
		var err error
		if raw, err = r.MarshalJSON(); err != nil {
			return fmt.Errorf("encode result: %w", err)
		}
	}
	if err := bs[1].Put(subKey(corpusID, docID, version), raw); err != nil {
		return err
	}
	if err := bs[2].Put(docKey(corpusID, docID), []byte(version)); err != nil {
		return err
	}
	if r.TraceID != "" {
		if err := bs[3].Put([]byte(r.TraceID), docKey(corpusID, docID)); err != nil {
			return err
		}
	}
	return nil
}

// Result returns the document's latest result; ok is false when it has none.
func (s *Store) Result(ctx context.Context, corpusID, docID string) (pipeline.Result, bool, error) {
	var res *pipeline.Result
	err := s.view(ctx, func(tx *bbolt.Tx) error {
		var err error
		res, err = latestResult(tx, corpusID, docID)
		return err
	})
	if err != nil {
		return pipeline.Result{}, false, fmt.Errorf("result for %q/%q: %w", corpusID, docID, err)
	}
	if res == nil {
		return pipeline.Result{}, false, nil
	}
	return *res, true, nil
}

// ResultVersion returns the result stored for one pipeline version.
func (s *Store) ResultVersion(ctx context.Context, corpusID, docID, pipelineVersion string) (pipeline.Result, bool, error) {
	var res *pipeline.Result
	err := s.view(ctx, func(tx *bbolt.Tx) error {
		b, err := bucket(tx, bktResults)
		if err != nil {
			return err
		}
		raw := b.Get(subKey(corpusID, docID, pipelineVersion))
		if raw == nil {
			return nil
		}
		res, err = decodeResult(raw)
		return err
	})
	if err != nil {
		return pipeline.Result{}, false, fmt.Errorf("result %s for %q/%q: %w", pipelineVersion, corpusID, docID, err)
	}
	if res == nil {
		return pipeline.Result{}, false, nil
	}
	return *res, true, nil
}

// latestResult is nil when the document has no result yet.
func latestResult(tx *bbolt.Tx, corpusID, docID string) (*pipeline.Result, error) {
	bs, err := buckets(tx, bktLatest, bktResults)
	if err != nil {
		return nil, err
	}
	version := bs[0].Get(docKey(corpusID, docID))
	if version == nil {
		return nil, nil
	}
	raw := bs[1].Get(subKey(corpusID, docID, string(version)))
	if raw == nil {
		return nil, fmt.Errorf("latest result %s of %q is missing", version, docID)
	}
	return decodeResult(raw)
}

func decodeResult(raw []byte) (*pipeline.Result, error) {
	var r pipeline.Result
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, fmt.Errorf("decode result: %w", err)
	}
	r.FieldOrder = dataOrder(raw)
	return &r, nil
}

// dataOrder recovers the schema's field order, which Result.MarshalJSON
// writes as the key order of "data" but which has no JSON field of its own.
func dataOrder(raw []byte) []string {
	var env struct {
		Data json.RawMessage `json:"data"`
	}
	if json.Unmarshal(raw, &env) != nil || len(env.Data) == 0 {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(env.Data))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	var order []string
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return order
		}
		k, ok := t.(string)
		if !ok {
			return order
		}
		order = append(order, k)
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return order
		}
	}
	return order
}

// MissingResultIDs lists, in Seq order, the ids of the documents that have
// no result for pipelineVersion. It reads no document and holds no text
// (issue 11: a resume that loaded the texts held 3.7 GB at 1M documents);
// the runner reads texts a batch at a time with Documents.
func (s *Store) MissingResultIDs(ctx context.Context, corpusID, pipelineVersion string) ([]string, error) {
	var out []string
	err := s.view(ctx, func(tx *bbolt.Tx) error {
		bs, err := buckets(tx, bktSummaries, bktResults)
		if err != nil {
			return err
		}
		return scanPrefix(bs[0], prefix(corpusID), func(k, v []byte) error {
			r, err := decodeSummary(v)
			if err != nil {
				return fmt.Errorf("summary %x: %w", k, err)
			}
			if bs[1].Get(subKey(corpusID, r.DocID, pipelineVersion)) == nil {
				out = append(out, r.DocID)
			}
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("missing results of %q: %w", corpusID, err)
	}
	return out, nil
}

// ShowVersion makes pipelineVersion's result the one shown (the latest) for
// every document of the corpus that has one, refreshing those queue rows,
// and returns how many it switched. Results are kept per version, but the
// queue, the document page and stats read the latest; without this, reopening
// a corpus with the provider it was first run with went on showing the other
// provider's results, because nothing was missing to re-run (new-user
// report #1). Documents with no result for the version are left to the run.
func (s *Store) ShowVersion(ctx context.Context, corpusID, pipelineVersion string) (int, error) {
	if pipelineVersion == "" {
		return 0, nil
	}
	n := 0
	err := s.update(ctx, func(tx *bbolt.Tx) error {
		bs, err := buckets(tx, bktSummaries, bktResults, bktLatest)
		if err != nil {
			return err
		}
		var switchIDs []string
		err = scanPrefix(bs[0], prefix(corpusID), func(k, v []byte) error {
			r, err := decodeSummary(v)
			if err != nil {
				return fmt.Errorf("summary %x: %w", k, err)
			}
			if string(bs[2].Get(docKey(corpusID, r.DocID))) == pipelineVersion {
				return nil
			}
			if bs[1].Get(subKey(corpusID, r.DocID, pipelineVersion)) != nil {
				switchIDs = append(switchIDs, r.DocID)
			}
			return nil
		})
		if err != nil {
			return err
		}
		// Written after the scan: a cursor need not survive writes to its
		// own bucket.
		for _, id := range switchIDs {
			if err := bs[2].Put(docKey(corpusID, id), []byte(pipelineVersion)); err != nil {
				return err
			}
			if _, err := refreshSummary(tx, corpusID, id, nil); err != nil {
				return err
			}
		}
		n = len(switchIDs)
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("show results %s of %q: %w", pipelineVersion, corpusID, err)
	}
	return n, nil
}

// ShownRuns counts the corpus's documents (every corpus's when corpusID is
// "") by the pipeline run whose result is shown and counted in Stats: the
// run last opened or run (ShowVersion), so stats can say which it reports on.
func (s *Store) ShownRuns(ctx context.Context, corpusID string) (map[string]int, error) {
	runs := map[string]int{}
	err := s.view(ctx, func(tx *bbolt.Tx) error {
		b, err := bucket(tx, bktLatest)
		if err != nil {
			return err
		}
		count := func(_, v []byte) error {
			runs[string(v)]++
			return nil
		}
		if corpusID == "" {
			return b.ForEach(count)
		}
		return scanPrefix(b, prefix(corpusID), count)
	})
	if err != nil {
		return nil, fmt.Errorf("shown runs of %q: %w", corpusID, err)
	}
	return runs, nil
}
