package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/reflect-mcp/reflect/pipeline"
)

// rawClient speaks bytes to a server over real pipes: what a careless or
// hostile client can send, with nothing in between to tidy it up.
type rawClient struct {
	t     testing.TB
	w     io.WriteCloser
	lines chan string
}

func newRawClient(t testing.TB, w io.WriteCloser, r io.Reader) *rawClient {
	c := &rawClient{t: t, w: w, lines: make(chan string, 64)}
	go func() {
		br := bufio.NewReaderSize(r, 1<<20)
		for {
			line, err := br.ReadString('\n')
			if line != "" {
				c.lines <- line
			}
			if err != nil {
				close(c.lines)
				return
			}
		}
	}()
	return c
}

func (c *rawClient) send(s string) {
	c.t.Helper()
	if _, err := io.WriteString(c.w, s); err != nil {
		c.t.Fatalf("write %q: %v", clip(s, 60), err)
	}
}

// recv returns the next message the server wrote; the deadline only keeps a
// broken server from hanging the test.
func (c *rawClient) recv() map[string]any {
	c.t.Helper()
	select {
	case line, ok := <-c.lines:
		if !ok {
			c.t.Fatal("the server closed its output")
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			c.t.Fatalf("server wrote a line that is not a JSON object: %q", line)
		}
		return m
	case <-time.After(20 * time.Second):
		c.t.Fatal("no answer from the server")
	}
	return nil
}

func (c *rawClient) initialize() {
	c.t.Helper()
	c.send(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}` + "\n")
	if m := c.recv(); m["id"] != "init" || m["result"] == nil {
		c.t.Fatalf("initialize: %v", m)
	}
	c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n")
}

func (c *rawClient) ping(id int) {
	c.t.Helper()
	c.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ping"}`+"\n", id))
	if m := c.recv(); m["id"] != float64(id) || m["result"] == nil {
		c.t.Fatalf("ping %d: %v", id, m)
	}
}

func errCode(m map[string]any) float64 {
	e, _ := m["error"].(map[string]any)
	c, _ := e["code"].(float64)
	return c
}

func validateCall(id any) string {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": map[string]any{
		"name": "validate", "arguments": map[string]any{"text": demoText, "data": demoData(583.2), "heuristics_only": true}}})
	return string(b) + "\n"
}

// serveOverPipes runs s.ServeIO on two OS pipes and returns the client end.
func serveOverPipes(t *testing.T, s *Server) *rawClient {
	t.Helper()
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		done <- s.ServeIO(context.Background(), inR, outW)
		outW.Close()
	}()
	t.Cleanup(func() {
		inW.Close()
		if err := <-done; err != nil {
			t.Errorf("ServeIO: %v", err)
		}
		outR.Close()
	})
	return newRawClient(t, inW, outR)
}

// blockingBuilder holds every pipeline build until release is closed or the
// call's context ends, so a call can be kept in flight.
type blockingBuilder struct {
	sb       scriptBuilder
	entered  chan struct{}
	release  chan struct{}
	returned chan struct{}
}

func newBlockingBuilder() *blockingBuilder {
	return &blockingBuilder{entered: make(chan struct{}, 8), release: make(chan struct{}), returned: make(chan struct{}, 8)}
}

func (b *blockingBuilder) build(ctx context.Context, o BuildOptions) (*pipeline.Pipeline, error) {
	b.entered <- struct{}{}
	defer func() { b.returned <- struct{}{} }()
	select {
	case <-b.release:
		return b.sb.build(ctx, o)
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

var hostileLines = []struct {
	name, line string
	code       float64
	id         any
}{
	{"garbage", "this is not json at all\n", -32700, nil},
	{"truncated", `{"jsonrpc":"2.0","id":7,"method":"pi` + "\n", -32700, nil},
	{"empty object", "{}\n", -32600, nil},
	{"null", "null\n", -32600, nil},
	{"number", "42\n", -32600, nil},
	{"empty batch", "[]\n", -32600, nil},
	{"batch", `[{"jsonrpc":"2.0","id":"b1","method":"ping"}]` + "\n", -32600, "b1"},
	{"bom alone", "\xEF\xBB\xBF\n", 0, nil}, // a blank line: nothing to answer
	{"two on a line", `{"jsonrpc":"2.0","id":"x1","method":"ping"}{"jsonrpc":"2.0","id":"x2","method":"ping"}` + "\n", -32600, "x1"},
	{"wrong version", `{"jsonrpc":"1.0","id":"v","method":"ping"}` + "\n", -32600, "v"},
	{"invalid utf-8", "\xff\xfe{}\n", -32700, nil},
}

func TestStdioHostileLinesKeepServing(t *testing.T) {
	bb := newBlockingBuilder()
	c := serveOverPipes(t, newTestServer(t, Config{Build: bb.build}))
	c.initialize()
	// A call in flight while the garbage arrives must still be answered.
	c.send(validateCall("inflight"))
	<-bb.entered
	for i, h := range hostileLines {
		c.send(h.line)
		if h.code != 0 {
			m := c.recv()
			if errCode(m) != h.code || m["id"] != h.id || m["jsonrpc"] != "2.0" {
				t.Errorf("%s: answer %v, want code %v id %v", h.name, m, h.code, h.id)
			}
			if _, has := m["id"]; !has {
				t.Errorf("%s: the error has no id member (JSON-RPC wants null)", h.name)
			}
			if h.name == "two on a line" {
				if m2 := c.recv(); errCode(m2) != -32600 || m2["id"] != "x2" {
					t.Errorf("%s: second answer %v", h.name, m2)
				}
			}
		}
		c.ping(100 + i)
	}
	close(bb.release)
	m := c.recv()
	if m["id"] != "inflight" || m["result"] == nil {
		t.Fatalf("the in-flight call: %v", m)
	}
	if !strings.Contains(fmt.Sprint(m["result"]), `status:ok`) {
		t.Errorf("the in-flight call's result: %v", m["result"])
	}
	// A message after a byte order mark is read as the message.
	c.send("\xEF\xBB\xBF" + `{"jsonrpc":"2.0","id":"bom","method":"ping"}` + "\n")
	if m := c.recv(); m["id"] != "bom" || m["result"] == nil {
		t.Errorf("message after a BOM: %v", m)
	}
	// CRLF line ends are fine too.
	c.send(`{"jsonrpc":"2.0","id":"crlf","method":"ping"}` + "\r\n")
	if m := c.recv(); m["id"] != "crlf" || m["result"] == nil {
		t.Errorf("CRLF: %v", m)
	}
}

func TestStdioOverlongLineIsRefused(t *testing.T) {
	inR, inW, _ := os.Pipe()
	outR, outW, _ := os.Pipe()
	s := newTestServer(t, Config{Build: (&scriptBuilder{}).build})
	done := make(chan error, 1)
	go func() {
		done <- s.SDK().Run(context.Background(), &lineTransport{r: inR, w: outW, max: 1024})
		outW.Close()
	}()
	c := newRawClient(t, inW, outR)
	c.initialize()
	c.send(`{"jsonrpc":"2.0","id":9,"method":"ping","params":{"pad":"` + strings.Repeat("x", 200000) + `"}}` + "\n")
	if m := c.recv(); errCode(m) != -32600 || !strings.Contains(fmt.Sprint(m["error"]), "longer than 1024") {
		t.Errorf("overlong line: %v", m)
	}
	c.ping(10)
	inW.Close()
	<-done
	outR.Close()
}

// TestStdioNoCodeZero: the protocol mistakes the SDK answers with an uncoded
// error get a JSON-RPC code.
func TestStdioNoCodeZero(t *testing.T) {
	c := serveOverPipes(t, newTestServer(t, Config{Build: (&scriptBuilder{}).build}))
	c.send(`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}` + "\n")
	if m := c.recv(); m["id"] != float64(1) || errCode(m) != -32600 {
		t.Errorf("call before initialize: %v", m)
	}
	c.initialize()
	c.send(`{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}` + "\n")
	if m := c.recv(); m["id"] != float64(2) || errCode(m) != -32600 {
		t.Errorf("duplicate initialize: %v", m)
	}
	c.send(`{"jsonrpc":"2.0","id":3,"method":"no/such/method","params":{}}` + "\n")
	if m := c.recv(); m["id"] != float64(3) || errCode(m) != -32601 {
		t.Errorf("unknown method: %v", m)
	}
	c.send(`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"nope","arguments":{}}}` + "\n")
	if m := c.recv(); m["id"] != float64(4) || errCode(m) == 0 {
		t.Errorf("unknown tool: %v", m)
	}
}

// TestStdioCancelledCallGetsNoAnswer: after notifications/cancelled the
// server sends nothing for that id (the spec's SHOULD NOT respond).
func TestStdioCancelledCallGetsNoAnswer(t *testing.T) {
	bb := newBlockingBuilder()
	c := serveOverPipes(t, newTestServer(t, Config{Build: bb.build}))
	c.initialize()
	c.send(validateCall(41))
	<-bb.entered
	c.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":41,"reason":"user pressed stop"}}` + "\n")
	<-bb.returned
	c.ping(42)
	// Cancelling something not in flight changes nothing.
	c.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":999}}` + "\n")
	close(bb.release)
	c.send(validateCall(43))
	if m := c.recv(); m["id"] != float64(43) || m["result"] == nil {
		t.Errorf("the next call: %v", m)
	}
}

// TestStdioHelperProcess is the server side of TestStdioSubprocess: the test
// binary itself, serving stdio.
func TestStdioHelperProcess(t *testing.T) {
	if os.Getenv("REFLECT_MCP_STDIO_HELPER") != "1" {
		t.Skip("helper process")
	}
	s, err := NewServer(Config{Build: (&scriptBuilder{}).build, Logger: quietLog(), Getenv: envMap(nil)})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	if err := s.ServeStdio(context.Background()); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(3)
	}
	os.Exit(0)
}

// TestStdioSubprocess sends every hostile line to a server process on its
// real stdin: it answers each, keeps serving, and exits 0 when stdin ends.
func TestStdioSubprocess(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^TestStdioHelperProcess$")
	cmd.Env = append(os.Environ(), "REFLECT_MCP_STDIO_HELPER=1")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := newRawClient(t, stdin, stdout)
	// Garbage before initialize must not lose the initialize answer.
	c.send("garbage first\n")
	if m := c.recv(); errCode(m) != -32700 {
		t.Errorf("garbage before initialize: %v", m)
	}
	c.initialize()
	for i, h := range hostileLines {
		c.send(h.line)
		if h.code != 0 {
			if m := c.recv(); errCode(m) != h.code {
				t.Errorf("%s: %v", h.name, m)
			}
			if h.name == "two on a line" {
				c.recv()
			}
		}
		c.ping(i)
	}
	c.send(validateCall("last"))
	if m := c.recv(); m["id"] != "last" || m["result"] == nil {
		t.Errorf("validate after the garbage: %v", m)
	}
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("server exit: %v\n%s", err, stderr.String())
	}
}
