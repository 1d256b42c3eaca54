package golden

import (
	"bytes"
	"testing"
	"unicode/utf8"
)

// FuzzReadLines checks the reader never panics, numbers lines in order, and
// yields exactly one Line for every non-blank input line, at the physical
// line number it came from.
func FuzzReadLines(f *testing.F) {
	for _, seed := range []string{
		"",
		"{\"text\":\"a\"}\n",
		"{\"id\":\"x\",\"text\":\"a\",\"expected\":{\"total\":1.5}}\r\n\r\n{\"text\":1}\n",
		"\ufeff{\"text\":\"bom\"}",
		"not json\n[1]\n{\"text\":\"\xff\"}\n   \n{}",
		"{\"text\":\"" + string(bytes.Repeat([]byte("z"), 80)) + "\"}\n{\"text\":\"b\"}",
		"\n\n\n{\"text\":\"x\",\"data\":null}",
	} {
		f.Add([]byte(seed))
	}
	const limit = 64 // small, so the over-long path is reachable by the fuzzer
	f.Fuzz(func(t *testing.T, data []byte) {
		var want []int
		body := bytes.TrimPrefix(data, utf8BOM)
		for i, raw := range bytes.Split(body, []byte("\n")) {
			if len(bytes.TrimSuffix(raw, []byte("\r"))) > limit || len(bytes.TrimSpace(raw)) > 0 {
				want = append(want, i+1)
			}
		}
		var got []Line
		err := readLines(bytes.NewReader(data), limit, func(l Line) error {
			got = append(got, l)
			return nil
		})
		if err != nil {
			t.Fatalf("readLines: %v", err)
		}
		if len(got) != len(want) {
			t.Fatalf("got %d lines, want %d (%v)", len(got), len(want), want)
		}
		for i, l := range got {
			if l.No != want[i] {
				t.Fatalf("line %d delivered as No %d", want[i], l.No)
			}
			if l.Err == nil && !utf8.ValidString(l.Text) {
				t.Fatalf("line %d: invalid UTF-8 text accepted", l.No)
			}
			if l.Err == nil && l.Raw == nil {
				t.Fatalf("line %d: valid line without Raw", l.No)
			}
		}
	})
}
