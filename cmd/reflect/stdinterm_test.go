//go:build linux

package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"
)

// `reflect extract` with no --file and a terminal on stdin says on stderr
// that it is reading the document (end with Ctrl-D) instead of waiting in
// silence, and Ctrl-C (the cancelled context main gives Run) ends it with
// exit 130 and no result, though the terminal was never closed.
func TestExtractFromATerminalSaysSoAndStopsOnCtrlC(t *testing.T) {
	p, err := openPTY(24, 80)
	if err != nil {
		t.Skipf("no pty: %v", err)
	}
	defer p.close()
	t.Setenv("REFLECT_STORE", t.TempDir()+"/s.db")
	t.Setenv("REFLECT_CACHE", t.TempDir()+"/c.db")
	t.Setenv("REFLECT_PROVIDER", "local")
	ctx, cancel := context.WithCancel(context.Background())
	var out bytes.Buffer
	errw := &lockedBuffer{}
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, []string{"extract", "--log-level", "error"}, Stdio{In: p.slave, Out: &out, Err: errw})
	}()
	giveUp := time.After(30 * time.Second)
	for !strings.Contains(errw.String(), "reading the document from stdin; end with Ctrl-D") {
		select {
		case err := <-done:
			t.Fatalf("extract returned before any input: %v\nstderr %q", err, errw.String())
		case <-giveUp:
			cancel()
			t.Fatalf("no hint on stderr while waiting for the terminal: %q", errw.String())
		case <-time.After(10 * time.Millisecond):
		}
	}
	cancel()
	select {
	case err := <-done:
		if ExitCode(err) != ExitInterrupted || out.Len() != 0 {
			t.Errorf("after Ctrl-C: exit %d, stdout %q", ExitCode(err), out.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Ctrl-C did not end a read of the terminal")
	}
}

// A piped document gets no hint: stderr stays for errors.
func TestExtractFromAPipeGivesNoHint(t *testing.T) {
	r := run(t, "ACME Corp\nTotal: 12.50", "extract", "--log-level", "error")
	if strings.Contains(r.err, "Ctrl-D") {
		t.Errorf("hint on a pipe: %q", r.err)
	}
}
