package pipeline_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/reflect-mcp/reflect/pipeline"
	"github.com/reflect-mcp/reflect/pipeline/llm"
)

func TestCheckTextValue(t *testing.T) {
	for _, ok := range []string{"ACME LTD", "a\tb\r\nc\fd", "Müller GmbH 株式会社"} {
		if err := pipeline.CheckTextValue(ok); err != nil {
			t.Errorf("%q refused: %v", ok, err)
		}
	}
	for in, want := range map[string]string{"ACME LTD\x00": "NUL", "a\x1bb": "U+001B", "a\u0085": "U+0085", "a\xffb": "not valid UTF-8"} {
		if err := pipeline.CheckTextValue(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: got %v, want an error saying %s", in, err, want)
		}
	}
}

// The rule decided rune by rune: CheckTextValue gives the same error, at
// the same offset, for any text, whatever shortcut it takes.
func TestCheckTextValueIsTheRuneRule(t *testing.T) {
	byRune := func(s string) string {
		for i, r := range s {
			switch {
			case r == utf8.RuneError:
				if _, size := utf8.DecodeRuneInString(s[i:]); size <= 1 {
					return fmt.Sprintf("is not valid UTF-8 (first bad byte at offset %d)", i)
				}
			case r == 0:
				return fmt.Sprintf("contains a NUL character (U+0000) at byte %d", i)
			case (r < 0x20 && r != '\t' && r != '\n' && r != '\r' && r != '\f') || (r >= 0x7f && r <= 0x9f):
				return fmt.Sprintf("contains the control character %U at byte %d", r, i)
			}
		}
		return ""
	}
	r := rand.New(rand.NewPCG(6, 1))
	pieces := []string{"a", " ", "\t", "\n", "\r", "\f", "\x00", "\x1b", "\x7f", "\u0085", "\u009f", "\u00a0", "ü", "株",
		"\ufffd", "\xff", "\xe6", "\x80", "\xc2"}
	for range 20000 {
		var b strings.Builder
		for range r.IntN(24) {
			p := pieces[r.IntN(len(pieces))]
			if r.IntN(3) > 0 {
				p = "abcdefgh"[:1+r.IntN(8)] // runs of printable bytes, eight at a time or not
			}
			b.WriteString(p)
		}
		s := b.String()
		got := ""
		if err := pipeline.CheckTextValue(s); err != nil {
			got = err.Error()
		}
		if want := byRune(s); got != want {
			t.Errorf("%q: %q, rune by rune %q", s, got, want)
		}
	}
}

func TestCheckJSONText(t *testing.T) {
	for _, ok := range []string{`{"v":"ACME"}`, `{"v":"\uD83D\uDE00"}`, `{"v":"\\uD800"}`, `{"v":"\u00e9"}`} {
		if err := pipeline.CheckJSONText([]byte(ok)); err != nil {
			t.Errorf("%s refused: %v", ok, err)
		}
	}
	for _, bad := range []string{`{"v":"ACME LTD\u0000"}`, `{"v":"\uD800"}`, `{"v":"\uDC00x"}`, `{"v":"\uD800\u0041"}`, "{\"v\":\"\xff\"}"} {
		if err := pipeline.CheckJSONText([]byte(bad)); err == nil || !errors.Is(err, pipeline.ErrInput) {
			t.Errorf("%s: got %v, want an input error", bad, err)
		}
	}
}

// Agent data, batch data and model replies all reach NormalizeRecord: a NUL
// in a value is refused there with the field named.
func TestNormalizeRecordRefusesNUL(t *testing.T) {
	_, err := pipeline.Invoice().NormalizeRecord(map[string]any{"vendor_name": "ACME LTD\x00"}, pipeline.Lenient)
	if err == nil || !strings.Contains(err.Error(), `"vendor_name"`) || !strings.Contains(err.Error(), "NUL") {
		t.Fatalf("got %v, want an error naming the field and the NUL", err)
	}
}

func TestCheckTextRefusesControlCharacters(t *testing.T) {
	if err := pipeline.CheckText("Invoice\x00 total 12.00", 0); err == nil || !errors.Is(err, pipeline.ErrInput) {
		t.Fatalf("got %v, want an input error", err)
	}
	if err := pipeline.CheckText("Invoice\f\ttotal\r\n12.00", 0); err != nil {
		t.Fatalf("tab, CR, LF and FF must pass: %v", err)
	}
}

// A model reply whose value hides a NUL or a lone surrogate is never
// accepted: the JSON is refused before decoding and the model re-asked.
func TestModelReplyWithNULIsNotAccepted(t *testing.T) {
	for _, reply := range []string{`{"vendor_name":"ACME LTD\u0000","total":12}`, `{"vendor_name":"ACME \uD800","total":12}`} {
		if _, err := pipeline.ExtractJSON(reply); err == nil {
			t.Errorf("ExtractJSON accepted %s", reply)
		}
		calls := 0
		c := llm.ClientFunc(func(ctx context.Context, req llm.Request) (llm.Response, error) {
			calls++
			return llm.Response{Text: reply}, nil
		})
		_, err := pipeline.NewLLMGenerator(c, pipeline.LLMOptions{Retries: 1}).Generate(context.Background(), pipeline.Document{Text: "ACME LTD total 12"}, pipeline.Invoice())
		if err == nil || calls != 2 {
			t.Errorf("%s: %d calls, err %v; want refused after 2", reply, calls, err)
		}
	}
}
