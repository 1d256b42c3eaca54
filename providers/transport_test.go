package providers

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// The connection count is the point of the shared transport: with
// http.DefaultTransport's 2 idle connections per host, 32 concurrent calls
// repeated 5 times dial about 30 new connections per round.
func TestStackClientsReuseConnections(t *testing.T) {
	const conc, rounds = 32, 5
	var conns atomic.Int64
	var inflight sync.WaitGroup
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(5 * time.Millisecond)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, openAIOK)
	}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)
	s := &Stack{Config: Config{OpenAIAPIKey: testKey, OpenAIBaseURL: srv.URL + "/v1"}, Concurrency: conc}
	gen, err := s.Client(ProviderOpenAI)
	if err != nil {
		t.Fatal(err)
	}
	critic, err := s.Client(ProviderOpenAI)
	if err != nil {
		t.Fatal(err)
	}
	for range rounds {
		for i := range conc {
			c := gen
			if i%2 == 1 {
				c = critic
			}
			inflight.Go(func() {
				if _, err := c.Complete(context.Background(), testRequest()); err != nil {
					t.Error(err)
				}
			})
		}
		inflight.Wait()
	}
	if n := conns.Load(); n > conc {
		t.Fatalf("%d calls (%d at once) opened %d connections, want at most %d", conc*rounds, conc, n, conc)
	}
}

func TestNewTransportPoolFitsConcurrency(t *testing.T) {
	for _, conc := range []int{0, 1, 32, 500} {
		tr := NewTransport(conc)
		if tr.MaxIdleConnsPerHost < conc || tr.MaxIdleConnsPerHost < MinIdleConnsPerHost {
			t.Errorf("concurrency %d: MaxIdleConnsPerHost %d", conc, tr.MaxIdleConnsPerHost)
		}
		if tr.MaxIdleConns < 2*tr.MaxIdleConnsPerHost || tr.DisableKeepAlives {
			t.Errorf("concurrency %d: MaxIdleConns %d, keep-alives off %v", conc, tr.MaxIdleConns, tr.DisableKeepAlives)
		}
		if tr.Proxy == nil {
			t.Errorf("concurrency %d: the proxy from the environment is lost", conc)
		}
	}
}

// countingConn counts the writes a client connection makes.
type countingConn struct {
	net.Conn
	writes *atomic.Int64
}

func (c countingConn) Write(p []byte) (int, error) {
	c.writes.Add(1)
	return c.Conn.Write(p)
}

// A call is one write on its connection: headers and a prompt of several KB
// together, not the headers in a segment of their own before the body.
func TestOpenAIRequestIsOneWrite(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, openAIOK)
	}))
	t.Cleanup(srv.Close)
	var writes atomic.Int64
	tr := NewTransport(1)
	dial := tr.DialContext
	tr.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := dial(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return countingConn{Conn: c, writes: &writes}, nil
	}
	c, err := NewOpenAI(OpenAIConfig{APIKey: testKey, BaseURL: srv.URL + "/v1", HTTPClient: &http.Client{Transport: tr}})
	if err != nil {
		t.Fatal(err)
	}
	req := testRequest()
	req.Messages[0].Content = strings.Repeat("Invoice line 12.50 EUR\n", 400) // 9 KB of prompt
	const calls = 3
	for range calls {
		if _, err := c.Complete(context.Background(), req); err != nil {
			t.Fatal(err)
		}
	}
	if n := writes.Load(); n != calls {
		t.Fatalf("%d calls made %d writes, want one each", calls, n)
	}
}
