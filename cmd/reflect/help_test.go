package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// Every --help says what the flags take and do: no backquoted phrase read
// as an argument name, the subcommand named once, a filter called a filter,
// no empty Flags: section, the export file's real name, a real queue name.
func TestHelpTextsSayWhatTheFlagsDo(t *testing.T) {
	help := func(args ...string) string {
		t.Helper()
		r := run(t, "", append(args, "--help")...)
		if r.code != ExitOK {
			t.Fatalf("%v --help: exit %d %s", args, r.code, r.err)
		}
		return r.out
	}
	for _, verb := range []string{"extract", "validate"} {
		if out := help(verb); strings.Contains(out, "--save reflect") || !strings.Contains(out, "so reflect review FILE opens them") {
			t.Errorf("%s --help: --save reads as taking an argument:\n%s", verb, out)
		}
	}
	for _, sub := range []string{"list", "show", "approve", "reject"} {
		out := help("holds", sub)
		first, _, _ := strings.Cut(out, "\n")
		if strings.Count(first, " list") > 1 || (sub != "list" && strings.Contains(first, "list")) || !strings.HasPrefix(first, "Usage: reflect holds "+sub+" ") {
			t.Errorf("holds %s --help: %q", sub, first)
		}
	}
	if out := help("audit"); strings.Contains(out, "default: the OS user") || !strings.Contains(out, "only this reviewer's decisions") {
		t.Errorf("audit --help: --reviewer is a filter:\n%s", out)
	}
	out := help("review")
	if !strings.Contains(out, "<corpus>.<corpus id>.golden.jsonl") || strings.Contains(out, "--queue mcp") || !strings.Contains(out, "claude-ai") {
		t.Errorf("review --help: export name or queue example wrong:\n%s", out)
	}
	for _, v := range [][]string{{"gateway", "check"}, {"policy", "check"}} {
		if out := help(v...); strings.Contains(out, "Flags:") {
			t.Errorf("%v --help prints an empty Flags: section:\n%s", v, out)
		}
	}
	r := run(t, "", "eval", "--dataset", filepath.Join(t.TempDir(), "mine.jsonl"))
	if r.code != ExitUsage || strings.Contains(r.err, "--dataset: dataset:") || !strings.Contains(r.err, "mine.jsonl") {
		t.Errorf("missing dataset: exit %d %q", r.code, r.err)
	}
	r = run(t, "", "eval", "--labels", filepath.Join(t.TempDir(), "nope.jsonl"))
	if r.code != ExitUsage || strings.Contains(r.err, "--labels: labels:") || !strings.Contains(r.err, "labels: open ") {
		t.Errorf("missing labels: exit %d %q", r.code, r.err)
	}
}
