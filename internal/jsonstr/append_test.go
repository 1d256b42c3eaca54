package jsonstr

import (
	"bytes"
	"encoding/json"
	"testing"
)

// referenceQuote is encoding/json's string encoding as results use it.
func referenceQuote(t testing.TB, s string) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

var quoteCases = []string{
	"", "plain", "Müller & Söhne <GmbH>", `"q" \ /`, "\b\f\n\r\t\x00\x01\x1f\x7f",
	"\u2028\u2029", "bad \xff\xfe utf8 \xc3", "日本語 ¥1,000", "emoji 😀", "\xed\xa0\x80 surrogate",
	"trailing \xe2\x80", "<script>alert('x')</script>",
}

// Every string is written as encoding/json (HTML escaping off) writes it.
func TestAppendQuoteMatchesEncodingJSON(t *testing.T) {
	for _, s := range quoteCases {
		if got, want := AppendQuote([]byte("x"), s), append([]byte("x"), referenceQuote(t, s)...); !bytes.Equal(got, want) {
			t.Errorf("%q: got %s, want %s", s, got, want)
		}
	}
	for c := 0; c < 256; c++ {
		s := string([]byte{'a', byte(c), 'b'})
		if got, want := AppendQuote(nil, s), referenceQuote(t, s); !bytes.Equal(got, want) {
			t.Errorf("byte %#x: got %s, want %s", c, got, want)
		}
	}
}

func FuzzAppendQuote(f *testing.F) {
	for _, s := range quoteCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := AppendQuote(nil, s), referenceQuote(t, s); !bytes.Equal(got, want) {
			t.Fatalf("%q: got %s, want %s", s, got, want)
		}
	})
}
