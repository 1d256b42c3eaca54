package providers

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"sync"

	"github.com/reflect-mcp/reflect/pipeline/llm"
)

// Fixture is a file of recorded model outputs. Entries are keyed by the stage
// (purpose) and the SHA-256 of the document text, so a replay needs no ids and
// survives reordering of the dataset.
type Fixture struct {
	Version int            `json:"version"`
	Entries []FixtureEntry `json:"entries"`
}

// FixtureEntry is one recorded call. ID and Note are for humans reading the file.
type FixtureEntry struct {
	ID           string `json:"id,omitempty"`
	Purpose      string `json:"purpose"`
	SourceSHA256 string `json:"source_sha256"`
	Output       string `json:"output"`
	Note         string `json:"note,omitempty"`
}

// SourceKey is the fixture key of a document text.
func SourceKey(text string) string {
	h := sha256.Sum256([]byte(text))
	return hex.EncodeToString(h[:])
}

// LoadFixture reads a replay fixture file.
func LoadFixture(path string) (*Fixture, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("replay fixture: %w", err)
	}
	var f Fixture
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, fmt.Errorf("replay fixture %s: %w", path, err)
	}
	return &f, nil
}

// Save writes the fixture, entries sorted for stable diffs: by ID, then
// generator before critic, then by document hash, so a recording made by a
// concurrent run (entries in completion order, no IDs) comes out the same
// every time. The file is replaced atomically, so a crash mid-save leaves the
// previous fixture, not half of one.
func (f *Fixture) Save(path string) error {
	sort.SliceStable(f.Entries, func(i, j int) bool {
		a, b := f.Entries[i], f.Entries[j]
		if a.ID != b.ID {
			return a.ID < b.ID
		}
		if a.Purpose != b.Purpose {
			return a.Purpose > b.Purpose // generator before critic
		}
		return a.SourceSHA256 < b.SourceSHA256
	})
	if f.Version == 0 {
		f.Version = 1
	}
	b, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return fmt.Errorf("replay fixture: %w", err)
	}
	if err := writeFileAtomic(path, append(b, '\n')); err != nil {
		return fmt.Errorf("replay fixture: %w", err)
	}
	return nil
}

// writeFileAtomic writes data to a temporary file beside path and renames it
// over path.
func writeFileAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // a no-op once renamed
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// Replay answers from recorded outputs and never touches a network.
type Replay struct {
	byKey map[string]string
}

// NewReplay indexes a fixture.
func NewReplay(f *Fixture) *Replay {
	r := &Replay{byKey: make(map[string]string, len(f.Entries))}
	for _, e := range f.Entries {
		r.byKey[e.Purpose+"/"+e.SourceSHA256] = e.Output
	}
	return r
}

// ErrNoRecording is returned when a fixture has no output for a call.
var ErrNoRecording = errors.New("no recorded output")

// Complete returns the recorded output for the request's stage and document.
func (r *Replay) Complete(ctx context.Context, req llm.Request) (llm.Response, error) {
	if err := ctx.Err(); err != nil {
		return llm.Response{}, err
	}
	key := SourceKey(req.Source)
	out, ok := r.byKey[req.Purpose+"/"+key]
	if !ok {
		return llm.Response{}, fmt.Errorf("replay: %w for %s of document sha256 %s…", ErrNoRecording, req.Purpose, key[:12])
	}
	return llm.Response{Text: out, Model: "replay"}, nil
}

// Recorder keeps every successful reply of the clients it taps as fixture
// entries, so a live run can be replayed offline later (--record FILE). One
// Recorder may tap the Generator's and the Critic's clients at once.
type Recorder struct {
	mu sync.Mutex
	// byKey holds the last reply per stage and document: a retry's reply
	// replaces the unusable one, as the replay will answer the first attempt
	// with it.
	byKey map[string]FixtureEntry
}

// NewRecorder returns an empty recorder.
func NewRecorder() *Recorder { return &Recorder{byKey: map[string]FixtureEntry{}} }

// Tap wraps next so that its replies are recorded.
func (r *Recorder) Tap(next llm.Client) llm.Client {
	return llm.ClientFunc(func(ctx context.Context, req llm.Request) (llm.Response, error) {
		resp, err := next.Complete(ctx, req)
		if err == nil {
			r.add(req, resp.Text)
		}
		return resp, err
	})
}

func (r *Recorder) add(req llm.Request, text string) {
	key := SourceKey(req.Source)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.byKey[req.Purpose+"/"+key] = FixtureEntry{Purpose: req.Purpose, SourceSHA256: key, Output: text}
}

// Save writes what was recorded so far; it may be called again later.
func (r *Recorder) Save(path string) error {
	// Held through the write so that two Saves cannot land out of order.
	r.mu.Lock()
	defer r.mu.Unlock()
	f := Fixture{Version: 1, Entries: make([]FixtureEntry, 0, len(r.byKey))}
	for _, e := range r.byKey {
		f.Entries = append(f.Entries, e)
	}
	return f.Save(path)
}
