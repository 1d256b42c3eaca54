package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reflect-mcp/reflect/gateway"
	"github.com/reflect-mcp/reflect/store"
)

// `reflect gateway pins remove` forgets the pins of a tool, or of every tool
// of an upstream, that the gateway no longer serves. A pin whose tool
// changed is not forgotten without --force: the gateway would pin the new
// definition at its next sight, an accept nobody read.
func TestGatewayPinsRemove(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "reflect.db")
	st, err := store.Open(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	pins := storePins{st} // what a gateway on this store pins with
	for _, tool := range []string{"memory__create_entities", "memory__delete_entities", "memory__read_graph", "filesystem__write_file"} {
		up, name, _ := strings.Cut(tool, gateway.Separator)
		if s, err := pins.Check(ctx, up, name, "h1-"+tool); err != nil || s != gateway.PinNew {
			t.Fatalf("first sight of %s: %v %v", tool, s, err)
		}
	}
	if s, _ := pins.Check(ctx, "memory", "delete_entities", "h2-changed"); s != gateway.PinChanged {
		t.Fatalf("a changed definition: %v", s)
	}
	pinned := func() string {
		t.Helper()
		r := run(t, "", "gateway", "pins", "--store", path)
		if r.code != 0 {
			t.Fatalf("gateway pins: exit %d %s", r.code, r.err)
		}
		return r.out
	}

	r := run(t, "", "gateway", "pins", "remove", "filesystem__write_file", "--store", path)
	if r.code != 0 || !strings.Contains(r.out, "filesystem__write_file: pin ") || !strings.Contains(r.out, "removed") {
		t.Fatalf("remove one tool: exit %d\n%s%s", r.code, r.out, r.err)
	}
	if out := pinned(); strings.Contains(out, "filesystem__") || !strings.Contains(out, "memory__read_graph") {
		t.Errorf("after removing filesystem__write_file the pins are:\n%s", out)
	}

	// An upstream's name removes all its tools, but not while one of them
	// changed: nothing is removed then, and the message says what to do.
	r = run(t, "", "gateway", "pins", "remove", "memory", "--store", path)
	if r.code != ExitUsage || !strings.Contains(r.err, "memory__delete_entities changed") ||
		!strings.Contains(r.err, "reflect gateway pins accept memory__delete_entities") || !strings.Contains(r.err, "--force") {
		t.Errorf("remove an upstream with a changed tool: exit %d, stderr %q", r.code, r.err)
	}
	if out := pinned(); strings.Count("\n"+out, "\nmemory__") != 3 {
		t.Errorf("a refused remove removed pins:\n%s", out)
	}
	r = run(t, "", "gateway", "pins", "remove", "memory", "--force", "--store", path)
	if r.code != 0 || strings.Count(r.out, " removed") != 3 {
		t.Fatalf("remove --force: exit %d\n%s%s", r.code, r.out, r.err)
	}
	if out := pinned(); out != "" {
		t.Errorf("pins left after removing every one:\n%s", out)
	}
	// The gateway sees the tool again: it is pinned afresh.
	if s, err := pins.Check(ctx, "memory", "delete_entities", "h2-changed"); err != nil || s != gateway.PinNew {
		t.Errorf("a removed tool seen again: %v %v, want pinned at first sight", s, err)
	}

	for name, args := range map[string][]string{
		"unknown tool":     {"remove", "nope__x"},
		"unknown upstream": {"remove", "nope"},
		"force alone":      {"--force"},
		"no name":          {"remove"},
	} {
		r := run(t, "", append(append([]string{"gateway", "pins"}, args...), "--store", path)...)
		if r.code != ExitUsage || r.err == "" {
			t.Errorf("%s: exit %d, stderr %q; want a usage error", name, r.code, r.err)
		}
	}
	if r := run(t, "", "gateway", "pins", "--help"); !strings.Contains(r.out, "remove <upstream>__<tool>|<upstream> [--force]") {
		t.Errorf("gateway pins --help does not name remove:\n%s", r.out)
	}
	if r := run(t, "", "gateway", "--help"); !strings.Contains(r.out, "pins [accept|remove NAME]") {
		t.Errorf("gateway --help does not name pins remove:\n%s", r.out)
	}
}
