package gateway

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// Identity is who is calling, per spec §5.4.
type Identity struct {
	AgentID   string
	SessionID string
	// Client is the front client's self-reported name: its review queue.
	// It is not sent to the engine.
	Client string
}

// callInfo is everything one envelope is built from.
type callInfo struct {
	Upstream    string
	System      string
	Environment string
	Tool        string // the upstream's own name, prefix stripped
	Args        json.RawMessage
	Class       Classification
	Who         Identity
	Now         time.Time
}

// refKeys are the argument names whose first non-empty string or number
// becomes target.ref.
var refKeys = []string{"id", "path", "name", "ref", "key"}

// buildEnvelope builds the envelope of spec §5.3, key for key, and returns
// it decoded the way the engine reads JSON (numbers as json.Number) with the
// correlation id (meta.nonce).
func buildEnvelope(c callInfo) (Envelope, string, error) {
	var args map[string]any
	dec := json.NewDecoder(bytes.NewReader(c.Args))
	dec.UseNumber()
	if err := dec.Decode(&args); err != nil || args == nil {
		return nil, "", fmt.Errorf("arguments must be a JSON object")
	}
	var ref any
	for _, k := range refKeys {
		switch v := args[k].(type) {
		case string:
			if v != "" {
				ref = v
			}
		case json.Number:
			ref = v.String()
		}
		if ref != nil {
			break
		}
	}
	ts := c.Now.UTC().Format("2006-01-02T15:04:05Z")
	nonce := newNonce(c.Who.SessionID, ts, c.Upstream, c.Tool)
	env := Envelope{
		"reeflex_version": "0.1",
		"agent":           map[string]any{"id": c.Who.AgentID, "on_behalf_of": nil, "session_id": c.Who.SessionID},
		"action":          map[string]any{"namespace": c.System, "verb": c.Class.Verb, "ability": c.System + "/" + c.Tool},
		"target":          map[string]any{"kind": c.Tool, "ref": ref, "environment": c.Environment},
		"params":          map[string]any{"upstream": c.Upstream, "tool_name": c.Tool, "arguments": args},
		"magnitude":       map[string]any{"count": json.Number(fmt.Sprint(c.Class.Count))},
		"axes": map[string]any{"reversibility": c.Class.Axes.Reversibility, "blast_radius": c.Class.Axes.BlastRadius,
			"externality": c.Class.Axes.Externality},
		"approval":       map[string]any{"present": false, "hold_id": nil},
		"trajectory_ref": nil,
		"context":        map[string]any{"gateway": "reeflex-mcp", "upstream": c.Upstream, "classification_source": c.Class.Source},
		"meta":           map[string]any{"timestamp": ts, "nonce": nonce, "signature": "ed25519:stub:" + nonce[:16]},
	}
	return env, nonce, nil
}

// newNonce is unique per call: the engine answers a repeated nonce with 400.
func newNonce(session, ts, upstream, tool string) string {
	var rnd [16]byte
	_, _ = rand.Read(rnd[:])
	h := sha256.Sum256([]byte(strings.Join([]string{session, ts, upstream, tool,
		fmt.Sprint(time.Now().UnixNano()), hex.EncodeToString(rnd[:])}, ":")))
	return hex.EncodeToString(h[:])[:32]
}

// holdKey identifies "the identical call" for holds tracking: the session,
// the envelope's hashed projection (action, axes, magnitude, target) and,
// unlike the reference, the arguments, so a call with other arguments never
// rides on another call's approval.
func holdKey(session string, env Envelope) string {
	proj := map[string]any{}
	for _, k := range []string{"action", "axes", "magnitude", "target"} {
		proj[k] = env[k]
	}
	if p, ok := env["params"].(map[string]any); ok {
		proj["arguments"] = p["arguments"]
	}
	b, _ := json.Marshal(proj) // map keys are sorted: deterministic
	h := sha256.Sum256(append([]byte(session+"\x00"), b...))
	return hex.EncodeToString(h[:])
}

func newID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
