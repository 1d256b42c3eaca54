package pipeline

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// ErrNoJSON is returned when model output holds no JSON object.
var ErrNoJSON = errors.New("no JSON object in model output")

// ExtractJSON finds the JSON object in a model reply: bare, inside ``` fences,
// or surrounded by prose. It returns the first balanced object that parses, so
// a stray "{" in a preamble does not derail it.
func ExtractJSON(s string) (map[string]any, error) {
	s = strings.TrimSpace(strings.TrimPrefix(s, "\ufeff"))
	if s == "" {
		return nil, fmt.Errorf("%w: the reply is empty", ErrNoJSON)
	}
	var firstErr error
	for start := strings.IndexByte(s, '{'); start >= 0; {
		end := matchBrace(s, start)
		if end < 0 {
			if firstErr == nil {
				firstErr = fmt.Errorf("unterminated JSON object starting at byte %d (output truncated?)", start)
			}
		} else {
			m, err := decodeChecked(s[start : end+1])
			if err == nil {
				return m, nil
			}
			if firstErr == nil {
				firstErr = fmt.Errorf("invalid JSON: %w", err)
			}
		}
		next := strings.IndexByte(s[start+1:], '{')
		if next < 0 {
			break
		}
		start += 1 + next
	}
	if firstErr != nil {
		return nil, fmt.Errorf("%w: %w", ErrNoJSON, firstErr)
	}
	return nil, ErrNoJSON
}

// matchBrace returns the index of the '}' closing the '{' at start, skipping
// braces inside JSON strings, or -1.
func matchBrace(s string, start int) int {
	depth := 0
	inStr, esc := false, false
	for i := start; i < len(s); i++ {
		c := s[i]
		if inStr {
			switch {
			case esc:
				esc = false
			case c == '\\':
				esc = true
			case c == '"':
				inStr = false
			}
			continue
		}
		switch c {
		case '"':
			inStr = true
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// decodeChecked is checkedDecode of one object, without reflection when
// decodeObject can read it.
func decodeChecked(raw string) (map[string]any, error) {
	b := []byte(raw)
	if err := CheckJSONText(b); err != nil {
		return nil, err
	}
	if m, ok := decodeObject(b); ok {
		return m, nil
	}
	var m map[string]any
	err := json.NewDecoder(bytes.NewReader(b)).Decode(&m)
	return m, err
}
