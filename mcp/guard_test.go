package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

const initBody = `{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw-http","version":"1"}}}`

// post sends one raw POST and returns the response and the JSON-RPC
// messages in its body (a JSON object, or the data lines of an event stream).
func post(t testing.TB, url, session, body string, hdr ...string) (*http.Response, []map[string]any) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	return resp, rpcMessages(t, resp.Header.Get("Content-Type"), raw)
}

func rpcMessages(t testing.TB, ct string, raw []byte) []map[string]any {
	t.Helper()
	var out []map[string]any
	add := func(b []byte) {
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("body is not JSON-RPC (%s): %q", ct, clip(string(b), 300))
		}
		out = append(out, m)
	}
	switch {
	case strings.HasPrefix(ct, "text/event-stream"):
		sc := bufio.NewScanner(bytes.NewReader(raw))
		sc.Buffer(nil, 8<<20)
		for sc.Scan() {
			if d, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
				add([]byte(d))
			}
		}
	case len(bytes.TrimSpace(raw)) > 0:
		add(raw)
	}
	return out
}

func initSession(t testing.TB, url string) string {
	t.Helper()
	resp, msgs := post(t, url, "", initBody)
	sid := resp.Header.Get("Mcp-Session-Id")
	if resp.StatusCode != http.StatusOK || sid == "" || len(msgs) != 1 || msgs[0]["result"] == nil {
		t.Fatalf("initialize: HTTP %d session %q %v", resp.StatusCode, sid, msgs)
	}
	if r, _ := post(t, url, sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`); r.StatusCode != http.StatusAccepted {
		t.Fatalf("initialized: HTTP %d", r.StatusCode)
	}
	return sid
}

func countSessions(s *Server) int {
	n := 0
	for range s.SDK().Sessions() {
		n++
	}
	return n
}

func TestHTTPOriginIsValidated(t *testing.T) {
	s := newTestServer(t, Config{Build: (&scriptBuilder{}).build, HTTP: HTTPOptions{AllowedOrigins: []string{"https://agent.example.com"}}})
	url := serveHTTP(t, s, "")
	for origin, want := range map[string]int{
		"https://evil.example":       http.StatusForbidden,
		"null":                       http.StatusForbidden,
		"http://localhost.evil.com":  http.StatusForbidden,
		"http://127.0.0.1.nip.io":    http.StatusForbidden,
		"file://":                    http.StatusForbidden,
		"http://localhost:6274":      http.StatusOK,
		"http://127.0.0.1:3000":      http.StatusOK,
		"http://[::1]:8080":          http.StatusOK,
		"https://agent.example.com":  http.StatusOK,
		"https://agent.example.com/": http.StatusOK,
		"":                           http.StatusOK, // not a browser
	} {
		var hdr []string
		if origin != "" {
			hdr = []string{"Origin", origin}
		}
		resp, msgs := post(t, url, "", initBody, hdr...)
		if resp.StatusCode != want {
			t.Errorf("Origin %q: HTTP %d, want %d", origin, resp.StatusCode, want)
		}
		if want == http.StatusForbidden && (len(msgs) != 1 || errCode(msgs[0]) != -32600) {
			t.Errorf("Origin %q: body %v, want a JSON-RPC error", origin, msgs)
		}
	}
}

// TestHTTPMalformedPostsGetJSONRPCErrors: every POST that is not one valid
// JSON-RPC message, an unknown method, a call before initialize and a second
// initialize get a JSON-RPC error with a real code (never plain text, never 0).
func TestHTTPMalformedPostsGetJSONRPCErrors(t *testing.T) {
	s := newTestServer(t, Config{Build: (&scriptBuilder{}).build})
	url := serveHTTP(t, s, "")
	sid := initSession(t, url)
	for _, tc := range []struct {
		name, session, body string
		code                float64
		id                  any
	}{
		{"garbage", "", "not json", -32700, nil},
		{"truncated", sid, `{"jsonrpc":"2.0","id":1,"method":"pi`, -32700, nil},
		{"empty object", sid, "{}", -32600, nil},
		{"null", sid, "null", -32600, nil},
		{"batch", sid, `[{"jsonrpc":"2.0","id":"b","method":"ping"}]`, -32600, "b"},
		{"two messages", sid, `{"jsonrpc":"2.0","id":"a","method":"ping"} {"jsonrpc":"2.0","id":"b","method":"ping"}`, -32600, "a"},
		{"unknown method", sid, `{"jsonrpc":"2.0","id":5,"method":"no/such","params":{}}`, -32601, float64(5)},
		{"call before initialize", "", `{"jsonrpc":"2.0","id":6,"method":"tools/list","params":{}}`, -32600, float64(6)},
		{"notification with an id", sid, `{"jsonrpc":"2.0","id":7,"method":"notifications/initialized"}`, -32600, float64(7)},
		{"duplicate initialize", sid, strings.Replace(initBody, `"init"`, "8", 1), -32600, float64(8)},
	} {
		resp, msgs := post(t, url, tc.session, tc.body)
		if ct := resp.Header.Get("Content-Type"); !strings.Contains(ct, "json") && !strings.Contains(ct, "event-stream") {
			t.Errorf("%s: Content-Type %q, want a JSON-RPC body", tc.name, ct)
		}
		if len(msgs) != 1 || errCode(msgs[0]) != tc.code || msgs[0]["id"] != tc.id {
			t.Errorf("%s: HTTP %d %v, want code %v id %v", tc.name, resp.StatusCode, msgs, tc.code, tc.id)
		}
	}
	// The session still serves.
	if _, msgs := post(t, url, sid, `{"jsonrpc":"2.0","id":9,"method":"ping"}`); len(msgs) != 1 || msgs[0]["result"] == nil {
		t.Errorf("ping after the errors: %v", msgs)
	}
}

// TestHTTPSessionsAreCapped: initialize calls past the cap are refused with
// a JSON-RPC error instead of growing memory; a closed session frees a slot.
func TestHTTPSessionsAreCapped(t *testing.T) {
	const max = 5
	s := newTestServer(t, Config{Build: (&scriptBuilder{}).build, HTTP: HTTPOptions{MaxSessions: max}})
	url := serveHTTP(t, s, "")
	var sids []string
	refused := 0
	for range 40 * max {
		resp, msgs := post(t, url, "", initBody)
		switch resp.StatusCode {
		case http.StatusOK:
			sids = append(sids, resp.Header.Get("Mcp-Session-Id"))
		case http.StatusServiceUnavailable:
			refused++
			if len(msgs) != 1 || errCode(msgs[0]) != codeServerBusy || resp.Header.Get("Retry-After") == "" {
				t.Fatalf("refused initialize: %v %v", msgs, resp.Header)
			}
		default:
			t.Fatalf("initialize: HTTP %d %v", resp.StatusCode, msgs)
		}
	}
	if len(sids) != max || refused != 39*max || countSessions(s) > max {
		t.Fatalf("%d sessions opened, %d refused, %d live; want %d, %d, <= %d", len(sids), refused, countSessions(s), max, 39*max, max)
	}
	req, _ := http.NewRequest(http.MethodDelete, url, nil)
	req.Header.Set("Mcp-Session-Id", sids[0])
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusNoContent {
		t.Fatalf("DELETE: %v %v", resp, err)
	}
	initSession(t, url)
}

// TestHTTPIdleSessionsExpire: a client that initializes and vanishes does
// not keep its session.
func TestHTTPIdleSessionsExpire(t *testing.T) {
	s := newTestServer(t, Config{Build: (&scriptBuilder{}).build, HTTP: HTTPOptions{SessionIdle: 200 * time.Millisecond}})
	url := serveHTTP(t, s, "")
	sid := initSession(t, url)
	for i := 0; countSessions(s) > 0; i++ {
		if i > 1500 { // 30 s: the patience of a loaded machine, not a timing claim
			t.Fatal("the idle session was never closed")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if resp, _ := post(t, url, sid, `{"jsonrpc":"2.0","id":1,"method":"ping"}`); resp.StatusCode != http.StatusNotFound {
		t.Errorf("expired session: HTTP %d, want 404 (the client re-initializes)", resp.StatusCode)
	}
}

// TestHTTPTricklingBodyIsCut: a client that sends its headers and then a
// byte now and then loses the connection once the body deadline passes,
// while a normal client is served.
func TestHTTPTricklingBodyIsCut(t *testing.T) {
	s := newTestServer(t, Config{Build: (&scriptBuilder{}).build, HTTP: HTTPOptions{BodyTimeout: 300 * time.Millisecond}})
	url := serveHTTP(t, s, "")
	addr := strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/")
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST / HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: %d\r\n\r\n", addr, len(initBody))
	// Trickle until the server gives up; a server without a body deadline
	// would wait for ever, so the test bounds its own patience.
	errc := make(chan error, 1)
	go func() {
		for i := 0; i < len(initBody)-1; i++ {
			if _, err := conn.Write([]byte{initBody[i]}); err != nil {
				errc <- nil
				return
			}
			time.Sleep(50 * time.Millisecond)
		}
		errc <- fmt.Errorf("the whole trickled body but one byte was accepted")
	}()
	_ = conn.SetReadDeadline(time.Now().Add(30 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no response to a trickling body: %v", err)
	}
	if resp.StatusCode != http.StatusRequestTimeout {
		t.Errorf("trickling body: HTTP %d, want 408", resp.StatusCode)
	}
	resp.Body.Close()
	conn.Close()
	if err := <-errc; err != nil {
		t.Error(err)
	}
	initSession(t, url)
}

// TestHTTPCancelledCallGetsNoAnswer: a call the client cancels by
// notifications/cancelled gets no response on its stream.
func TestHTTPCancelledCallGetsNoAnswer(t *testing.T) {
	bb := newBlockingBuilder()
	s := newTestServer(t, Config{Build: bb.build})
	url := serveHTTP(t, s, "")
	sid := initSession(t, url)
	type result struct {
		msgs []map[string]any
		code int
	}
	done := make(chan result, 1)
	go func() {
		resp, msgs := post(t, url, sid, validateCall(41))
		done <- result{msgs, resp.StatusCode}
	}()
	<-bb.entered
	if resp, _ := post(t, url, sid, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":41,"reason":"stop"}}`); resp.StatusCode != http.StatusAccepted {
		t.Fatalf("cancel: HTTP %d", resp.StatusCode)
	}
	<-bb.returned
	r := <-done
	for _, m := range r.msgs {
		if m["id"] == float64(41) {
			t.Errorf("the cancelled call was answered: %v", m)
		}
	}
	close(bb.release)
	if _, msgs := post(t, url, sid, validateCall(42)); len(msgs) != 1 || msgs[0]["result"] == nil {
		t.Errorf("the next call: %v", msgs)
	}
}

// TestLongArgumentsAreNotEchoed: a 1 MB trace_id, argument name or value
// is neither sent back whole nor logged whole.
func TestLongArgumentsAreNotEchoed(t *testing.T) {
	// The server logs from its own goroutines (the SDK's session log too)
	// while the test reads and resets the buffer.
	var logged lockedBuffer
	s := newTestServer(t, Config{Build: (&scriptBuilder{}).build, Store: openStore(t),
		Logger: slog.New(slog.NewJSONHandler(&logged, nil))})
	url := serveHTTP(t, s, "")
	cs, err := httpSession(t, url, "")
	if err != nil {
		t.Fatal(err)
	}
	huge := strings.Repeat("A", 1<<20)
	for _, tc := range []struct {
		tool string
		args map[string]any
	}{
		{"review_status", map[string]any{"trace_id": huge}},
		{"review_status", map[string]any{huge: "x"}},
		{"validate", map[string]any{"text": demoText, "data": demoData(583.2), huge: 1}},
		{"validate", map[string]any{"text": demoText, "data": demoData(583.2), "field_threshold": huge}},
		{"validate", map[string]any{"text": demoText, "data": demoData(583.2), "heuristics_only": huge}},
		{"extract", map[string]any{"text": demoText, "schema": huge}},
	} {
		logged.Reset()
		res, err := cs.CallTool(context.Background(), &mcpsdk.CallToolParams{Name: tc.tool, Arguments: tc.args})
		if err != nil {
			t.Fatal(err)
		}
		env := checkEnvelope(t, tc.tool, res)
		if env["status"] != "error" {
			t.Errorf("%s: status %v", tc.tool, env["status"])
		}
		b, _ := json.Marshal(env)
		if len(b) > 4096 {
			t.Errorf("%s: the answer is %d bytes: the argument was echoed", tc.tool, len(b))
		}
		if n := logged.Len(); n > 4096 {
			t.Errorf("%s: %d bytes logged: the argument was logged whole", tc.tool, n)
		}
	}
}

func TestClip(t *testing.T) {
	if got := clip("short", 10); got != "short" {
		t.Errorf("clip short: %q", got)
	}
	got := clip(strings.Repeat("é", 100), 11)
	if !strings.HasPrefix(got, "ééééé…") || !strings.Contains(got, "(200 bytes)") {
		t.Errorf("clip on a rune boundary: %q", got)
	}
}
