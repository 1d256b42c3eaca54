// Package golden is reflect's evaluation harness: the labelled dataset, the
// replay fixtures that make it run offline, the JSONL reader every batch path
// shares, field scoring and the eval report.
package golden

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/reflect-mcp/reflect/internal/jsonstr"
	"github.com/reflect-mcp/reflect/pipeline"
)

// MaxLineBytes is the longest JSONL line the reader accepts (excluding the
// newline, LF or CRLF). A longer line is reported as an error line and skipped, so one
// runaway record cannot exhaust memory or stop a batch.
const MaxLineBytes = 8 << 20

// Line is one non-blank line of a JSONL stream. When Err is set the line could
// not be used as a record; the other fields hold whatever was read before the
// problem was found (Raw is set whenever the line was a JSON object).
type Line struct {
	// No is the 1-based physical line number, counting blank lines.
	No       int
	ID       string
	Text     string
	Data     map[string]any
	Expected map[string]any
	// Raw is the whole object, so callers can read keys the reader does not
	// know (a reviewer's "review" block, for instance).
	Raw json.RawMessage
	Err error
}

// LineError says which line of a JSONL stream is malformed and why.
type LineError struct {
	Line int
	Err  error
}

func (e *LineError) Error() string { return fmt.Sprintf("line %d: %v", e.Line, e.Err) }
func (e *LineError) Unwrap() error { return e.Err }

// ErrLineTooLong marks a line longer than MaxLineBytes.
var ErrLineTooLong = errors.New("line too long")

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// ReadLines reads JSONL from r and calls fn once for every non-blank line, in
// order. A malformed line is delivered with Err set and reading goes on; only a
// read error from r or an error returned by fn stops it (and is returned).
func ReadLines(r io.Reader, fn func(Line) error) error {
	return readLines(r, MaxLineBytes, fn)
}

// readLines is ReadLines with the length limit as a parameter, so tests can
// exercise the over-long path without allocating megabytes.
func readLines(r io.Reader, maxBytes int, fn func(Line) error) error {
	br := bufio.NewReaderSize(r, 64<<10)
	// A BOM written by Windows editors would otherwise make line 1 "not JSON".
	if head, err := br.Peek(len(utf8BOM)); err == nil && bytes.Equal(head, utf8BOM) {
		if _, err := br.Discard(len(utf8BOM)); err != nil {
			return fmt.Errorf("jsonl: %w", err)
		}
	}
	var buf []byte
	for no := 1; ; no++ {
		buf = buf[:0]
		tooLong := false
		eof := false
		for {
			chunk, err := br.ReadSlice('\n')
			if !tooLong {
				if len(buf)+len(chunk) > maxBytes+2 { // +2: a CRLF newline is not content
					tooLong = true
					buf = buf[:0]
				} else {
					buf = append(buf, chunk...)
				}
			}
			if err == nil {
				break
			}
			if errors.Is(err, bufio.ErrBufferFull) {
				continue
			}
			if errors.Is(err, io.EOF) {
				eof = true
				break
			}
			return fmt.Errorf("jsonl: reading line %d: %w", no, err)
		}
		// A CRLF file is the same data as its LF twin: the \r belongs to the
		// newline, not to the line's length.
		content := bytes.TrimSuffix(bytes.TrimSuffix(buf, []byte("\n")), []byte("\r"))
		if !tooLong && len(content) > maxBytes {
			tooLong = true
		}
		var line Line
		switch {
		case tooLong:
			line = Line{No: no, Err: &LineError{Line: no, Err: fmt.Errorf("%w: longer than %d bytes", ErrLineTooLong, maxBytes)}}
		case len(bytes.TrimSpace(content)) == 0:
			if eof {
				return nil
			}
			continue
		default:
			line = parseLine(no, content)
		}
		if err := fn(line); err != nil {
			return err
		}
		if eof {
			return nil
		}
	}
}

// parseLine decodes one non-blank line. Numbers decode as float64, which is
// what pipeline.Record holds for money.
func parseLine(no int, b []byte) Line {
	line := checkLine(no, b)
	if line.Err != nil && line.ID == "" {
		// The error result names the document when its id can be read,
		// so a batch's output still joins to its input by id.
		line.ID = readableID(b)
	}
	return line
}

// checkLine is parseLine before a rejected line's id is looked for.
func checkLine(no int, b []byte) Line {
	line := Line{No: no}
	fail := func(format string, args ...any) Line {
		line.Err = &LineError{Line: no, Err: fmt.Errorf(format, args...)}
		return line
	}
	// encoding/json silently replaces invalid UTF-8 with U+FFFD, which would
	// corrupt provenance offsets; reject it instead.
	if !utf8.Valid(b) {
		return fail("not valid UTF-8")
	}
	if err := pipeline.CheckJSONText(b); err != nil {
		return fail("%w", err)
	}
	if id, text, ok := idTextLine(b); ok {
		line.ID, line.Text = id, text
		line.Raw = json.RawMessage(bytes.Clone(bytes.TrimSpace(b)))
		return line
	}
	return decodeLine(line, b)
}

// decodeLine decodes a line that passed parseLine's checks into a map and
// reads its members from there.
func decodeLine(line Line, b []byte) Line {
	fail := func(format string, args ...any) Line {
		line.Err = &LineError{Line: line.No, Err: fmt.Errorf(format, args...)}
		return line
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		if n, ok := outOfRange(err); ok {
			return fail("the number %s is out of range (a number must fit a float64, at most about 1.8e308)", n)
		}
		return fail("not valid JSON: %v", err)
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return fail("want a JSON object, got %s", jsonType(v))
	}
	line.Raw = json.RawMessage(bytes.Clone(bytes.TrimSpace(b)))
	if id := obj["id"]; id != nil {
		if line.ID, ok = idString(id); !ok {
			return fail("\"id\" must be a string, got %s", jsonType(id))
		}
	}
	var err error
	if line.Data, err = objectField(obj, "data"); err != nil {
		return fail("%v", err)
	}
	if line.Expected, err = objectField(obj, "expected"); err != nil {
		return fail("%v", err)
	}
	t, present := obj["text"]
	if !present {
		return fail("missing \"text\"")
	}
	s, ok := t.(string)
	if !ok {
		return fail("\"text\" must be a string, got %s", jsonType(t))
	}
	line.Text = s
	return line
}

// outOfRange says whether err is encoding/json refusing a number too large
// for a float64 (valid JSON, which has no limit), and gives the number.
func outOfRange(err error) (string, bool) {
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) || te.Type == nil || te.Type.Kind() != reflect.Float64 {
		return "", false
	}
	n, ok := strings.CutPrefix(te.Value, "number ")
	return n, ok
}

// readableID is the "id" of a rejected line when it can still be read
// exactly (a string of valid text, or a number as decodeLine names it), and
// "" otherwise: a line whose id is itself the problem gets none.
func readableID(b []byte) string {
	var obj map[string]json.RawMessage
	if json.Unmarshal(b, &obj) != nil {
		return ""
	}
	raw, ok := obj["id"]
	if !ok || pipeline.CheckJSONText(raw) != nil {
		return ""
	}
	var id any
	if json.Unmarshal(raw, &id) != nil {
		return ""
	}
	s, _ := idString(id)
	return s
}

// idString is a decoded id as a line's ID: a string as it is, a number as
// JSON wrote it. ok is false for any other JSON type.
func idString(v any) (string, bool) {
	switch id := v.(type) {
	case string:
		return id, true
	case float64:
		return strconv.FormatFloat(id, 'f', -1, 64), true
	}
	return "", false
}

// idTextLine reads a line that is an object of exactly two string members,
// "id" and "text" (in either order, spaced or not), the shape of most batch
// input, without decoding it into a map first; ok is false for anything
// else, which parseLine decodes (FuzzParseLine holds the two to one result).
// Decoding every line into a map by reflection cost more than a cached
// rerun's cache lookups.
func idTextLine(b []byte) (id, text string, ok bool) {
	i := jsonstr.SkipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return "", "", false
	}
	i++
	var seenID, seenText bool
	for member := range 2 {
		if member > 0 {
			if i = jsonstr.SkipSpace(b, i); i >= len(b) || b[i] != ',' {
				return "", "", false
			}
			i++
		}
		key, end, ok := jsonstr.Read(b, jsonstr.SkipSpace(b, i))
		if !ok {
			return "", "", false
		}
		if i = jsonstr.SkipSpace(b, end); i >= len(b) || b[i] != ':' {
			return "", "", false
		}
		val, end, ok := jsonstr.Read(b, jsonstr.SkipSpace(b, i+1))
		if !ok {
			return "", "", false
		}
		i = end
		switch {
		case key == "id" && !seenID:
			id, seenID = val, true
		case key == "text" && !seenText:
			text, seenText = val, true
		default:
			return "", "", false
		}
	}
	if i = jsonstr.SkipSpace(b, i); i >= len(b) || b[i] != '}' || jsonstr.SkipSpace(b, i+1) != len(b) {
		return "", "", false
	}
	return id, text, true
}

// objectField returns obj[key] when it is an object; a JSON null or a missing
// key is nil.
func objectField(obj map[string]any, key string) (map[string]any, error) {
	switch v := obj[key].(type) {
	case nil:
		return nil, nil
	case map[string]any:
		return v, nil
	default:
		return nil, fmt.Errorf("%q must be an object, got %s", key, jsonType(v))
	}
}

func jsonType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case float64:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	default:
		return fmt.Sprintf("%T", v)
	}
}
