package golden

import (
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
	"unicode/utf8"

	"github.com/reflect-mcp/reflect/pipeline"
)

func collect(t *testing.T, input string, maxBytes int) []Line {
	t.Helper()
	var lines []Line
	if err := readLines(strings.NewReader(input), maxBytes, func(l Line) error {
		lines = append(lines, l)
		return nil
	}); err != nil {
		t.Fatalf("readLines: %v", err)
	}
	return lines
}

func TestReadLinesEdgeCases(t *testing.T) {
	input := strings.Join([]string{
		`{"id":"a","text":"first","data":{"total":12.5},"expected":{"total":12.5},"review":{"by":"kim"}}`, // 1
		``,                             // 2 blank
		"   \t  ",                      // 3 whitespace only
		`{"text":"crlf"}` + "\r",       // 4 CRLF
		`not json`,                     // 5
		`[1,2]`,                        // 6 not an object
		`{"text":5}`,                   // 7 text not a string
		`{"id":"x"}`,                   // 8 missing text
		"{\"text\":\"bad \xff byte\"}", // 9 invalid UTF-8
		`{"text":"t","data":"nope"}`,   // 10 data not an object
		`{"text":"t","expected":[1]}`,  // 11 expected not an object
		`{"id":7,"text":"numeric id"}`, // 12
		`{"id":true,"text":"t"}`,       // 13 id of the wrong type
		`{"text":"a"} trailing`,        // 14 trailing garbage
		`{"text":"last, no newline"}`,  // 15
	}, "\n")
	lines := collect(t, input, MaxLineBytes)
	type want struct {
		no     int
		errHas string
		text   string
	}
	wants := []want{
		{1, "", "first"},
		{4, "", "crlf"},
		{5, "not valid JSON", ""},
		{6, "want a JSON object, got an array", ""},
		{7, `"text" must be a string, got a number`, ""},
		{8, `missing "text"`, ""},
		{9, "not valid UTF-8", ""},
		{10, `"data" must be an object`, ""},
		{11, `"expected" must be an object`, ""},
		{12, "", "numeric id"},
		{13, `"id" must be a string`, ""},
		{14, "not valid JSON", ""},
		{15, "", "last, no newline"},
	}
	if len(lines) != len(wants) {
		t.Fatalf("got %d lines, want %d: %+v", len(lines), len(wants), lines)
	}
	for i, w := range wants {
		l := lines[i]
		if l.No != w.no {
			t.Errorf("line %d: No = %d", w.no, l.No)
		}
		if w.errHas == "" {
			if l.Err != nil {
				t.Errorf("line %d: unexpected error %v", w.no, l.Err)
			}
			if l.Text != w.text {
				t.Errorf("line %d: text %q, want %q", w.no, l.Text, w.text)
			}
			continue
		}
		if l.Err == nil {
			t.Errorf("line %d: want error containing %q, got none", w.no, w.errHas)
			continue
		}
		if !strings.Contains(l.Err.Error(), w.errHas) {
			t.Errorf("line %d: error %q does not contain %q", w.no, l.Err, w.errHas)
		}
		var le *LineError
		if !errors.As(l.Err, &le) || le.Line != w.no || !strings.HasPrefix(l.Err.Error(), "line ") {
			t.Errorf("line %d: error %q does not name its line", w.no, l.Err)
		}
	}
	first := lines[0]
	if first.ID != "a" || first.Data["total"] != 12.5 || first.Expected["total"] != 12.5 {
		t.Errorf("line 1 decoded as %+v", first)
	}
	if !strings.Contains(string(first.Raw), `"review":{"by":"kim"}`) {
		t.Errorf("Raw lost extra keys: %s", first.Raw)
	}
	if lines[9].ID != "7" {
		t.Errorf("numeric id decoded as %q", lines[9].ID)
	}
}

func TestReadLinesOverlongLineDoesNotStopReader(t *testing.T) {
	long := `{"text":"` + strings.Repeat("x", 300) + `"}`
	input := `{"text":"before"}` + "\n" + long + "\n" + `{"text":"after"}` + "\n"
	lines := collect(t, input, 100)
	if len(lines) != 3 {
		t.Fatalf("got %d lines: %+v", len(lines), lines)
	}
	if lines[1].No != 2 || !errors.Is(lines[1].Err, ErrLineTooLong) || !strings.Contains(lines[1].Err.Error(), "line 2") {
		t.Errorf("over-long line: %+v", lines[1])
	}
	if lines[2].No != 3 || lines[2].Err != nil || lines[2].Text != "after" {
		t.Errorf("line after the over-long one: %+v", lines[2])
	}
}

// TestReadLinesRealLimit pushes a line just past the exported limit, many
// buffer refills long, and checks the next line is still read.
func TestReadLinesRealLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates MaxLineBytes")
	}
	var b strings.Builder
	b.WriteString(`{"text":"`)
	b.WriteString(strings.Repeat("y", MaxLineBytes))
	b.WriteString("\"}\n{\"text\":\"ok\"}")
	var got []Line
	err := ReadLines(strings.NewReader(b.String()), func(l Line) error { got = append(got, l); return nil })
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || !errors.Is(got[0].Err, ErrLineTooLong) || got[1].Text != "ok" || got[1].No != 2 {
		t.Fatalf("got %d lines; first err %v", len(got), got[0].Err)
	}
}

func TestReadLinesExactlyAtLimit(t *testing.T) {
	line := `{"text":"` + strings.Repeat("z", 20) + `"}` // 31 bytes
	for _, tc := range []struct {
		input string
		limit int
		ok    bool
	}{
		{line + "\n", len(line), true},
		{line + "\r\n", len(line), true}, // CRLF is a newline, as LF is
		{line + "\r\n", len(line) - 1, false},
		{line + "\r", len(line), true}, // a CRLF file whose last newline lost its LF
		{line, len(line), true},
		{line, len(line) - 1, false},
	} {
		lines := collect(t, tc.input, tc.limit)
		if len(lines) != 1 || (lines[0].Err == nil) != tc.ok {
			t.Errorf("limit %d input %q: %+v", tc.limit, tc.input, lines)
		}
	}
}

func TestReadLinesBOMAndBlankOnly(t *testing.T) {
	lines := collect(t, "\ufeff{\"text\":\"bom\"}\n", MaxLineBytes)
	if len(lines) != 1 || lines[0].Err != nil || lines[0].Text != "bom" {
		t.Fatalf("BOM line: %+v", lines)
	}
	if lines := collect(t, "\n\r\n  \n", MaxLineBytes); len(lines) != 0 {
		t.Fatalf("blank input yielded %+v", lines)
	}
	if lines := collect(t, "", MaxLineBytes); len(lines) != 0 {
		t.Fatalf("empty input yielded %+v", lines)
	}
}

func TestReadLinesStopsOnCallbackAndReadErrors(t *testing.T) {
	stop := errors.New("stop")
	calls := 0
	err := ReadLines(strings.NewReader("{\"text\":\"a\"}\n{\"text\":\"b\"}\n"), func(Line) error { calls++; return stop })
	if !errors.Is(err, stop) || calls != 1 {
		t.Fatalf("err %v after %d calls", err, calls)
	}
	boom := errors.New("disk on fire")
	r := io.MultiReader(strings.NewReader("{\"text\":\"a\"}\n"), iotest.ErrReader(boom))
	calls = 0
	err = ReadLines(r, func(Line) error { calls++; return nil })
	if !errors.Is(err, boom) || calls != 1 {
		t.Fatalf("err %v after %d calls", err, calls)
	}
}

func TestReadDataset(t *testing.T) {
	input := strings.Join([]string{
		`{"id":"r1","text":"a","expected":{"total":1}}`,
		`{"id":"r2","text":"b"}`,
		`{"id":"r1","text":"c","expected":{}}`,
		`{"text":"d","expected":{"total":null}}`,
		`oops`,
	}, "\n")
	rows, lineErrs, err := ReadDataset(strings.NewReader(input))
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || rows[0].ID != "r1" || rows[1].ID != "line-4" {
		t.Fatalf("rows: %+v", rows)
	}
	if v, ok := rows[1].Expected["total"]; !ok || v != nil {
		t.Errorf("explicit null label lost: %+v", rows[1].Expected)
	}
	wantErrs := []string{`line 2: missing "expected"`, `line 3: duplicate id "r1" (first on line 1)`, "line 5: not valid JSON"}
	if len(lineErrs) != len(wantErrs) {
		t.Fatalf("line errors: %v", lineErrs)
	}
	for i, w := range wantErrs {
		if !strings.HasPrefix(lineErrs[i].Error(), w) {
			t.Errorf("error %d = %q, want prefix %q", i, lineErrs[i], w)
		}
	}
	if _, _, err := LoadDataset("no/such/file.jsonl"); err == nil {
		t.Error("missing file: no error")
	}
}

// FuzzParseLine: a line the direct reader of {"id","text"} objects accepts
// reads exactly as decoding it into a map does.
func FuzzParseLine(f *testing.F) {
	for _, seed := range []string{
		`{"id":"doc-1","text":"From: Acme\nTotal 12.50 \u20ac \"q\""}`,
		`{ "text" : "x" , "id" : "7" } `, `{"id":"a","text":"b","data":{}}`, `{"id":"a","id":"b","text":"c"}`,
		`{"id":7,"text":"x"}`, `{"text":"x"}`, `{"\u0069d":"a","text":"b"}`, `{"id":"a","text":"b"}x`, `[1]`, `{"id":"a",}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		id, text, ok := idTextLine(b)
		if !ok || !utf8.Valid(b) || pipeline.CheckJSONText(b) != nil {
			return // parseLine never reads such a line directly
		}
		want := decodeLine(Line{No: 3}, b)
		got := parseLine(3, b)
		if want.Err != nil || want.ID != id || want.Text != text || want.Data != nil || want.Expected != nil {
			t.Fatalf("%q: read directly as id %q text %q, decoded as %+v", b, id, text, want)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: parseLine %+v, decoded %+v", b, got, want)
		}
	})
}

// Batch input as programs write it is read directly: compact, spaced as
// Python's json.dumps spaces it, text first.
func TestIDTextLineReadsBatchInput(t *testing.T) {
	for _, line := range []string{`{"id":"doc-1","text":"Total 12.50\nVAT \u00e9"}`, `{"id": "doc-1", "text": "Total 12.50\nVAT \u00e9"}`,
		` {"text":"Total 12.50\nVAT é","id":"doc-1"} `} {
		id, text, ok := idTextLine([]byte(line))
		if !ok || id != "doc-1" || text != "Total 12.50\nVAT é" {
			t.Errorf("%s: %q %q %v", line, id, text, ok)
		}
	}
}

// BenchmarkParseLine: a receipt line (1 KB of text) read directly and
// decoded into a map.
func BenchmarkParseLine(b *testing.B) {
	line := []byte(`{"id": "sroie-X00016469670", "text": "` + strings.Repeat(`TAN CHAY YEE\n*** COPY ***\nOJC MARKETING SDN BHD\nROC NO: 538358-H\n`, 16) + `"}`)
	b.Run("direct", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			parseLine(1, line)
		}
	})
	b.Run("map", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			decodeLine(Line{No: 1}, line)
		}
	})
}

// A rejected line keeps its id when the id can be read exactly, and a number
// too large for a float64 is named as out of range rather than as bad JSON.
func TestRejectedLineKeepsAReadableID(t *testing.T) {
	for _, c := range []struct{ line, id, errHas string }{
		{"{\"id\":\"a\",\"text\":\"bad \xff\"}", "a", "not valid UTF-8"},
		{`{"id":"b","text":"t","expected":{"total":-1e400}}`, "b", "the number -1e400 is out of range"},
		{`{"id":3,"text":5}`, "3", `"text" must be a string`},
		{"{\"id\":\"\xff\",\"text\":\"t\"}", "", "not valid UTF-8"},
		{`{"ID":"c","text":"\u0000"}`, "", "NUL"},
		{`{"id":1e999,"text":"t"}`, "", "out of range"},
	} {
		l := parseLine(1, []byte(c.line))
		if l.Err == nil || !strings.Contains(l.Err.Error(), c.errHas) || l.ID != c.id {
			t.Errorf("%q: id %q, err %v; want id %q and an error naming %q", c.line, l.ID, l.Err, c.id, c.errHas)
		}
	}
}
