package providers

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"sync"
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

// Save writes the fixture, entries sorted for stable diffs.
func (f *Fixture) Save(path string) error {
	sort.SliceStable(f.Entries, func(i, j int) bool {
		a, b := f.Entries[i], f.Entries[j]
		if a.ID != b.ID {
			return a.ID < b.ID
		}
		return a.Purpose > b.Purpose // generator before critic
	})
	if f.Version == 0 {
		f.Version = 1
	}
	b, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return fmt.Errorf("replay fixture: %w", err)
	}
	if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("replay fixture: %w", err)
	}
	return nil
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
var ErrNoRecording = fmt.Errorf("no recorded output")

// Complete returns the recorded output for the request's stage and document.
func (r *Replay) Complete(ctx context.Context, req Request) (Response, error) {
	if err := ctx.Err(); err != nil {
		return Response{}, err
	}
	key := SourceKey(req.Source)
	out, ok := r.byKey[req.Purpose+"/"+key]
	if !ok {
		return Response{}, fmt.Errorf("replay: %w for %s of document sha256 %s…", ErrNoRecording, req.Purpose, key[:12])
	}
	return Response{Text: out, Model: "replay"}, nil
}

// Recorder keeps every successful reply of the clients it taps as fixture
// entries, so a live run can be replayed offline later (--record FILE).
type Recorder struct {
	mu  sync.Mutex
	fix Fixture
}

// NewRecorder returns an empty recorder.
func NewRecorder() *Recorder { return &Recorder{fix: Fixture{Version: 1}} }

// Tap wraps next so that its replies are recorded.
func (r *Recorder) Tap(next Client) Client {
	return ClientFunc(func(ctx context.Context, req Request) (Response, error) {
		resp, err := next.Complete(ctx, req)
		if err == nil {
			r.add(req, resp.Text)
		}
		return resp, err
	})
}

func (r *Recorder) add(req Request, text string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	key := SourceKey(req.Source)
	for i, e := range r.fix.Entries {
		if e.Purpose == req.Purpose && e.SourceSHA256 == key {
			r.fix.Entries[i].Output = text // a retry's reply replaces the unusable one
			return
		}
	}
	r.fix.Entries = append(r.fix.Entries, FixtureEntry{Purpose: req.Purpose, SourceSHA256: key, Output: text})
}

// Save writes what was recorded.
func (r *Recorder) Save(path string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.fix.Save(path)
}
