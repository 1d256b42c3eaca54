package pipeline

import (
	"context"
	"log/slog"
	"sync"
)

// docHandler adds a document's attributes (trace and document id) to its
// log lines only once one is logged. Logger.With formats them into the
// handler at once, copying the handler's state and encoding each
// attribute, on every document, while a batch at the default level logs
// nothing for most documents; in `extract --batch` that was work on the
// path from one model reply to the next request. The lines are the same:
// the attributes reach the handler through WithAttrs, as With sends them.
type docHandler struct {
	h     slog.Handler
	attrs [2]slog.Attr
	n     int
	once  sync.Once
	with  slog.Handler
}

// withDoc is log.With(attrs...) whose attributes are formatted at the
// first line logged; at most two attributes.
func withDoc(log *slog.Logger, attrs ...slog.Attr) *slog.Logger {
	d := &docHandler{h: log.Handler()}
	d.n = copy(d.attrs[:], attrs)
	return slog.New(d)
}

func (d *docHandler) handler() slog.Handler {
	d.once.Do(func() { d.with = d.h.WithAttrs(d.attrs[:d.n]) })
	return d.with
}

func (d *docHandler) Enabled(ctx context.Context, level slog.Level) bool {
	return d.h.Enabled(ctx, level)
}

func (d *docHandler) Handle(ctx context.Context, r slog.Record) error {
	return d.handler().Handle(ctx, r)
}

func (d *docHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return d.handler().WithAttrs(attrs)
}

func (d *docHandler) WithGroup(name string) slog.Handler { return d.handler().WithGroup(name) }
