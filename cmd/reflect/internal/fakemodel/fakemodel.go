// Package fakemodel is an OpenAI-compatible Chat Completions server for
// reflect's tests and benchmarks: it answers Generator prompts with the record
// found by a tiny rule and Critic prompts with confident verdicts, after a
// fixed delay, and counts requests and TCP connections.
package fakemodel

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"regexp"
	"strings"
	"sync/atomic"
	"time"
)

// Model is the server's handler and counters.
type Model struct {
	Delay    time.Duration
	Requests atomic.Int64
	Served   atomic.Int64 // nanoseconds from each request's arrival to its reply, summed
	Conns    atomic.Int64 // TCP connections accepted (through ConnState)
	Auth     atomic.Value // last Authorization header
}

var (
	totalRE = regexp.MustCompile(`Total: ([0-9.]+)`)
	modelRE = regexp.MustCompile(`"model":\s*"([^"]+)"`)
	idRE    = regexp.MustCompile(`Invoice #([A-Za-z0-9-]+)`)
)

// ConnState counts new connections; set it as http.Server.ConnState.
func (f *Model) ConnState(_ net.Conn, s http.ConnState) {
	if s == http.StateNew {
		f.Conns.Add(1)
	}
}

// ServeHTTP answers POST /v1/chat/completions.
func (f *Model) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	arrived := time.Now()
	f.Requests.Add(1)
	f.Auth.Store(r.Header.Get("Authorization"))
	if r.URL.Path != "/v1/chat/completions" {
		http.Error(w, "not found", http.StatusNotFound)
		return
	}
	// The raw body is read with a regexp rather than decoded: the server
	// shares the machine with the client being measured, so it must cost
	// next to nothing.
	body, err := io.ReadAll(r.Body)
	m := modelRE.FindSubmatch(body)
	if err != nil || m == nil || !bytes.Contains(body, []byte(`"messages"`)) {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	model := string(m[1])
	prompt := string(body)
	doc := prompt
	if i := strings.LastIndex(prompt, "<document>"); i >= 0 {
		doc = prompt[i:]
	}
	var content string
	if strings.Contains(prompt, "You are the Critic") {
		content = `{"field_verdicts":[{"field":"vendor_name","confidence":0.95,"grounded":true,"reason":""},{"field":"invoice_number","confidence":0.95,"grounded":true,"reason":""},{"field":"total","confidence":0.95,"grounded":true,"reason":""},{"field":"currency","confidence":0.95,"grounded":true,"reason":""}],"overall_confidence":0.93,"summary":"All fields grounded."}`
	} else {
		total, id := "0", "?"
		if m := totalRE.FindStringSubmatch(doc); m != nil {
			total = m[1]
		}
		if m := idRE.FindStringSubmatch(doc); m != nil {
			id = m[1]
		}
		content = fmt.Sprintf(`{"vendor_name":"Acme Ltd","invoice_number":%q,"invoice_date":null,"subtotal":null,"tax":null,"total":%s,"currency":"USD"}`, id, total)
	}
	msg, _ := json.Marshal(content)
	// The reply leaves Delay after the request arrived, the server's own
	// work inside it, as a remote model's latency includes its work. A sleep
	// ends late (about 1 ms in a process idle until its timer fires), so
	// what each reply really took is summed for the benchmark's ideal.
	time.Sleep(f.Delay - time.Since(arrived))
	f.Served.Add(int64(time.Since(arrived)))
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprintf(w, `{"id":"chatcmpl-1","object":"chat.completion","created":1,"model":%q,"choices":[{"index":0,"message":{"role":"assistant","content":%s},"finish_reason":"stop"}],"usage":{"prompt_tokens":120,"completion_tokens":40,"total_tokens":160}}`, model, msg)
}

// Stats is what the control endpoint reports.
type Stats struct {
	Requests int64 `json:"requests"`
	Conns    int64 `json:"conns"`
	ServedNs int64 `json:"served_ns"` // the replies' latencies summed
}

// Control serves GET /stats (the counters) and POST /reset (zero them) on a
// listener of its own, so reading them opens no connection the model counts.
func (f *Model) Control() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /stats", func(w http.ResponseWriter, _ *http.Request) {
		_ = json.NewEncoder(w).Encode(Stats{Requests: f.Requests.Load(), Conns: f.Conns.Load(), ServedNs: f.Served.Load()})
	})
	mux.HandleFunc("POST /reset", func(w http.ResponseWriter, _ *http.Request) {
		f.Requests.Store(0)
		f.Conns.Store(0)
		f.Served.Store(0)
	})
	return mux
}
