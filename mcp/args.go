package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/reflect-mcp/reflect/pipeline"
)

// callArgs are the decoded arguments of extract and validate. Decoding is done
// by hand, not by the SDK's schema validation, so that every bad argument
// becomes the error envelope instead of a protocol error.
type callArgs struct {
	Text           string
	Data           map[string]any
	HasData        bool
	Schema         *pipeline.Schema
	Field          *float64
	Overall        *float64
	HeuristicsOnly bool
}

var errArgs = errors.New("invalid arguments")

func argErr(format string, a ...any) error {
	return fmt.Errorf("%w: %s", errArgs, fmt.Sprintf(format, a...))
}

// decodeArgs parses raw tool arguments. allowed lists the argument names the
// tool takes; any other name is an error, so a typo is not silently ignored.
func decodeArgs(raw json.RawMessage, allowed []string, defSchema *pipeline.Schema) (callArgs, error) {
	a := callArgs{Schema: defSchema}
	fields := map[string]json.RawMessage{}
	if len(bytes.TrimSpace(raw)) > 0 && string(bytes.TrimSpace(raw)) != "null" {
		if err := json.Unmarshal(raw, &fields); err != nil {
			return a, argErr("arguments must be a JSON object: %v", err)
		}
	}
	var unknown []string
	for k := range fields {
		if !contains(allowed, k) {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		for i, k := range unknown {
			unknown[i] = clip(k, maxEcho)
		}
		return a, argErr("unknown argument(s) %s (this tool takes: %s)", strings.Join(unknown, ", "), strings.Join(allowed, ", "))
	}
	text, ok := fields["text"]
	if !ok || isNull(text) {
		return a, argErr("text is required")
	}
	t, err := strictString("text", text)
	if err != nil {
		return a, err
	}
	a.Text = t
	if v, ok := fields["data"]; ok && !isNull(v) {
		d, err := decodeData(v)
		if err != nil {
			return a, err
		}
		a.Data, a.HasData = d, true
	}
	if v, ok := fields["schema"]; ok && !isNull(v) {
		s, err := decodeSchema(v)
		if err != nil {
			return a, err
		}
		a.Schema = s
	}
	if a.Field, err = decodeThreshold("field_threshold", fields["field_threshold"]); err != nil {
		return a, err
	}
	if a.Overall, err = decodeThreshold("overall_threshold", fields["overall_threshold"]); err != nil {
		return a, err
	}
	if v, ok := fields["heuristics_only"]; ok && !isNull(v) {
		b, err := decodeBool("heuristics_only", v)
		if err != nil {
			return a, err
		}
		a.HeuristicsOnly = b
	}
	return a, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func isNull(raw json.RawMessage) bool { return string(bytes.TrimSpace(raw)) == "null" }

// strictString decodes a JSON string, rejecting what encoding/json would
// silently turn into U+FFFD: raw bytes that are not UTF-8 and \u escapes of
// unpaired UTF-16 surrogates. Offsets in field_provenance count code points of
// the text as sent, so a replaced character would shift nothing but still hide
// a corrupted input.
func strictString(name string, raw json.RawMessage) (string, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '"' {
		return "", argErr("%s must be a string", name)
	}
	if err := pipeline.CheckJSONText(raw); err != nil {
		return "", fmt.Errorf("%s: %w", name, err)
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", argErr("%s must be a string: %v", name, err)
	}
	return s, nil
}

// decodeData accepts the record as a JSON object, or as a string holding one
// (some clients can only send string arguments).
func decodeData(raw json.RawMessage) (map[string]any, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) > 0 && raw[0] == '"' {
		s, err := strictString("data", raw)
		if err != nil {
			return nil, err
		}
		raw = json.RawMessage(strings.TrimSpace(s))
	}
	if len(raw) == 0 || raw[0] != '{' {
		return nil, fmt.Errorf("%w: data must be a JSON object of field values", pipeline.ErrInput)
	}
	if err := pipeline.CheckJSONText(raw); err != nil {
		return nil, fmt.Errorf("data: %w", err)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, fmt.Errorf("%w: data is not a JSON object: %w", pipeline.ErrInput, err)
	}
	return m, nil
}

// decodeSchema resolves the schema argument: a built-in name, or an inline
// schema as an object (or a string of YAML/JSON). A name is never read as a
// file path: the caller is an agent, not the operator.
func decodeSchema(raw json.RawMessage) (*pipeline.Schema, error) {
	raw = bytes.TrimSpace(raw)
	switch {
	case len(raw) > 0 && raw[0] == '{':
		s, err := pipeline.ParseSchema(raw, "inline")
		if err != nil {
			return nil, fmt.Errorf("%w: %w", pipeline.ErrInput, err)
		}
		return s, nil
	case len(raw) > 0 && raw[0] == '"':
		name, err := strictString("schema", raw)
		if err != nil {
			return nil, err
		}
		if s, ok := pipeline.BuiltinSchema(strings.TrimSpace(name)); ok {
			return s, nil
		}
		if strings.ContainsAny(name, "{:\n") {
			s, err := pipeline.ParseSchema([]byte(name), "inline")
			if err != nil {
				return nil, fmt.Errorf("%w: %w", pipeline.ErrInput, err)
			}
			return s, nil
		}
		return nil, fmt.Errorf("%w: schema %q is not a built-in schema (built-in: invoice); pass an inline schema object instead",
			pipeline.ErrInput, clip(name, maxEcho))
	}
	return nil, argErr("schema must be a built-in schema name or a schema object")
}

// decodeThreshold accepts a number, or a string holding one, so that "nan"
// (which JSON numbers cannot carry) is rejected by range checking rather than
// by a type error.
func decodeThreshold(name string, raw json.RawMessage) (*float64, error) {
	if raw == nil || isNull(raw) {
		return nil, nil
	}
	raw = bytes.TrimSpace(raw)
	var v float64
	if len(raw) > 0 && raw[0] == '"' {
		s, err := strictString(name, raw)
		if err != nil {
			return nil, err
		}
		v, err = strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			return nil, fmt.Errorf("%w: %s must be a number in [0,1], got %q", pipeline.ErrInput, name, clip(s, maxEcho))
		}
	} else if err := json.Unmarshal(raw, &v); err != nil {
		return nil, fmt.Errorf("%w: %s must be a number in [0,1], got %s", pipeline.ErrInput, name, clip(string(raw), maxEcho))
	}
	if err := pipeline.CheckThreshold(name, v); err != nil {
		return nil, err
	}
	return &v, nil
}

func decodeBool(name string, raw json.RawMessage) (bool, error) {
	var b bool
	if err := json.Unmarshal(raw, &b); err == nil {
		return b, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		if v, err := strconv.ParseBool(strings.TrimSpace(s)); err == nil {
			return v, nil
		}
	}
	return false, argErr("%s must be true or false, got %s", name, clip(string(raw), maxEcho))
}

// readFloor reads the operator's threshold floor from the environment.
func readFloor(getenv func(string) string) (pipeline.GateConfig, error) {
	g := pipeline.DefaultGate()
	read := func(env, name string, dst *float64) error {
		v := strings.TrimSpace(getenv(env))
		if v == "" {
			return nil
		}
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) || f < 0 || f > 1 {
			return fmt.Errorf("%s=%q is not a number in [0,1]: the operator's %s floor is malformed, "+
				"so every call is refused rather than gated more loosely", env, v, name)
		}
		*dst = f
		return nil
	}
	if err := read(EnvFieldThreshold, "field_threshold", &g.FieldThreshold); err != nil {
		return g, err
	}
	if err := read(EnvOverallThreshold, "overall_threshold", &g.OverallThreshold); err != nil {
		return g, err
	}
	return g, nil
}

// applyFloor returns the gate for a call: an argument below the floor is
// raised to it, with a note saying so.
func applyFloor(floor pipeline.GateConfig, field, overall *float64) (pipeline.GateConfig, []string) {
	g := floor
	var notes []string
	pick := func(name string, arg *float64, dst *float64, min float64) {
		if arg == nil {
			return
		}
		if *arg < min {
			notes = append(notes, fmt.Sprintf("%s raised from %s to %s.", name, pipeline.FormatFloat(*arg), pipeline.FormatFloat(min)))
			return
		}
		*dst = *arg
	}
	pick("field_threshold", field, &g.FieldThreshold, floor.FieldThreshold)
	pick("overall_threshold", overall, &g.OverallThreshold, floor.OverallThreshold)
	return g, notes
}

// maxEcho bounds how much of an argument an error message or a log line
// repeats: an agent may send a megabyte where a short id belongs, and
// echoing it whole would fill logs and the agent's context.
const maxEcho = 120

// clip shortens s to about n bytes (on a UTF-8 boundary), saying how long it
// was.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s… (%d bytes)", s[:cut], len(s))
}
