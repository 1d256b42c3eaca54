package gateway

import (
	"net"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// everythingHTTP runs server-everything's streamable HTTP mode
// (`mcp-server-everything streamableHttp`, port from $PORT). It listens on
// every interface (express's app.listen(PORT), no host to pass), which a
// test cannot change: it gets a free random port, and is reached on
// loopback only.
func everythingHTTP(t *testing.T) string {
	t.Helper()
	bin := needBin(t, "mcp-server-everything")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	ln.Close()
	cmd := exec.Command(bin, "streamableHttp")
	cmd.Env = append(os.Environ(), "PORT="+port)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	addr := "127.0.0.1:" + port
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if c, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("server-everything did not listen on %s", addr)
		}
	}
	return "http://" + addr + "/mcp"
}

// npm's server-everything as a streamable HTTP upstream: its tools are
// listed namespaced with their definitions unchanged, a call is decided and
// forwarded, and a structured result comes back as the server sent it.
func TestNpmEverythingOverStreamableHTTP(t *testing.T) {
	url := everythingHTTP(t)
	eng := newTestEngine()
	_, cs := startGateway(t, Options{Decider: eng, Mode: ModeEnforce,
		Upstreams: []UpstreamConfig{{Name: "everything", URL: url, System: "everything", Environment: "dev", Required: true}}})
	direct := connectHTTP(t, url, nil)
	defer direct.Close()
	want := listTools(t, direct)
	got := listTools(t, cs)
	if len(want) < 10 || len(got) != len(want) {
		t.Fatalf("gateway lists %d tools, the server %d", len(got), len(want))
	}
	for name, w := range want {
		p := got["everything__"+name]
		if p == nil {
			t.Errorf("%s not listed through the gateway", name)
			continue
		}
		p2 := *p
		p2.Name = name
		if a, b := jsonOf(t, w), jsonOf(t, &p2); a != b {
			t.Errorf("%s changed on the way through:\n direct %s\n proxied %s", name, a, b)
		}
	}
	res := call(t, cs, "everything__echo", map[string]any{"message": "over streamable HTTP"})
	if res.IsError || !strings.Contains(text(res), "over streamable HTTP") || res.Meta["decision_id"] == nil {
		t.Fatalf("echo: %s", jsonOf(t, res))
	}
	args := map[string]any{"location": "Chicago"}
	via, dir := call(t, cs, "everything__get-structured-content", args), call(t, direct, "get-structured-content", args)
	if via.IsError || jsonOf(t, via.StructuredContent) != jsonOf(t, dir.StructuredContent) {
		t.Fatalf("structured result differs:\n via %s\n direct %s", jsonOf(t, via), jsonOf(t, dir))
	}
	if envString(eng.last(), "params", "tool_name") != "get-structured-content" {
		t.Errorf("envelope names the wrong tool: %v", eng.last())
	}
}
