package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// fakeOpenAI speaks the Chat Completions wire format: it answers Generator
// prompts with the record found by a tiny rule and Critic prompts with
// confident verdicts, after a fixed delay, and counts requests.
type fakeOpenAI struct {
	*httptest.Server
	delay    time.Duration
	requests atomic.Int64
	auth     atomic.Value // last Authorization header
}

var fakeTotalRE = regexp.MustCompile(`Total: ([0-9.]+)`)
var fakeModelRE = regexp.MustCompile(`"model":\s*"([^"]+)"`)
var fakeIDRE = regexp.MustCompile(`Invoice #([A-Za-z0-9-]+)`)

func newFakeOpenAI(t testing.TB, delay time.Duration) *fakeOpenAI {
	f := &fakeOpenAI{delay: delay}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.requests.Add(1)
		f.auth.Store(r.Header.Get("Authorization"))
		if r.URL.Path != "/v1/chat/completions" {
			http.Error(w, "not found", http.StatusNotFound)
			return
		}
		// The server reads the raw body with a regexp rather than decoding it:
		// it shares the CPU with the client being benchmarked, so it must cost
		// next to nothing.
		body, err := io.ReadAll(r.Body)
		m := fakeModelRE.FindSubmatch(body)
		if err != nil || m == nil || !bytes.Contains(body, []byte(`"messages"`)) {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		model := string(m[1])
		time.Sleep(f.delay)
		prompt := string(body)
		doc := prompt[strings.LastIndex(prompt, "<document>"):]
		var content string
		if strings.Contains(prompt, "You are the Critic") {
			content = `{"field_verdicts":[{"field":"vendor_name","confidence":0.95,"grounded":true,"reason":""},{"field":"invoice_number","confidence":0.95,"grounded":true,"reason":""},{"field":"total","confidence":0.95,"grounded":true,"reason":""},{"field":"currency","confidence":0.95,"grounded":true,"reason":""}],"overall_confidence":0.93,"summary":"All fields grounded."}`
		} else {
			total, id := "0", "?"
			if m := fakeTotalRE.FindStringSubmatch(doc); m != nil {
				total = m[1]
			}
			if m := fakeIDRE.FindStringSubmatch(doc); m != nil {
				id = m[1]
			}
			content = fmt.Sprintf(`{"vendor_name":"Acme Ltd","invoice_number":%q,"invoice_date":null,"subtotal":null,"tax":null,"total":%s,"currency":"USD"}`, id, total)
		}
		msg, _ := json.Marshal(content)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"id":"chatcmpl-1","object":"chat.completion","created":1,"model":%q,"choices":[{"index":0,"message":{"role":"assistant","content":%s},"finish_reason":"stop"}],"usage":{"prompt_tokens":120,"completion_tokens":40,"total_tokens":160}}`, model, msg)
	}))
	t.Cleanup(f.Close)
	return f
}

func fakeCorpus(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, `{"id":"doc-%d","text":"From: Acme Ltd\nInvoice #A-%d\nTotal: %d.50 USD"}`+"\n", i, i, 100+i)
	}
	return b.String()
}
