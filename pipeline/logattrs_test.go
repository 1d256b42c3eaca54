package pipeline

import (
	"bytes"
	"log/slog"
	"testing"
)

// A document's logger writes exactly the lines Logger.With would, the
// attributes before each line's own, through a group and further With
// calls too; it only formats them later.
func TestDocumentLoggerWritesWhatWithWrites(t *testing.T) {
	noTime := &slog.HandlerOptions{Level: slog.LevelDebug, ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
		if a.Key == slog.TimeKey && len(groups) == 0 {
			return slog.Attr{}
		}
		return a
	}}
	logLines := func(log *slog.Logger) {
		log.Debug("generated", "stage", "generate", "fields", 4)
		log.With("call", 2).Info("critique", "stage", "critique")
		log.WithGroup("g").Warn("gate", "status", "needs_review")
		log.Error("failed", "error", "boom")
	}
	for _, h := range []func(*bytes.Buffer) slog.Handler{
		func(b *bytes.Buffer) slog.Handler { return slog.NewJSONHandler(b, noTime) },
		func(b *bytes.Buffer) slog.Handler { return slog.NewTextHandler(b, noTime) },
	} {
		var want, got bytes.Buffer
		logLines(slog.New(h(&want)).With("trace_id", "trace-1", "doc_id", "inv-7"))
		logLines(withDoc(slog.New(h(&got)), slog.String("trace_id", "trace-1"), slog.String("doc_id", "inv-7")))
		if got.String() != want.String() {
			t.Errorf("document logger wrote\n%s\nLogger.With writes\n%s", got.String(), want.String())
		}
		want.Reset()
		got.Reset()
		logLines(slog.New(h(&want)).With("trace_id", "trace-2"))
		logLines(withDoc(slog.New(h(&got)), slog.String("trace_id", "trace-2")))
		if got.String() != want.String() {
			t.Errorf("document logger wrote\n%s\nLogger.With writes\n%s", got.String(), want.String())
		}
	}
}
