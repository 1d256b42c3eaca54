package coreapi

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/reflect-mcp/reflect/policy"
)

type env map[string]string

func serve(t testing.TB, cfg Config, vars env, mod func(*policy.Options)) (*httptest.Server, *policy.Engine) {
	t.Helper()
	o := policy.Options{Getenv: func(k string) string { return vars[k] }}
	if mod != nil {
		mod(&o)
	}
	e, err := policy.New(o)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(Handler(e, cfg))
	t.Cleanup(srv.Close)
	return srv, e
}

type resp struct {
	status int
	body   string
	header http.Header
}

func do(t testing.TB, srv *httptest.Server, method, path, token, body string) resp {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, srv.URL+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", token)
	}
	if method == "POST" && body == "" {
		req.Header.Set("Content-Length", "0")
	}
	r, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Body.Close()
	b, _ := io.ReadAll(r.Body)
	return resp{r.StatusCode, string(b), r.Header}
}

// raw sends bytes on a fresh connection, for requests net/http would fix.
func raw(t testing.TB, srv *httptest.Server, req string) (int, string) {
	t.Helper()
	c, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := io.WriteString(c, req); err != nil {
		t.Fatal(err)
	}
	r, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Body.Close()
	b, _ := io.ReadAll(r.Body)
	return r.StatusCode, string(b)
}

const (
	readEnv = `{"agent":{"session_id":"s1"},"action":{"verb":"read"},"target":{"environment":"production"},"axes":{"reversibility":"reversible","blast_radius":"single","externality":"internal"}}`
	bulkEnv = `{"agent":{"id":"agent:bot","session_id":"s1"},"action":{"verb":"delete","ability":"store/bulk-delete"},"target":{"environment":"production","ref":"café"},"magnitude":{"count":50},"axes":{"reversibility":"irreversible","blast_radius":"broad","externality":"internal"}}`
)

func TestHealthHeadersAndRouting(t *testing.T) {
	srv, _ := serve(t, Config{AuthToken: "s3cret"}, nil, nil)
	r := do(t, srv, "GET", "/healthz", "", "")
	if r.status != 200 || r.body != `{"status":"ok"}` {
		t.Fatalf("%+v", r)
	}
	for k, v := range map[string]string{"Content-Type": "application/json; charset=utf-8", "X-Content-Type-Options": "nosniff",
		"Cache-Control": "no-store", "Server": "reeflex-core"} {
		if r.header.Get(k) != v {
			t.Errorf("%s = %q", k, r.header.Get(k))
		}
	}
	cases := []struct {
		method, path, token string
		status              int
		body                string
	}{
		{"GET", "/healthz?x=1", "", 401, `{"error":"unauthorized"}`},
		{"GET", "/nope", "", 404, `{"error":"not_found"}`},
		{"POST", "/healthz", "", 404, `{"error":"not_found"}`},
		{"GET", "/v1/decide", "", 404, `{"error":"not_found"}`},
		{"PUT", "/v1/decide", "", 405, `{"error":"method_not_allowed"}`},
		{"DELETE", "/v1/holds/x", "", 405, `{"error":"method_not_allowed"}`},
		{"PATCH", "/nope", "", 405, `{"error":"method_not_allowed"}`},
		{"GET", "/v1/holds", "", 401, `{"error":"unauthorized"}`},
		{"GET", "/v1/holds", "bearer s3cret", 401, `{"error":"unauthorized"}`},
		{"GET", "/v1/holds", "Bearer wrong", 401, `{"error":"unauthorized"}`},
		{"GET", "/v1/holds", "Bearer  s3cret ", 200, `{"items":[],"count":0}`},
		{"GET", "/v1/holds/a/b", "Bearer s3cret", 404, `{"error":"not_found"}`},
		{"GET", "/v1/holds/abc", "Bearer s3cret", 404, `{"error":"not_found","hold_id":"abc"}`},
	}
	for _, c := range cases {
		r := do(t, srv, c.method, c.path, c.token, "")
		if r.status != c.status || r.body != c.body {
			t.Errorf("%s %s (%q) = %d %s, want %d %s", c.method, c.path, c.token, r.status, r.body, c.status, c.body)
		}
		if c.status == 401 && r.header.Get("WWW-Authenticate") != "Bearer" {
			t.Errorf("401 without WWW-Authenticate")
		}
		if c.status == 405 && r.header.Get("Allow") != "GET, POST" {
			t.Errorf("405 Allow = %q", r.header.Get("Allow"))
		}
	}
	// The decide route checks auth before it reads the body.
	if st, body := raw(t, srv, "POST /v1/decide HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"); st != 401 || body != `{"error":"unauthorized"}` {
		t.Fatalf("%d %s", st, body)
	}
}

func TestDecideWire(t *testing.T) {
	srv, _ := serve(t, Config{MaxBody: 65536}, nil, nil)
	r := do(t, srv, "POST", "/v1/decide", "", readEnv)
	var d map[string]any
	if r.status != 200 || json.Unmarshal([]byte(r.body), &d) != nil {
		t.Fatalf("%+v", r)
	}
	want := fmt.Sprintf(`{"decision":"allow","reason":"read-only internal action","rule":"reeflex.policy/read_only_internal","obligations":[],"modulation":null,"decision_id":"%s"}`, d["decision_id"])
	if r.body != want {
		t.Fatalf("body\n got %s\nwant %s", r.body, want)
	}
	r = do(t, srv, "POST", "/v1/decide", "", bulkEnv)
	if r.status != 200 || !strings.Contains(r.body, `"decision":"require_approval"`) || !strings.Contains(r.body, `"hold_id":"`) || !strings.Contains(r.body, `"expires_ts":"`) {
		t.Fatalf("%+v", r)
	}
	json.Unmarshal([]byte(r.body), &d)
	h := do(t, srv, "GET", fmt.Sprintf("/v1/holds/%s/", d["hold_id"]), "", "")
	if h.status != 200 || !strings.Contains(h.body, `"ref":"caf\u00e9"`) || !strings.HasPrefix(h.body, `{"id":"`+d["hold_id"].(string)+`","event_type":"created"`) {
		t.Fatalf("%+v", h)
	}
	for _, b := range []byte(h.body) {
		if b >= 0x80 {
			t.Fatal("response is not pure ASCII")
		}
	}
	if h2 := do(t, srv, "GET", fmt.Sprintf("//v1/holds/%s", d["hold_id"]), "", ""); h2.body != h.body {
		t.Fatalf("//v1/holds: %+v", h2)
	}

	bad := []struct{ name, body, want string }{
		{"syntax", `{"agent":`, `{"error":"invalid_json"}`},
		{"NaN", `{"a":NaN}`, `{"error":"invalid_json"}`},
		{"Infinity", `{"a":Infinity}`, `{"error":"invalid_json"}`},
		{"lone surrogate", `{"agent":{"session_id":"\ud800"}}`, `{"error":"invalid_json"}`},
		{"lone low surrogate", `{"a":"\udc00x"}`, `{"error":"invalid_json"}`},
		{"trailing", readEnv + `{}`, `{"error":"invalid_json"}`},
		{"bad utf-8", "{\"a\":\"\xff\"}", `{"error":"invalid_json"}`},
		{"array", `[1]`, `{"error":"invalid_envelope","detail":"envelope must be a JSON object"}`},
		{"5000 deep", strings.Repeat("[", 5000) + strings.Repeat("]", 5000), `{"error":"invalid_envelope","detail":"envelope must be a JSON object"}`},
		{"20000 deep", strings.Repeat("[", 20000) + strings.Repeat("]", 20000), `{"error":"invalid_json"}`},
		{"no verb", `{"agent":{"session_id":"s"},"action":{},"target":{"environment":"prod"}}`, `{"error":"invalid_envelope","detail":"action.verb must be a non-empty string"}`},
	}
	for _, c := range bad {
		if r := do(t, srv, "POST", "/v1/decide", "", c.body); r.status != 400 || r.body != c.want {
			t.Errorf("%s: %d %s", c.name, r.status, r.body)
		}
	}
	// A proper surrogate pair is fine.
	pair := strings.Replace(readEnv, `"s1"`, `"\ud83d\ude00"`, 1)
	if r := do(t, srv, "POST", "/v1/decide", "", pair); r.status != 200 {
		t.Errorf("surrogate pair: %+v", r)
	}
	if r := do(t, srv, "POST", "/v1/decide", "", `{"pad":"`+strings.Repeat("x", 70000)+`"}`); r.status != 413 || r.body != `{"error":"payload_too_large"}` {
		t.Errorf("413: %+v", r)
	}
	st, body := raw(t, srv, "POST /v1/decide HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n2\r\n{}\r\n0\r\n\r\n")
	if st != 411 || body != `{"error":"content_length_required"}` {
		t.Errorf("411: %d %s", st, body)
	}
	st, _ = raw(t, srv, "POST /v1/decide HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
	if st != 411 {
		t.Errorf("no Content-Length: %d", st)
	}
}

func TestDecideFailClosed500(t *testing.T) {
	p, err := policy.LoadPack("p.yaml", []byte("disable: [R4, R1]\n"))
	if err != nil {
		t.Fatal(err)
	}
	srv, _ := serve(t, Config{}, nil, func(o *policy.Options) { o.Pack = p })
	r := do(t, srv, "POST", "/v1/decide", "", readEnv)
	if r.status != 500 || !strings.HasPrefix(r.body, `{"decision":"deny","reason":"policy evaluation unavailable - failing closed","rule":"reeflex.core/fail_closed","obligations":[],"modulation":null,"decision_id":"`) {
		t.Fatalf("%+v", r)
	}
}

func TestResolveRoute(t *testing.T) {
	vars := env{"REEFLEX_RESOLVER_TOKENS": `{"tok-ana":{"type":"human","id":"ana"}}`}
	srv, _ := serve(t, Config{AuthToken: "gate"}, vars, nil)
	r := do(t, srv, "POST", "/v1/decide", "Bearer gate", bulkEnv)
	var d map[string]string
	json.Unmarshal([]byte(r.body), &d)
	id := d["hold_id"]
	path := "/v1/holds/" + id + "/resolve"
	// A resolver token opens resolve only.
	if r := do(t, srv, "POST", "/v1/decide", "Bearer tok-ana", readEnv); r.status != 401 {
		t.Fatalf("resolver token on decide: %d", r.status)
	}
	if r := do(t, srv, "GET", "/v1/holds", "Bearer tok-ana", ""); r.status != 401 {
		t.Fatalf("resolver token on holds: %d", r.status)
	}
	cases := []struct {
		token, body string
		status      int
		prefix      string
	}{
		{"", `{}`, 401, `{"error":"unauthorized"}`},
		{"Bearer gate", `{"decision":"maybe","principal":{"type":"human","id":"ana"}}`, 400, `{"error":"invalid_request","reason":"decision must be \"approve\" or \"reject\"","hold_id":"` + id + `"}`},
		{"Bearer gate", `{"decision":"approve","principal":"ana"}`, 400, `{"error":"invalid_request"`},
		{"Bearer gate", `{"decision":"approve","principal":{"type":null,"id":"ana"}}`, 400, `{"error":"invalid_request"`},
		{"Bearer gate", `{"decision":"approve","principal":{"type":"human","id":"  "}}`, 400, `{"error":"invalid_request"`},
		{"Bearer gate", `not json`, 400, `{"error":"invalid_json"}`},
		{"Bearer gate", `{"decision":"approve","principal":{"type":"human","id":"ana"}}`, 403, `{"error":"principal_not_verified","reason":"the approver cannot be verified: the credential presented is not bound to a principal","hold_id":"` + id + `","remedy":{"principal":"human:ana","why":"unbound_credential","actions":[`},
		{"Bearer tok-ana", `{"decision":"approve","principal":{"type":"human","id":"bob"}}`, 403, `{"error":"principal_mismatch"`},
		{"Bearer tok-ana", `{"decision":"approve","principal":{"type":"human","id":"ana"},"reason":"looked at it"}`, 200, `{"id":"` + id + `","event_type":"created"`},
		{"Bearer tok-ana", `{"decision":"reject","principal":{"type":"human","id":"ana"}}`, 409, `{"error":"not_resolvable","reason":"hold status is 'approved', not pending","hold_id":"` + id + `"}`},
	}
	for _, c := range cases {
		r := do(t, srv, "POST", path, c.token, c.body)
		if r.status != c.status || !strings.HasPrefix(r.body, c.prefix) {
			t.Errorf("%s: %d %s\nwant %d %s", c.body, r.status, r.body, c.status, c.prefix)
		}
	}
	if r := do(t, srv, "POST", "/v1/holds/nope/resolve", "Bearer gate", `{"decision":"approve","principal":{"type":"human","id":"ana"}}`); r.status != 404 ||
		r.body != `{"error":"not_resolvable","reason":"hold not found","hold_id":"nope"}` {
		t.Errorf("404: %+v", r)
	}
	h := do(t, srv, "GET", "/v1/holds/"+id, "Bearer gate", "")
	if !strings.Contains(h.body, `"status":"approved","decided_by":"human:ana","decided_by_verified":true,"principal_source":"credential"`) ||
		!strings.Contains(h.body, `"reason":"looked at it"`) {
		t.Fatal(h.body)
	}
	// Resubmission through the wire.
	resub := strings.Replace(bulkEnv, `"axes"`, `"approval":{"present":true,"hold_id":"`+id+`"},"axes"`, 1)
	r = do(t, srv, "POST", "/v1/decide", "Bearer gate", resub)
	if !strings.Contains(r.body, `"rule":"reeflex.policy/approved_resubmission"`) || !strings.HasSuffix(r.body, `"parent_decision_id":"`+d["decision_id"]+`"}`) {
		t.Fatal(r.body)
	}
	l := do(t, srv, "GET", "/v1/holds?status=consumed&limit=abc", "Bearer gate", "")
	if !strings.HasSuffix(l.body, `],"count":1}`) {
		t.Fatal(l.body)
	}
}

func TestHoldsPaging(t *testing.T) {
	srv, _ := serve(t, Config{}, nil, nil)
	var ids []string
	for i := range 3 {
		b := strings.Replace(bulkEnv, `"s1"`, fmt.Sprintf(`"s%d"`, i), 1)
		var d map[string]string
		json.Unmarshal([]byte(do(t, srv, "POST", "/v1/decide", "", b).body), &d)
		ids = append(ids, d["hold_id"])
	}
	var page struct {
		Items []struct {
			ID string `json:"id"`
		} `json:"items"`
		Count      int    `json:"count"`
		NextCursor string `json:"next_cursor"`
	}
	json.Unmarshal([]byte(do(t, srv, "GET", "/v1/holds?limit=2", "", "").body), &page)
	if page.Count != 2 || page.NextCursor == "" {
		t.Fatalf("%+v", page)
	}
	cursor := page.NextCursor
	page.NextCursor = ""
	json.Unmarshal([]byte(do(t, srv, "GET", "/v1/holds?limit=2&cursor="+cursor, "", "").body), &page)
	if page.Count != 1 || page.NextCursor != "" || page.Items[0].ID != slices.Max(ids) { // same second: by id
		t.Fatalf("%+v (created %v)", page, ids)
	}
}

func TestFreezeRoute(t *testing.T) {
	srv, _ := serve(t, Config{AuthToken: "gate"}, env{"REEFLEX_FREEZE": " Yes "}, nil)
	if r := do(t, srv, "GET", "/v1/freeze", "", ""); r.status != 401 {
		t.Fatal(r.status)
	}
	if r := do(t, srv, "GET", "/v1/freeze", "Bearer gate", ""); r.body != `{"frozen":true,"source":"env"}` {
		t.Fatal(r.body)
	}
	write := strings.Replace(readEnv, `"read"`, `"update"`, 1)
	if r := do(t, srv, "POST", "/v1/decide", "Bearer gate", write); !strings.Contains(r.body, `"rule":"reeflex.policy/frozen"`) {
		t.Fatal(r.body)
	}
	if r := do(t, srv, "POST", "/v1/freeze", "Bearer gate", `{"frozen":false}`); r.body != `{"frozen":false,"source":"switch"}` {
		t.Fatal(r.body)
	}
	if r := do(t, srv, "POST", "/v1/decide", "Bearer gate", write); !strings.Contains(r.body, `"decision":"allow"`) {
		t.Fatal(r.body)
	}
	if r := do(t, srv, "POST", "/v1/freeze", "Bearer gate", `{"frozen":"yes"}`); r.status != 400 {
		t.Fatal(r.status)
	}
}

func TestConcurrentDecides(t *testing.T) {
	srv, _ := serve(t, Config{}, nil, nil)
	var wg sync.WaitGroup
	errs := make(chan string, 16*50)
	for c := range 16 {
		wg.Go(func() {
			for i := range 50 {
				b := strings.Replace(readEnv, `"s1"`, fmt.Sprintf(`"c%d"`, c), 1)
				b = strings.Replace(b, `"axes"`, fmt.Sprintf(`"meta":{"nonce":"%d-%d"},"axes"`, c, i), 1)
				req, _ := http.NewRequest("POST", srv.URL+"/v1/decide", bytes.NewReader([]byte(b)))
				r, err := srv.Client().Do(req)
				if err != nil {
					errs <- err.Error()
					continue
				}
				body, _ := io.ReadAll(r.Body)
				r.Body.Close()
				if r.StatusCode != 200 || !bytes.Contains(body, []byte(`"allow"`)) {
					errs <- fmt.Sprintf("%d %s", r.StatusCode, body)
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}
