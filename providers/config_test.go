package providers

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func envOf(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestConfigDefaults(t *testing.T) {
	cases := []struct {
		env                   map[string]string
		gen, genModel, critic string
		criticModel           string
	}{
		{map[string]string{"OPENAI_API_KEY": testKey}, "openai", "gpt-4o-mini", "openai", "gpt-4.1-mini"},
		{map[string]string{"ANTHROPIC_API_KEY": testKey}, "anthropic", "claude-sonnet-4-5", "anthropic", "claude-haiku-4-5"},
		{map[string]string{"AWS_BEARER_TOKEN_BEDROCK": testKey}, "bedrock", "claude-sonnet-4-5", "bedrock", "claude-haiku-4-5"},
		{map[string]string{}, "local", "", "local", ""},
		{map[string]string{"OPENAI_BASE_URL": "http://127.0.0.1:11434/v1"}, "openai", "gpt-4o-mini", "openai", "gpt-4.1-mini"},
		{map[string]string{"REFLECT_PROVIDER": "local"}, "local", "", "local", ""},
		{map[string]string{"REFLECT_PROVIDER": "local", "REFLECT_CRITIC_PROVIDER": "openai"}, "local", "", "openai", "gpt-4.1-mini"},
		{map[string]string{"REFLECT_PROVIDER": "OpenAI", "REFLECT_CRITIC_PROVIDER": "anthropic"}, "openai", "gpt-4o-mini", "anthropic", "claude-haiku-4-5"},
		{map[string]string{"REFLECT_PROVIDER": "anthropic", "REFLECT_GENERATOR_MODEL": "claude-3-5-sonnet-latest", "REFLECT_CRITIC_MODEL": "claude-3-5-haiku-latest"},
			"anthropic", "claude-3-5-sonnet-latest", "anthropic", "claude-3-5-haiku-latest"},
	}
	for i, tc := range cases {
		c := ConfigFromEnv(envOf(tc.env))
		gp, gm := c.Generator()
		cp, cm := c.Critic()
		if gp != tc.gen || gm != tc.genModel || cp != tc.critic || cm != tc.criticModel {
			t.Errorf("case %d: generator %s/%s critic %s/%s, want %s/%s %s/%s", i, gp, gm, cp, cm, tc.gen, tc.genModel, tc.critic, tc.criticModel)
		}
		if err := c.Validate(); err != nil {
			t.Errorf("case %d: %v", i, err)
		}
	}
}

func TestConfigValidate(t *testing.T) {
	for env, want := range map[string]string{
		"REFLECT_TIMEOUT=soon":               "REFLECT_TIMEOUT",
		"REFLECT_TIMEOUT=-3":                 "REFLECT_TIMEOUT",
		"REFLECT_TIMEOUT=NaN":                "REFLECT_TIMEOUT",
		"REFLECT_TIMEOUT=2h":                 "REFLECT_TIMEOUT",
		"REFLECT_MAX_RETRIES=many":           "REFLECT_MAX_RETRIES",
		"REFLECT_PROVIDER=gemini":            "REFLECT_PROVIDER",
		"REFLECT_CRITIC_PROVIDER=gemini":     "REFLECT_CRITIC_PROVIDER",
		"REFLECT_OPENAI_RESPONSE_FORMAT=xml": "REFLECT_OPENAI_RESPONSE_FORMAT",
	} {
		k, v, _ := strings.Cut(env, "=")
		err := ConfigFromEnv(envOf(map[string]string{k: v})).Validate()
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err = %v, want it to name %s", env, err, want)
		}
	}
	c := ConfigFromEnv(envOf(map[string]string{"REFLECT_TIMEOUT": "2.5", "REFLECT_MAX_RETRIES": "-1"}))
	if c.Timeout != 2500*time.Millisecond || c.MaxRetries != -1 {
		t.Errorf("timeout %v retries %d", c.Timeout, c.MaxRetries)
	}
}

func TestConfigFlagsOverrideEnv(t *testing.T) {
	c := ConfigFromEnv(envOf(map[string]string{"REFLECT_PROVIDER": "openai", "REFLECT_TIMEOUT": "30"}))
	fs := flag.NewFlagSet("reflect", flag.ContinueOnError)
	c.RegisterFlags(fs)
	if err := fs.Parse([]string{"--provider", "anthropic", "--critic-model", "claude-haiku-4-5", "--timeout", "90s"}); err != nil {
		t.Fatal(err)
	}
	if p, _ := c.Generator(); p != "anthropic" || c.CriticModel != "claude-haiku-4-5" || c.Timeout != 90*time.Second {
		t.Errorf("after flags: %v", c)
	}
	if err := fs.Parse([]string{"--timeout", "never"}); err == nil {
		t.Error("bad --timeout accepted")
	}
}

func TestConfigNewClientMissingKeys(t *testing.T) {
	cases := []struct {
		provider string
		env      map[string]string
		want     string
	}{
		{"openai", nil, "OPENAI_API_KEY is not set"},
		{"anthropic", nil, "ANTHROPIC_API_KEY is not set"},
		{"bedrock", nil, "AWS_BEARER_TOKEN_BEDROCK"},
		{"bedrock", map[string]string{"AWS_BEARER_TOKEN_BEDROCK": testKey}, "AWS_REGION is not set"},
		{"local", nil, "rule-based"},
		{"replay", nil, "NewReplay"},
		{"gemini", nil, "unknown provider"},
		{"openai", map[string]string{"OPENAI_API_KEY": testKey, "REFLECT_PRICES": "/nonexistent/prices.json"}, "prices"},
	}
	for _, tc := range cases {
		_, err := ConfigFromEnv(envOf(tc.env)).NewClient(tc.provider)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %v: err = %v, want %q", tc.provider, tc.env, err, tc.want)
		}
		noSecret(t, err)
	}
}

func TestConfigNewClientWorks(t *testing.T) {
	oai := newFakeServer(t, reply(200, openAIOK))
	ant := newFakeServer(t, reply(200, anthropicToolOK))
	prices := filepath.Join(t.TempDir(), "prices.json")
	if err := os.WriteFile(prices, []byte(`{"gpt-4o-mini": {"input_per_mtok": 1, "output_per_mtok": 1}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	c := ConfigFromEnv(envOf(map[string]string{
		"OPENAI_API_KEY": testKey, "OPENAI_BASE_URL": oai.URL + "/v1",
		"ANTHROPIC_API_KEY": testKey, "ANTHROPIC_BASE_URL": ant.URL,
		"AWS_BEARER_TOKEN_BEDROCK": testKey, "ANTHROPIC_BEDROCK_MANTLE_BASE_URL": ant.URL + "/anthropic",
		"REFLECT_OPENAI_RESPONSE_FORMAT": "json_object", "REFLECT_PRICES": prices,
	}))
	for _, p := range []string{"openai", "anthropic", "bedrock"} {
		client, err := c.NewClient(p)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		resp, err := client.Complete(context.Background(), testRequest())
		if err != nil || resp.Text != `{"total":12.5}` {
			t.Errorf("%s: resp=%+v err=%v", p, resp, err)
		}
		if p == "openai" && resp.Usage.CostUSD != 1200.0/1e6 {
			t.Errorf("price override not applied: cost %v", resp.Usage.CostUSD)
		}
	}
	if rf, _ := oai.request(0).Body["response_format"].(map[string]any); rf["type"] != "json_object" {
		t.Errorf("REFLECT_OPENAI_RESPONSE_FORMAT not applied: %v", rf)
	}
	if oai.count() != 1 || ant.count() != 2 {
		t.Errorf("requests: openai %d anthropic %d", oai.count(), ant.count())
	}
	// A local OpenAI-compatible server needs no key: a placeholder goes out
	// instead (and never a key from the process environment).
	local := ConfigFromEnv(envOf(map[string]string{"OPENAI_BASE_URL": oai.URL + "/v1"}))
	client, err := local.NewClient("openai")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := client.Complete(context.Background(), testRequest()); err != nil {
		t.Fatal(err)
	}
	if got := oai.request(1).Header.Get("Authorization"); got != "Bearer not-needed" {
		t.Errorf("local Authorization = %q", got)
	}
}

func TestConfigNeverPrintsKeys(t *testing.T) {
	c := ConfigFromEnv(envOf(map[string]string{
		"OPENAI_API_KEY": testKey, "ANTHROPIC_API_KEY": testKey, "AWS_BEARER_TOKEN_BEDROCK": testKey,
		"REFLECT_TIMEOUT": "bogus",
	}))
	var logged bytes.Buffer
	slog.New(slog.NewTextHandler(&logged, nil)).Info("config", "cfg", c)
	slog.New(slog.NewJSONHandler(&logged, nil)).Info("config", "cfg", c)
	outputs := []string{
		c.String(), fmt.Sprint(c), fmt.Sprintf("%v %+v %#v %s", c, c, c, c), fmt.Sprintf("%v %+v", &c, &c),
		logged.String(), c.Validate().Error(),
	}
	for _, out := range outputs {
		if strings.Contains(out, testKey) {
			t.Errorf("key printed: %s", out)
		}
	}
	if !strings.Contains(c.String(), "openai_key=set") || !strings.Contains(logged.String(), "anthropic_key=set") {
		t.Errorf("redacted form should still say a key is set: %s / %s", c.String(), logged.String())
	}
}

func TestClientsPrintNoKey(t *testing.T) {
	o, err := NewOpenAI(OpenAIConfig{APIKey: testKey})
	if err != nil {
		t.Fatal(err)
	}
	a, err := NewAnthropic(AnthropicConfig{APIKey: testKey})
	if err != nil {
		t.Fatal(err)
	}
	b, err := NewBedrock(BedrockConfig{APIKey: testKey, Region: "us-east-1"})
	if err != nil {
		t.Fatal(err)
	}
	var logged bytes.Buffer
	log := slog.New(slog.NewJSONHandler(&logged, nil))
	// A client ends up in a log line or a debug print through whatever holds
	// it (a Generator, a Critic).
	for _, v := range []any{o, a, b, *o, *a} {
		log.Info("client", "c", v)
		for _, f := range []string{"%v", "%+v", "%#v"} {
			if s := fmt.Sprintf(f, v); strings.Contains(s, testKey) {
				t.Errorf("%s of %T prints the key", f, v)
			}
		}
	}
	if strings.Contains(logged.String(), testKey) {
		t.Error("logging a client prints the key")
	}
}

func TestConfigHidesBaseURLCredentials(t *testing.T) {
	const pw, q = "hunter2-password-xyz", "query-secret-0987654321"
	c := ConfigFromEnv(envOf(map[string]string{
		"OPENAI_BASE_URL":                   "https://me:" + pw + "@gateway.example/v1",
		"ANTHROPIC_BASE_URL":                "https://proxy.example/anthropic?key=" + q,
		"ANTHROPIC_BEDROCK_MANTLE_BASE_URL": "https://gw.example/b?token=" + q,
	}))
	var logged bytes.Buffer
	slog.New(slog.NewJSONHandler(&logged, nil)).Info("config", "cfg", c)
	for _, out := range []string{c.String(), fmt.Sprintf("%#v", c), logged.String()} {
		if strings.Contains(out, pw) || strings.Contains(out, q) {
			t.Errorf("credential printed: %s", out)
		}
		if !strings.Contains(out, "gateway.example/v1") || !strings.Contains(out, "proxy.example/anthropic") {
			t.Errorf("hosts should still show: %s", out)
		}
	}
	if got := displayURL("http://127.0.0.1:11434/v1"); got != "http://127.0.0.1:11434/v1" {
		t.Errorf("plain URL changed: %q", got)
	}
}
