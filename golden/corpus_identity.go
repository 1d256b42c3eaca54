package golden

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/reflect-mcp/reflect/store"
)

// CorpusLister is what ResolveCorpusFile needs of the store.
type CorpusLister interface {
	Corpora(ctx context.Context) ([]store.Corpus, error)
}

// fileCorpus is where a JSONL file's corpus was found: prev is the stored
// record (nil for a file never stored), and moved says it was found by its
// content under another path, so nothing about the stored file (its
// fingerprint) may stand in for reading this one.
type fileCorpus struct {
	c     store.Corpus
	prev  *store.Corpus
	moved bool
}

// ResolveCorpusFile is the corpus record of a JSONL corpus file: the
// stored corpus recorded at this path; else a stored corpus whose file had
// exactly this content and whose path no longer holds it (the file was
// moved or renamed: its results and decisions follow it, and the record
// takes the new path); else a new corpus (a copy of a file still in place
// is one). A corpus is identified by its content, not only by its path.
// Only a regular file is hashed to look for a moved corpus (a FIFO cannot
// be read twice).
func ResolveCorpusFile(ctx context.Context, st CorpusLister, path, schema string) (store.Corpus, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return store.Corpus{}, err
	}
	fc, err := resolveFile(ctx, st, abs, schema)
	return fc.c, err
}

// pathCorpus is the record of a corpus of kind "file" or "dir" first seen
// at abs: its id is the kind and a hash of the path, its name the base
// name (a file's without its extension).
func pathCorpus(kind, abs, schema string) store.Corpus {
	sum := sha256.Sum256([]byte(abs))
	name := filepath.Base(abs)
	if kind == "file" {
		name = strings.TrimSuffix(name, filepath.Ext(abs))
	}
	return store.Corpus{ID: kind + ":" + hex.EncodeToString(sum[:8]), Name: name, Kind: kind, Path: abs, Schema: schema}
}

func resolveFile(ctx context.Context, st CorpusLister, abs, schema string) (fileCorpus, error) {
	c := pathCorpus("file", abs, schema)
	all, err := st.Corpora(ctx)
	if err != nil {
		return fileCorpus{}, err
	}
	idTaken, files := false, 0
	for i := range all {
		if all[i].Kind == "file" && all[i].Path == abs {
			c.ID, c.Created = all[i].ID, all[i].Created
			return fileCorpus{c: c, prev: &all[i]}, nil
		}
		idTaken = idTaken || all[i].ID == c.ID
		if all[i].Kind == "file" && all[i].ContentHash != "" {
			files++
		}
	}
	if files == 0 && !idTaken {
		return fileCorpus{c: c}, nil // no stored file it could be: no need to hash it
	}
	hash, err := fileHash(abs)
	if err != nil {
		return fileCorpus{}, err
	}
	if hash != "" {
		var match *store.Corpus
		for i := range all {
			if all[i].Kind != "file" || all[i].ContentHash != hash {
				continue
			}
			// A copy is not a move: a corpus whose file still holds this
			// content keeps it, and the copy is a new corpus (new user
			// report #6: the untouched original lost its decisions).
			if !holds(all[i].Path, abs, hash) {
				match = &all[i]
				break
			}
		}
		if match != nil {
			c.ID, c.Created = match.ID, match.Created
			return fileCorpus{c: c, prev: match, moved: true}, nil
		}
	}
	if idTaken {
		// This path's id belongs to a corpus that moved away; a new file
		// here is another corpus.
		s2 := sha256.Sum256([]byte(abs + "\x00" + hash))
		c.ID = "file:" + hex.EncodeToString(s2[:8])
	}
	return fileCorpus{c: c}, nil
}

// holds reports whether the file at path still has the content hash that
// the file at like has; a file of another size than like's is not read.
func holds(path, like, hash string) bool {
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return false
	}
	if li, err := os.Stat(like); err == nil && li.Size() != fi.Size() {
		return false
	}
	// Unreadable now: it no longer holds the content for us.
	h, err := fileHash(path)
	return err == nil && h == hash
}

// fileHash is the sha256 of a regular file's bytes, as OpenCorpus records
// it; "" for anything else (a FIFO, a device).
func fileHash(path string) (string, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return "", fmt.Errorf("%w: %w", ErrCorpusFile, err)
	}
	if !fi.Mode().IsRegular() {
		return "", nil
	}
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("%w: %w", ErrCorpusFile, err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("%w %s: %w", ErrCorpusFile, path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
