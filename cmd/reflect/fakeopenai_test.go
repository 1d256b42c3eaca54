package main

import (
	"fmt"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/reflect-mcp/reflect/cmd/reflect/internal/fakemodel"
)

// fakeOpenAI is fakemodel in this process, for tests that assert on what
// reached the server; benchmarks run it as a process of its own
// (startFakeModel) so they do not measure it.
type fakeOpenAI struct {
	*httptest.Server
	requests *atomic.Int64
	auth     *atomic.Value // last Authorization header
	conns    *atomic.Int64 // TCP connections accepted
}

func newFakeOpenAI(t testing.TB, delay time.Duration) *fakeOpenAI {
	m := &fakemodel.Model{Delay: delay}
	srv := httptest.NewUnstartedServer(m)
	srv.Config.ConnState = m.ConnState
	srv.Start()
	t.Cleanup(srv.Close)
	return &fakeOpenAI{Server: srv, requests: &m.Requests, auth: &m.Auth, conns: &m.Conns}
}

func fakeCorpus(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, `{"id":"doc-%d","text":"From: Acme Ltd\nInvoice #A-%d\nTotal: %d.50 USD"}`+"\n", i, i, 100+i)
	}
	return b.String()
}
