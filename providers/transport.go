package providers

import (
	"net"
	"net/http"
	"time"
)

// MinIdleConnsPerHost is the idle pool a client keeps per host when the
// caller does not say how many calls it runs at once. http.DefaultTransport
// keeps 2: a batch of 32 workers then closes 30 connections after every
// round of replies and dials them again (a TCP and, for a real vendor, a TLS
// handshake per call), which is what held `extract --batch` at c=32 to 0.9
// of ideal against a 50 ms model.
const MinIdleConnsPerHost = 64

// requestWriteBuffer is the buffer a connection writes requests through:
// net/http's default 4 KB splits a chat request of a few KB of prompt
// (a typical document is 1-10 KB) into several writes; 32 KB sends most
// in one, for 32 KB a connection in use.
const requestWriteBuffer = 32 << 10

// NewHTTPClient returns the HTTP client every vendor client of one run
// shares: keep-alive on, and an idle pool per host of at least concurrency
// connections, so each of that many concurrent calls finds a warm connection
// to reuse. No client-wide Timeout: the SDKs bound each attempt with
// their request timeout, and a client Timeout would cut a retried call short.
func NewHTTPClient(concurrency int) *http.Client {
	return &http.Client{Transport: NewTransport(concurrency)}
}

// NewTransport is the transport behind NewHTTPClient: http.DefaultTransport's
// settings (proxy from the environment, HTTP/2, its dial and TLS timeouts)
// with the idle pool sized for concurrency.
func NewTransport(concurrency int) *http.Transport {
	idle := max(concurrency, MinIdleConnsPerHost)
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.DialContext = (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}).DialContext
	t.DisableKeepAlives = false
	t.MaxIdleConnsPerHost = idle
	// Generator and critic may sit at different hosts; both pools fit.
	t.MaxIdleConns = max(t.MaxIdleConns, 2*idle)
	t.IdleConnTimeout = 90 * time.Second
	t.WriteBufferSize = requestWriteBuffer
	return t
}
