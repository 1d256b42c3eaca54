package jsonstr

import (
	"encoding/json"
	"testing"
)

// FuzzRead: whatever Read accepts, encoding/json decodes to the same string,
// and Read stops right after the string's closing quote.
func FuzzRead(f *testing.F) {
	for _, seed := range []string{`"plain"`, `"a\"b\\c\/d\b\f\n\r\t"`, `"\u003c\u00e9\ud83d\ude00\ud800\ud800\u0041\udc00"`, `"é日本"`,
		"\"bad \xff\"", `"\q"`, `"cut`, `"ctl` + "\x01" + `"`, `"\u12"`, `"x" tail`, `x`, ``} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		s, end, ok := Read(b, 0)
		if !ok {
			return
		}
		var want string
		if err := json.Unmarshal(b[:end], &want); err != nil {
			t.Fatalf("%q: Read took %q but encoding/json says %v", b, b[:end], err)
		}
		if s != want {
			t.Fatalf("%q: Read %q, encoding/json %q", b, s, want)
		}
	})
}

// Every string json.Marshal writes of valid UTF-8 is read back.
func TestReadReadsMarshalled(t *testing.T) {
	for _, s := range []string{"", "ascii", "Müller & Söhne <GmbH>", "line\nbreak\ttab \"q\" \\ \u2028 \x01 😀 \x7f"} {
		b, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		got, end, ok := Read(append(b, ','), 0)
		if !ok || got != s || end != len(b) {
			t.Errorf("%s: Read = %q, %d, %v", b, got, end, ok)
		}
	}
}

// BenchmarkRead: a model reply as the cache stores it (JSON text inside a
// JSON string: an escape every few bytes).
func BenchmarkRead(b *testing.B) {
	reply, _ := json.Marshal(`{"field_verdicts":[{"field":"vendor_name","confidence":0.95,"grounded":true,"reason":""},{"field":"invoice_number","confidence":0.95,"grounded":true,"reason":""},{"field":"total","confidence":0.95,"grounded":true,"reason":""}],"overall_confidence":0.93,"summary":"All fields grounded."}`)
	b.ReportAllocs()
	for b.Loop() {
		if _, _, ok := Read(reply, 0); !ok {
			b.Fatal("not read")
		}
	}
}
