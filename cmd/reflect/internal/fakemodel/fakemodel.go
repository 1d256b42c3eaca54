// Package fakemodel is an OpenAI-compatible Chat Completions server for
// reflect's tests and benchmarks: it answers Generator prompts with the record
// found by a tiny rule and Critic prompts with confident verdicts, after a
// fixed delay, and counts requests and TCP connections.
package fakemodel

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Model is the server's handler and counters.
type Model struct {
	Delay    time.Duration
	Requests atomic.Int64
	Served   atomic.Int64 // nanoseconds from each request's arrival to its reply, summed (ServeHTTP)
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
//
// A reply leaves Delay after its request arrived, and Served adds what it
// really took: from the moment the request's first bytes were read off the
// connection (Listener and ConnContext tell the handler; without them, from
// the handler's start) to the moment the reply's bytes were handed to it.
// That is the model's time as a client sees it: a remote model's latency
// includes reading and parsing the request and formatting the reply, which
// net/http does before the handler starts and after it returns; measured
// from the handler's start to just before the reply, that part was counted
// as reflect's. Both ends are taken where no time of the client can fall
// inside: the start once the server has the first bytes (its own wake-up
// when a request comes in stays outside), the end just before the write
// that sends the reply (the write wakes the client, which on a busy machine
// can run on this core before the write returns).
func (f *Model) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	arrived := time.Now()
	conn, timed := r.Context().Value(connKey{}).(*timedConn)
	if timed {
		arrived = conn.requestBegan()
	}
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
	reply := fmt.Appendf(nil, `{"id":"chatcmpl-1","object":"chat.completion","created":1,"model":%q,"choices":[{"index":0,"message":{"role":"assistant","content":%s},"finish_reason":"stop"}],"usage":{"prompt_tokens":120,"completion_tokens":40,"total_tokens":160}}`, model, msg)
	// A sleep ends late (about 1 ms in a process idle until its timer
	// fires): that is the model's time too, and Served counts it.
	time.Sleep(f.Delay - time.Since(arrived))
	// The length is set, so the flush writes the whole reply unchunked:
	// the bytes net/http wrote after the handler returned before.
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(reply)))
	_, _ = w.Write(reply)
	if fl, ok := w.(http.Flusher); ok {
		fl.Flush()
	}
	replied := time.Now()
	if timed {
		replied = conn.replyWritten()
	}
	f.Served.Add(int64(replied.Sub(arrived)))
}

// Listener wraps l so that ServeHTTP knows when each request's first bytes
// were read (with ConnContext set as the http.Server's ConnContext).
func (f *Model) Listener(l net.Listener) net.Listener { return timedListener{l} }

// ConnContext hands a connection accepted through Listener to ServeHTTP;
// set it as http.Server.ConnContext.
func (f *Model) ConnContext(ctx context.Context, c net.Conn) context.Context {
	if tc, ok := c.(*timedConn); ok {
		return context.WithValue(ctx, connKey{}, tc)
	}
	return ctx
}

type connKey struct{}

type timedListener struct{ net.Listener }

func (l timedListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &timedConn{Conn: c}, nil
}

// timedConn notes when a request began, the first bytes read after the
// last reply was written (a client sends its next request on a connection
// only once it has the reply to the last: HTTP/1.1 without pipelining), and
// when the last write to it began.
type timedConn struct {
	net.Conn
	mu      sync.Mutex
	began   time.Time
	replied bool // a reply was written since began
	wrote   time.Time
}

func (c *timedConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if n > 0 {
		now := time.Now()
		c.mu.Lock()
		if c.began.IsZero() || c.replied {
			c.began, c.replied = now, false
		}
		c.mu.Unlock()
	}
	return n, err
}

func (c *timedConn) Write(p []byte) (int, error) {
	c.mu.Lock()
	c.wrote = time.Now()
	c.mu.Unlock()
	n, err := c.Conn.Write(p)
	c.mu.Lock()
	c.replied = true
	c.mu.Unlock()
	return n, err
}

// replyWritten is when the last write began: the reply's, once ServeHTTP
// flushed it.
func (c *timedConn) replyWritten() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.wrote
}

func (c *timedConn) requestBegan() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.began.IsZero() {
		return time.Now()
	}
	return c.began
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
