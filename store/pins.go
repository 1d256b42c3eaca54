package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"time"

	"go.etcd.io/bbolt"
)

// The governance gateway's own state. Buckets are created on first write,
// so a store no gateway ever used has none of them.
var (
	bktGatewayPins  = []byte("gateway_pins")  // "<upstream>__<tool>" -> PinRecord JSON
	bktGatewayHolds = []byte("gateway_holds") // tracker key -> pending hold JSON (the gateway's format)
)

// PinRecord is one tool's pinned definition.
type PinRecord struct {
	Tool string `json:"tool"` // "<upstream>__<tool>"
	// Hash is the accepted definition's hash.
	Hash     string    `json:"hash"`
	PinnedAt time.Time `json:"pinned_at"`
	// Seen is the latest differing definition's hash ("" while the tool
	// matches its pin): what `reflect gateway pins accept` accepts.
	Seen   string    `json:"seen,omitempty"`
	SeenAt time.Time `json:"seen_at,omitempty"`
	// AcceptedBy is who accepted the current pin ("" for first sight).
	AcceptedBy string `json:"accepted_by,omitempty"`
}

// ErrPinNotFound: no tool of that name has been pinned.
var ErrPinNotFound = errors.New("no pin for that tool")

// Pin pins hash as tool's definition at first sight. It returns the record
// as it now stands and whether this was the first sight; a hash that differs
// from the pin is recorded as Seen and the pin is left as it was.
func (s *Store) Pin(ctx context.Context, tool, hash string) (PinRecord, bool, error) {
	var rec PinRecord
	first := false
	err := s.update(ctx, func(tx *bbolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(bktGatewayPins)
		if err != nil {
			return err
		}
		now := time.Now().UTC()
		raw := b.Get([]byte(tool))
		switch {
		case raw == nil:
			first = true
			rec = PinRecord{Tool: tool, Hash: hash, PinnedAt: now}
		default:
			if err := json.Unmarshal(raw, &rec); err != nil {
				return fmt.Errorf("pin %s: %w", tool, err)
			}
			switch {
			case rec.Hash == hash && rec.Seen == "":
				return nil // nothing to write
			case rec.Hash == hash:
				rec.Seen, rec.SeenAt = "", time.Time{} // changed back
			case rec.Seen == hash:
				return nil
			default:
				rec.Seen, rec.SeenAt = hash, now
			}
		}
		v, err := json.Marshal(rec)
		if err != nil {
			return err
		}
		return b.Put([]byte(tool), v)
	})
	if err != nil {
		return PinRecord{}, false, fmt.Errorf("store: pin %s: %w", tool, err)
	}
	return rec, first, nil
}

// AcceptPin makes the latest seen definition of tool its pin (hash "" means
// whatever was seen last). A hash that is neither the pin nor the seen one is
// refused: a human accepts what the gateway showed, not a guess.
func (s *Store) AcceptPin(ctx context.Context, tool, hash, by string) (PinRecord, error) {
	var rec PinRecord
	err := s.update(ctx, func(tx *bbolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(bktGatewayPins)
		if err != nil {
			return err
		}
		raw := b.Get([]byte(tool))
		if raw == nil {
			return ErrPinNotFound
		}
		if err := json.Unmarshal(raw, &rec); err != nil {
			return err
		}
		if hash == "" {
			hash = rec.Seen
		}
		switch {
		case hash == "" || hash == rec.Hash:
			return nil // nothing changed: nothing to accept
		case hash != rec.Seen:
			return fmt.Errorf("hash %s is not the definition last seen for %s", hash, tool)
		}
		rec = PinRecord{Tool: tool, Hash: hash, PinnedAt: time.Now().UTC(), AcceptedBy: by}
		v, err := json.Marshal(rec)
		if err != nil {
			return err
		}
		return b.Put([]byte(tool), v)
	})
	if err != nil {
		return PinRecord{}, fmt.Errorf("store: accept pin %s: %w", tool, err)
	}
	return rec, nil
}

// RemovePins forgets, in one transaction, every pin remove picks; an error
// from remove aborts it and nothing is forgotten. It returns the pins it
// removed, by tool name. A tool the gateway lists again afterwards is pinned
// afresh, at first sight.
func (s *Store) RemovePins(ctx context.Context, remove func(PinRecord) (bool, error)) ([]PinRecord, error) {
	var out []PinRecord
	err := s.update(ctx, func(tx *bbolt.Tx) error {
		out = out[:0]
		b := tx.Bucket(bktGatewayPins)
		if b == nil {
			return nil
		}
		var keys [][]byte
		err := b.ForEach(func(k, v []byte) error {
			var r PinRecord
			if err := json.Unmarshal(v, &r); err != nil {
				return fmt.Errorf("pin %s: %w", k, err)
			}
			ok, err := remove(r)
			if ok {
				keys = append(keys, append([]byte(nil), k...))
				out = append(out, r)
			}
			return err
		})
		if err != nil {
			return err
		}
		for _, k := range keys {
			if err := b.Delete(k); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("store: remove pins: %w", err)
	}
	return out, nil
}

// Pins lists every pin, by tool name.
func (s *Store) Pins(ctx context.Context) ([]PinRecord, error) {
	var out []PinRecord
	err := s.view(ctx, func(tx *bbolt.Tx) error {
		b := tx.Bucket(bktGatewayPins)
		if b == nil {
			return nil
		}
		return b.ForEach(func(_, v []byte) error {
			var r PinRecord
			if err := json.Unmarshal(v, &r); err != nil {
				return err
			}
			out = append(out, r)
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("store: pins: %w", err)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Tool < out[j].Tool })
	return out, nil
}

// GatewayHold reads the gateway's tracked pending hold under key.
func (s *Store) GatewayHold(ctx context.Context, key string) ([]byte, bool, error) {
	var v []byte
	err := s.view(ctx, func(tx *bbolt.Tx) error {
		if b := tx.Bucket(bktGatewayHolds); b != nil {
			v = append([]byte(nil), b.Get([]byte(key))...)
		}
		return nil
	})
	if err != nil {
		return nil, false, fmt.Errorf("store: gateway hold: %w", err)
	}
	return v, len(v) > 0, nil
}

// PutGatewayHold records a tracked pending hold; on disk when it returns.
func (s *Store) PutGatewayHold(ctx context.Context, key string, v []byte) error {
	err := s.update(ctx, func(tx *bbolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(bktGatewayHolds)
		if err != nil {
			return err
		}
		return b.Put([]byte(key), v)
	})
	if err != nil {
		return fmt.Errorf("store: gateway hold: %w", err)
	}
	return nil
}

// DeleteGatewayHold forgets a tracked hold.
func (s *Store) DeleteGatewayHold(ctx context.Context, key string) error {
	err := s.update(ctx, func(tx *bbolt.Tx) error {
		b := tx.Bucket(bktGatewayHolds)
		if b == nil {
			return nil
		}
		return b.Delete([]byte(key))
	})
	if err != nil {
		return fmt.Errorf("store: gateway hold: %w", err)
	}
	return nil
}
