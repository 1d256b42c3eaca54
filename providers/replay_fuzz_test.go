package providers

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/reflect-mcp/reflect/pipeline/llm"
)

// FuzzLoadFixture: a replay fixture file of any content loads or is
// refused with an error; a loaded one answers its own entries.
func FuzzLoadFixture(f *testing.F) {
	for _, seed := range []string{
		`{"version":1,"entries":[{"id":"a","purpose":"generator","source_sha256":"` + SourceKey("doc") + `","output":"{\"total\":1}"}]}`,
		`{"entries":null}`, `{"entries":[{}]}`, `{"entries":[1]}`, `[]`, `null`, ``, `{"version":"x"}`,
	} {
		f.Add([]byte(seed))
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(dir, "fixture.json")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		fx, err := LoadFixture(path)
		if err != nil {
			return
		}
		r := NewReplay(fx)
		for _, e := range fx.Entries {
			// The key is a text's hash: ask with a request whose source
			// hashes to it only when the entry names one we can build.
			if e.SourceSHA256 != SourceKey("doc") {
				continue
			}
			resp, err := r.Complete(context.Background(), llm.Request{Purpose: e.Purpose, Source: "doc"})
			if err != nil {
				t.Fatalf("entry not answered: %v", err)
			}
			_ = resp
		}
		if _, err := r.Complete(context.Background(), llm.Request{Purpose: "generator", Source: "not recorded \x00"}); err == nil && len(fx.Entries) == 0 {
			t.Fatal("an empty fixture answered")
		}
	})
}
