package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The terminal the end-to-end tests drive: a private tmux server, its
// screens, and the binary under test.

// tmuxTerm drives one tmux server on a private socket.
type tmuxTerm struct {
	t    *testing.T
	sock string
	env  []string
}

func (tm *tmuxTerm) run(args ...string) (string, error) {
	cmd := exec.Command("tmux", append([]string{"-S", tm.sock, "-f", "/dev/null"}, args...)...)
	cmd.Env = tm.env
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return out.String(), fmt.Errorf("tmux %s: %w: %s", strings.Join(args, " "), err, errb.String())
	}
	return out.String(), nil
}

func (tm *tmuxTerm) must(args ...string) string {
	tm.t.Helper()
	out, err := tm.run(args...)
	if err != nil {
		tm.t.Fatal(err)
	}
	return out
}

// keys sends tmux key names (Enter, C-u, q) one by one.
func (tm *tmuxTerm) keys(session string, keys ...string) {
	tm.t.Helper()
	for _, k := range keys {
		tm.must("send-keys", "-t", session, k)
	}
}

// typeText sends s literally, as typed characters.
func (tm *tmuxTerm) typeText(session, s string) {
	tm.t.Helper()
	tm.must("send-keys", "-t", session, "-l", s)
}

func (tm *tmuxTerm) screen(session string) string {
	out, err := tm.run("capture-pane", "-p", "-t", session)
	if err != nil {
		return "(capture failed: " + err.Error() + ")"
	}
	return out
}

// waitFor polls the screen until ok accepts it, failing after a bounded wait
// with the last screen in the message.
func (tm *tmuxTerm) waitFor(session, what string, ok func(screen string) bool) string {
	tm.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		s := tm.screen(session)
		if ok(s) {
			return s
		}
		if time.Now().After(deadline) {
			tm.t.Fatalf("timed out waiting for %s; screen:\n%s", what, s)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (tm *tmuxTerm) waitText(session string, subs ...string) string {
	tm.t.Helper()
	return tm.waitFor(session, fmt.Sprintf("%q", subs), func(s string) bool {
		for _, sub := range subs {
			if !strings.Contains(s, sub) {
				return false
			}
		}
		return true
	})
}

// waitExit waits for the review process to write its exit code.
func waitExit(t *testing.T, tm *tmuxTerm, session, rcFile string) int {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		if b, err := os.ReadFile(rcFile); err == nil && len(bytes.TrimSpace(b)) > 0 {
			rc, err := strconv.Atoi(strings.TrimSpace(string(b)))
			if err != nil {
				t.Fatalf("exit code file: %v", err)
			}
			return rc
		}
		if time.Now().After(deadline) {
			t.Fatalf("reflect review did not exit; screen:\n%s", tm.screen(session))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// fieldRow returns the document screen's table row of a field: a selection
// marker, a flag column, then the name.
func fieldRow(screen, field string) string {
	re := regexp.MustCompile(`^[ ▶][ !]` + regexp.QuoteMeta(field) + ` `)
	for _, l := range strings.Split(screen, "\n") {
		if re.MatchString(l) {
			return l
		}
	}
	return ""
}

var sgrRE = regexp.MustCompile(`\x1b\[([0-9;:]*)m`)

// colourSGR returns the first SGR sequence in s that sets a foreground or
// background colour, "" when none does.
func colourSGR(s string) string {
	for _, m := range sgrRE.FindAllStringSubmatch(s, -1) {
		for _, p := range strings.FieldsFunc(m[1], func(r rune) bool { return r == ';' || r == ':' }) {
			n, err := strconv.Atoi(p)
			if err != nil {
				continue
			}
			if (n >= 30 && n <= 49 && n != 39 && n != 49) || (n >= 90 && n <= 107) {
				return m[0]
			}
		}
	}
	return ""
}

// lineOf returns the first screen line containing sub.
func lineOf(screen, sub string) string {
	for _, l := range strings.Split(screen, "\n") {
		if strings.Contains(l, sub) {
			return l
		}
	}
	return ""
}

// cleanEnv is the environment without model keys and provider settings, so
// the binary runs the keyless local pipeline whatever the developer has set.
func cleanEnv(extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "REFLECT_") || strings.HasPrefix(k, "OPENAI_") || strings.HasPrefix(k, "ANTHROPIC_") ||
			strings.HasPrefix(k, "AWS_") || k == "TMUX" || k == "NO_COLOR" {
			continue
		}
		env = append(env, kv)
	}
	return append(env, extra...)
}

func buildBinary(t testing.TB, dir string) string {
	t.Helper()
	bin := filepath.Join(dir, "reflect")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "build", "-o", bin, "./cmd/reflect")
	cmd.Dir = filepath.Join("..", "..")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}
