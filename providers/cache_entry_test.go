package providers

import (
	"encoding/json"
	"math"
	"testing"
	"time"
	"unicode/utf8"
)

// FuzzDecodeEntry: decodeEntry reads every input as json.Unmarshal into a
// cacheEntry does: the same error verdict and the same fields.
func FuzzDecodeEntry(f *testing.F) {
	for _, seed := range []string{
		`{"text":"{\"total\":1}","model":"m","input_tokens":1,"output_tokens":2,"cost_usd":0.1,"stored":"2026-01-01T00:00:00Z"}`,
		`{"text":"\u003cb\u003e M\u00fcller \u0026 S\u00f6hne \ud83d\ude00 \ud800 \ud800\u0041 \u2028","model":"gpt-4o","input_tokens":-0,"output_tokens":0,"cost_usd":1.5e-7,"stored":"2026-12-01T18:00:00.123456789+08:00"}`,
		`{"text":"a","model":"b","input_tokens":1,"output_tokens":2,"cost_usd":0,"stored":"yesterday"}`,
		`{"text":"a","model":"b","input_tokens":1.5,"output_tokens":2,"cost_usd":0,"stored":"2026-01-01T00:00:00Z"}`,
		`{"text":"a","model":"b","input_tokens":01,"output_tokens":2,"cost_usd":0,"stored":"2026-01-01T00:00:00Z"}`,
		`{"text":"a","model":"b","input_tokens":1,"output_tokens":2,"cost_usd":1e999,"stored":"2026-01-01T00:00:00Z"}`,
		`{"text":"a","model":"b","input_tokens":1,"output_tokens":2,"cost_usd":0,"stored":"2026-01-01T00:00:00Z"} x`,
		"{\"text\":\"bad \xff utf-8\",\"model\":\"b\",\"input_tokens\":1,\"output_tokens\":2,\"cost_usd\":0,\"stored\":\"2026-01-01T00:00:00Z\"}\n",
		`{"text":"a\x01","model":"b"}`, `{"text":"\q"}`, `{"text":1}`, `{"stored":"yesterday"}`, `null`, `[]`, ``, "\x00\xff",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, val []byte) {
		var want cacheEntry
		werr := json.Unmarshal(val, &want)
		got, gerr := decodeEntry(val)
		if (werr == nil) != (gerr == nil) {
			t.Fatalf("%q: encoding/json says %v, decodeEntry %v", val, werr, gerr)
		}
		if werr == nil && !sameEntry(got, want) {
			t.Fatalf("%q:\n got %+v\nwant %+v", val, got, want)
		}
	})
}

func sameEntry(a, b cacheEntry) bool {
	return a.Text == b.Text && a.Model == b.Model && a.InputTokens == b.InputTokens && a.OutputTokens == b.OutputTokens &&
		a.CostUSD == b.CostUSD && a.Stored.Equal(b.Stored) && a.Stored.Location().String() == b.Stored.Location().String()
}

// What the cache writes is read by the direct path, not by encoding/json.
func TestDecodeEntryReadsWhatPutWrites(t *testing.T) {
	for _, text := range []string{"", `{"total":12.5,"vendor":"Müller & Söhne <GmbH>"}`, "line\nbreak\ttab \"q\" \\ \u2028 \x01 😀", "ascii"} {
		e := cacheEntry{Text: text, Model: "gpt-4o-mini", InputTokens: 1200, OutputTokens: 85, CostUSD: 0.000154, Stored: time.Now().UTC()}
		b, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := decodeEntryLayout(b)
		if !ok || !sameEntry(got, e) {
			t.Errorf("%s: direct read %v %+v", b, ok, got)
		}
		if !utf8.ValidString(got.Text) {
			t.Errorf("%q is not UTF-8", got.Text)
		}
	}
}

func BenchmarkDecodeEntry(b *testing.B) {
	v, _ := json.Marshal(cacheEntry{Text: `{"field_verdicts":[{"field":"vendor_name","confidence":0.95,"grounded":true,"reason":""},{"field":"total","confidence":0.95,"grounded":true,"reason":""}],"overall_confidence":0.93,"summary":"All fields grounded & checked."}`,
		Model: "gpt-4o-mini", InputTokens: 120, OutputTokens: 40, CostUSD: 0.000154, Stored: time.Now().UTC()})
	b.Run("decodeEntry", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := decodeEntry(v); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var e cacheEntry
			if err := json.Unmarshal(v, &e); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// FuzzEncodeEntry: encodeEntry writes what json.Marshal writes, byte for
// byte, or fails as it does.
func FuzzEncodeEntry(f *testing.F) {
	f.Add(`{"total":12.5,"vendor":"Müller & Söhne <GmbH>"}`, "gpt-4o-mini", int64(1200), int64(85), 0.000154, int64(1764698400), int64(123456789), false)
	f.Add("line\nbreak\ttab \"q\" \\ \u2028\u2029 \x01\x7f 😀 bad \xff\xfe", "", int64(-1), int64(0), 1.5e-7, int64(0), int64(0), true)
	f.Add("", "m", int64(1)<<40, int64(-5), 1e21, int64(-62135596800), int64(0), false)
	f.Add("x", "m", int64(0), int64(0), math.Copysign(0, -1), int64(253402300800), int64(0), false)
	f.Add("x", "m", int64(0), int64(0), 123456789.125, int64(1), int64(1000), true)
	f.Fuzz(func(t *testing.T, text, model string, in, out int64, cost float64, sec, nsec int64, local bool) {
		stored := time.Unix(sec, nsec).UTC()
		if local {
			stored = stored.In(time.FixedZone("X", 5*3600+1800))
		}
		e := cacheEntry{Text: text, Model: model, InputTokens: int(in), OutputTokens: int(out), CostUSD: cost, Stored: stored}
		want, werr := json.Marshal(e)
		got, gerr := encodeEntry(e)
		if (werr == nil) != (gerr == nil) || string(got) != string(want) {
			t.Fatalf("%+v:\n got %s, %v\nwant %s, %v", e, got, gerr, want, werr)
		}
	})
}

// Years json.Marshal cannot write, and costs it refuses, fail as it does.
func TestEncodeEntryRefusesWhatMarshalRefuses(t *testing.T) {
	for _, e := range []cacheEntry{
		{CostUSD: math.NaN(), Stored: time.Now().UTC()},
		{CostUSD: math.Inf(1), Stored: time.Now().UTC()},
		{Stored: time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)},
		{Stored: time.Date(-1, 1, 1, 0, 0, 0, 0, time.UTC)},
	} {
		if _, err := encodeEntry(e); err == nil {
			t.Errorf("%+v encoded", e)
		}
	}
}
